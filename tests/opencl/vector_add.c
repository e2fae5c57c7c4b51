// Vector addition: the "hello world" of OpenCL. One work-item per element, a global size
// rounded up to a multiple of the work-group size and a bounds check in the kernel.
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
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c, const unsigned int n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
  enum { N = 50000, LOCAL = 64 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);

  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "vadd", &err);
  CHECK(err);

  // Values that are multiples of 1/4 below 1000: every sum is exact in float.
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
  float *c = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)((i * 7) % 1000) * 0.25f;
    c[i] = -1.0f;
  }
  cl_mem da =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, N * sizeof(float), NULL, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(queue, db, CL_TRUE, 0, N * sizeof(float), b, 0, NULL, NULL));

  cl_uint n = N;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc));
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_uint), &n));
  size_t local = LOCAL;
  size_t global = (N + LOCAL - 1) / LOCAL * LOCAL;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));

  int mismatches = 0;
  double checksum = 0.0;
  for (int i = 0; i < N; ++i) {
    if (c[i] != a[i] + b[i]) {
      if (mismatches < 5) printf("mismatch at %d: got %.2f, expected %.2f\n", i, c[i], a[i] + b[i]);
      ++mismatches;
    }
    checksum += c[i];
  }
  printf("vector_add: n=%d\n", N);
  printf("c[0]=%.2f c[1]=%.2f c[12345]=%.2f c[%d]=%.2f\n", c[0], c[1], c[12345], N - 1, c[N - 1]);
  printf("checksum=%.2f\n", checksum);
  printf("mismatches=%d\n", mismatches);
  printf("%s\n", mismatches == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(da));
  CHECK(clReleaseMemObject(db));
  CHECK(clReleaseMemObject(dc));
  CHECK(clReleaseKernel(kernel));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  free(a);
  free(b);
  free(c);
  return mismatches == 0 ? 0 : 1;
}
