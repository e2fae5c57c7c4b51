// Program objects: build from source (two source strings, build options with -D and
// -cl-kernel-arg-info), query the program (kernel names, binaries), rebuild it from its
// binary with clCreateProgramWithBinary, create all kernels at once with
// clCreateKernelsInProgram, and check that both programs compute the same results.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cl_int err_ = (call);                                                             \
    if (err_ != CL_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call, err_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

// Two strings, as a program assembled from a header and a body would be.
static const char *kHeader =
    "#define SCALE 3\n"
    "inline int mix(int a, int b) { return a * SCALE + (b ^ OFFSET); }\n";
static const char *kBody =
    "__kernel void combine(__global const int *restrict in, __global int *out, const int b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = mix(in[i], b + (int)i);\n"
    "}\n"
    "__kernel void negate(__global int *data) {\n"
    "  data[get_global_id(0)] = -data[get_global_id(0)];\n"
    "}\n"
    "__kernel void fill(__global uint *data, __local uint *scratch, uint value) {\n"
    "  scratch[get_local_id(0)] = value + get_local_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  data[get_global_id(0)] = scratch[get_local_size(0) - 1 - get_local_id(0)];\n"
    "}\n";

static void check_build(cl_program p, cl_device_id dev, cl_int err) {
  if (err == CL_SUCCESS) return;
  size_t len = 0;
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
  char *log = malloc(len + 1);
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
  log[len] = '\0';
  fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
  exit(1);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

enum { N = 512 };

// Runs `combine` then `negate` on the device; returns a hash of the result (0 = mismatch).
static cl_uint run(cl_context ctx, cl_command_queue q, cl_kernel combine, cl_kernel negate,
                   const cl_int *in, cl_int *out) {
  cl_int err;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int),
                              (void *)in, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
  CHECK(err);
  cl_int b = 1000;
  CHECK(clSetKernelArg(combine, 0, sizeof(cl_mem), &din));
  CHECK(clSetKernelArg(combine, 1, sizeof(cl_mem), &dout));
  CHECK(clSetKernelArg(combine, 2, sizeof(cl_int), &b));
  CHECK(clSetKernelArg(negate, 0, sizeof(cl_mem), &dout));
  size_t global = N, local = 32;
  CHECK(clEnqueueNDRangeKernel(q, combine, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(q, negate, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, N * sizeof(cl_int), out, 0, NULL, NULL));
  CHECK(clReleaseMemObject(din));
  CHECK(clReleaseMemObject(dout));
  cl_uint h = 1;
  for (int i = 0; i < N; ++i) {
    if (out[i] != -(in[i] * 3 + ((1000 + i) ^ 0x55))) return 0;
    h = h * 131u + (cl_uint)out[i];
  }
  return h;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  int failures = 0;

  const char *sources[2] = {kHeader, kBody};
  cl_program src_prog = clCreateProgramWithSource(ctx, 2, sources, NULL, &err);
  CHECK(err);
  err = clBuildProgram(src_prog, 1, &device, "-DOFFSET=0x55 -cl-kernel-arg-info", NULL, NULL);
  check_build(src_prog, device, err);
  cl_build_status bstatus;
  CHECK(clGetProgramBuildInfo(src_prog, device, CL_PROGRAM_BUILD_STATUS, sizeof(bstatus), &bstatus,
                              NULL));
  printf("build status: %s\n", bstatus == CL_BUILD_SUCCESS ? "CL_BUILD_SUCCESS" : "other");
  size_t opt_len = 0;
  CHECK(clGetProgramBuildInfo(src_prog, device, CL_PROGRAM_BUILD_OPTIONS, 0, NULL, &opt_len));
  char *opts = malloc(opt_len);
  CHECK(clGetProgramBuildInfo(src_prog, device, CL_PROGRAM_BUILD_OPTIONS, opt_len, opts, NULL));
  printf("build options: %s\n", opts);
  free(opts);

  // Kernel names: a ';'-separated list in an unspecified order, sorted here.
  size_t num_kernels = 0, names_len = 0;
  CHECK(
      clGetProgramInfo(src_prog, CL_PROGRAM_NUM_KERNELS, sizeof(num_kernels), &num_kernels, NULL));
  CHECK(clGetProgramInfo(src_prog, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &names_len));
  char *names = malloc(names_len);
  CHECK(clGetProgramInfo(src_prog, CL_PROGRAM_KERNEL_NAMES, names_len, names, NULL));
  char *list[8];
  int count = 0;
  for (char *tok = strtok(names, ";"); tok && count < 8; tok = strtok(NULL, ";"))
    list[count++] = tok;
  qsort(list, count, sizeof(char *), cmp_str);
  printf("CL_PROGRAM_NUM_KERNELS=%zu names:", num_kernels);
  for (int i = 0; i < count; ++i) printf(" %s", list[i]);
  printf("\n");
  free(names);

  // Argument info (needs -cl-kernel-arg-info).
  cl_kernel combine = clCreateKernel(src_prog, "combine", &err);
  CHECK(err);
  cl_uint nargs = 0;
  CHECK(clGetKernelInfo(combine, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
  printf("combine: %u arguments\n", nargs);
  for (cl_uint i = 0; i < nargs; ++i) {
    char name[64], type[64];
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_type_qualifier tq;
    CHECK(clGetKernelArgInfo(combine, i, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL));
    CHECK(clGetKernelArgInfo(combine, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, NULL));
    CHECK(clGetKernelArgInfo(combine, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
    CHECK(clGetKernelArgInfo(combine, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
    printf("  arg %u: %s %s, %s%s%s\n", i, type, name,
           aq == CL_KERNEL_ARG_ADDRESS_GLOBAL    ? "global"
           : aq == CL_KERNEL_ARG_ADDRESS_PRIVATE ? "private"
                                                 : "other",
           tq & CL_KERNEL_ARG_TYPE_CONST ? " const" : "",
           tq & CL_KERNEL_ARG_TYPE_RESTRICT ? " restrict" : "");
  }
  cl_kernel negate = clCreateKernel(src_prog, "negate", &err);
  CHECK(err);

  static cl_int in[N], out1[N], out2[N];
  for (int i = 0; i < N; ++i) in[i] = (i * 7919) % 2001 - 1000;
  cl_uint h1 = run(ctx, q, combine, negate, in, out1);
  printf("from source: %s hash=%u\n", h1 ? "PASS" : "FAIL", h1);
  failures += h1 == 0;

  // The binary of the one device.
  size_t bin_size = 0;
  CHECK(clGetProgramInfo(src_prog, CL_PROGRAM_BINARY_SIZES, sizeof(bin_size), &bin_size, NULL));
  unsigned char *binary = malloc(bin_size);
  unsigned char *bins[1] = {binary};
  CHECK(clGetProgramInfo(src_prog, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL));
  printf("binary size > 0: %s\n", bin_size > 0 ? "yes" : "no");

  // A new context and queue, as another run of the program loading a cached binary would.
  cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q2 = clCreateCommandQueue(ctx2, device, 0, &err);
  CHECK(err);
  cl_int bin_status = -1;
  const unsigned char *cbins[1] = {binary};
  cl_program bin_prog =
      clCreateProgramWithBinary(ctx2, 1, &device, &bin_size, cbins, &bin_status, &err);
  CHECK(err);
  CHECK(bin_status);
  err = clBuildProgram(bin_prog, 1, &device, NULL, NULL, NULL);
  check_build(bin_prog, device, err);
  cl_kernel kernels[8];
  cl_uint made = 0;
  CHECK(clCreateKernelsInProgram(bin_prog, 8, kernels, &made));
  printf("clCreateKernelsInProgram on the binary program: %u kernels\n", made);
  cl_kernel combine2 = NULL, negate2 = NULL, fill2 = NULL;
  for (cl_uint i = 0; i < made; ++i) {
    char name[64];
    CHECK(clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL));
    if (strcmp(name, "combine") == 0) combine2 = kernels[i];
    if (strcmp(name, "negate") == 0) negate2 = kernels[i];
    if (strcmp(name, "fill") == 0) fill2 = kernels[i];
  }
  if (!combine2 || !negate2 || !fill2) {
    fprintf(stderr, "a kernel is missing from the binary program\n");
    return 1;
  }
  cl_uint h2 = run(ctx2, q2, combine2, negate2, in, out2);
  printf("from binary: %s (same as from source: %s)\n", h2 ? "PASS" : "FAIL",
         h2 == h1 && memcmp(out1, out2, sizeof(out1)) == 0 ? "yes" : "no");
  failures += h2 == 0 || h2 != h1;

  // The third kernel, with a __local argument, from the binary program.
  cl_uint fill_out[64];
  cl_mem dfill = clCreateBuffer(ctx2, CL_MEM_WRITE_ONLY, sizeof(fill_out), NULL, &err);
  CHECK(err);
  cl_uint value = 500;
  CHECK(clSetKernelArg(fill2, 0, sizeof(cl_mem), &dfill));
  CHECK(clSetKernelArg(fill2, 1, 16 * sizeof(cl_uint), NULL));
  CHECK(clSetKernelArg(fill2, 2, sizeof(cl_uint), &value));
  size_t global = 64, local = 16;
  CHECK(clEnqueueNDRangeKernel(q2, fill2, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q2, dfill, CL_TRUE, 0, sizeof(fill_out), fill_out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += fill_out[i] != 500u + 15u - (cl_uint)(i % 16);
  printf("fill (local argument) from binary: %s\n", bad ? "FAIL" : "PASS");
  failures += bad != 0;

  printf("%s\n", failures ? "FAIL" : "PASS");
  CHECK(clReleaseMemObject(dfill));
  for (cl_uint i = 0; i < made; ++i) CHECK(clReleaseKernel(kernels[i]));
  CHECK(clReleaseKernel(combine));
  CHECK(clReleaseKernel(negate));
  CHECK(clReleaseProgram(src_prog));
  CHECK(clReleaseProgram(bin_prog));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseCommandQueue(q2));
  CHECK(clReleaseContext(ctx));
  CHECK(clReleaseContext(ctx2));
  free(binary);
  return failures ? 1 : 0;
}
