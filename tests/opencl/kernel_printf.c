// printf in kernels: one work-item prints with the common conversions (integers, hex,
// chars, strings, floats with precision, width and flags, 64-bit integers, length modifiers
// and OpenCL's vector conversions such as %v4hlf); then the work-items of one
// work-group take turns, separated by barriers, so the order of their lines is defined.
// The host flushes its own stdout before each launch and waits for the kernel before
// printing again, so host and kernel lines interleave the same way on every platform.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cl_int err_ = (call);                                                             \
    if (err_ != CL_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call, err_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static const char *kSource =
    "__kernel void formats(__global const int *values, float f) {\n"
    "  if (get_global_id(0) != 0) return;\n"
    "  printf(\"hello from the device\\n\");\n"
    "  printf(\"int %d, negative %d, unsigned %u\\n\", values[0], values[1], (uint)values[2]);\n"
    "  printf(\"hex %x %X %#x, octal %o\\n\", values[3], values[3], values[4], values[5]);\n"
    "  printf(\"char %c%c%c, string '%s'\\n\", 'a', 'b' + 1, (char)values[6], \"ventus\");\n"
    "  printf(\"float %f %.2f %.3e %g\\n\", f, f * 2.0f, f * 1000.0f, 0.125f);\n"
    "  printf(\"width [%5d] [%-5d] [%05d] [%+d] [%8.3f]\\n\", 42, 42, 42, 42, f);\n"
    "  printf(\"percent %% done\\n\");\n"
    "  printf(\"vectors %v4hlf | %#v2hlx | %v3hld | %v2hhd | %v8hu | %5.1v2hlf\\n\", (float4)(f, "
    "-f, "
    "0.5f, 1e10f), (uint2)(0xbeef, 255), (int3)(values[0], values[1], -1), (char2)(-5, 100), "
    "(ushort8)(1, 2, 3, 65535, 5, 6, 7, (ushort)values[1]), (float2)(f, 2.0f));\n"
    "  printf(\"long %ld %lu %lx %v2ld %hd %hhu\\n\", (long)values[1] * 100000000000L, "
    "18446744073709551615UL, 0x123456789abcdefUL, (long2)(-1, 1L << 40), (short)values[2], "
    "(uchar)values[1]);\n"
    "}\n"
    "__kernel void turns(__global int *sum) {\n"
    "  int id = get_local_id(0);\n"
    "  for (int i = 0; i < (int)get_local_size(0); ++i) {\n"
    "    if (i == id) printf(\"work-item %d of %d says %d\\n\", id, (int)get_local_size(0), id * "
    "id);\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  }\n"
    "  atomic_add(sum, id);\n"
    "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
    return 1;
  }
  cl_kernel kformats = clCreateKernel(program, "formats", &err);
  CHECK(err);
  cl_kernel kturns = clCreateKernel(program, "turns", &err);
  CHECK(err);

  // values[2] has the top bit set: %u of (uint) prints 3000000000.
  cl_int values[7] = {12345, -678, (cl_int)3000000000u, 0xbeef, 255, 8, 'z'};
  cl_mem dvalues =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(values), values, &err);
  CHECK(err);
  float f = 3.140625f;  // exact in binary: every platform rounds it the same way
  CHECK(clSetKernelArg(kformats, 0, sizeof(cl_mem), &dvalues));
  CHECK(clSetKernelArg(kformats, 1, sizeof(float), &f));

  printf("host: before the first kernel\n");
  fflush(stdout);
  size_t global = 64, local = 16;
  CHECK(clEnqueueNDRangeKernel(q, kformats, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clFinish(q));
  fflush(stdout);
  printf("host: between the kernels\n");
  fflush(stdout);

  cl_int zero = 0, sum = -1;
  cl_mem dsum =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(zero), &zero, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kturns, 0, sizeof(cl_mem), &dsum));
  size_t tglobal = 8, tlocal = 8;
  CHECK(clEnqueueNDRangeKernel(q, kturns, 1, NULL, &tglobal, &tlocal, 0, NULL, NULL));
  CHECK(clFinish(q));
  fflush(stdout);
  CHECK(clEnqueueReadBuffer(q, dsum, CL_TRUE, 0, sizeof(sum), &sum, 0, NULL, NULL));
  printf("host: after the kernels, sum of ids=%d %s\n", sum, sum == 28 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(dvalues));
  CHECK(clReleaseMemObject(dsum));
  CHECK(clReleaseKernel(kformats));
  CHECK(clReleaseKernel(kturns));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return sum == 28 ? 0 : 1;
}
