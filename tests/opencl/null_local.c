// Launches with a NULL local size: the runtime picks the work-group size. The global sizes
// are awkward on purpose (a prime, a 2-D range with a prime dimension, a power of two);
// whatever the runtime picks must divide the global size, and every work-item must see
// consistent ids. Only the results, not the chosen sizes, are printed.
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
    "// out[i] = f(i) when the ids agree with each other, else a marker\n"
    "__kernel void square_1d(__global uint *out) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int ok = get_group_id(0) * get_local_size(0) + get_local_id(0) == g\n"
    "           && get_global_size(0) % get_local_size(0) == 0\n"
    "           && get_num_groups(0) * get_local_size(0) == get_global_size(0);\n"
    "  out[g] = ok ? (uint)(g * g + 1) : 0xdeadu;\n"
    "}\n"
    "__kernel void mix_2d(__global uint *out) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  int ok = get_group_id(1) * get_local_size(1) + get_local_id(1) == y\n"
    "           && get_global_size(1) % get_local_size(1) == 0\n"
    "           && get_group_id(0) * get_local_size(0) + get_local_id(0) == x;\n"
    "  out[y * get_global_size(0) + x] = ok ? (uint)(x * 1000 + y) : 0xdeadu;\n"
    "}\n";

static int check_1d(cl_context ctx, cl_command_queue q, cl_kernel k, size_t n) {
  cl_int err;
  cl_mem d = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &d));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  cl_uint *out = malloc(n * sizeof(cl_uint));
  CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, n * sizeof(cl_uint), out, 0, NULL, NULL));
  int bad = 0;
  cl_uint sum = 0;
  for (size_t i = 0; i < n; ++i) {
    bad += out[i] != (cl_uint)(i * i + 1);
    sum += out[i];
  }
  printf("1-D global %zu, local NULL: sum=%u %s\n", n, sum, bad ? "FAIL" : "PASS");
  free(out);
  CHECK(clReleaseMemObject(d));
  return bad;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
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
  cl_kernel k1 = clCreateKernel(program, "square_1d", &err);
  CHECK(err);
  cl_kernel k2 = clCreateKernel(program, "mix_2d", &err);
  CHECK(err);

  int bad = 0;
  bad += check_1d(ctx, queue, k1, 1009);   // prime
  bad += check_1d(ctx, queue, k1, 3000);   // 2^3 * 3 * 5^3
  bad += check_1d(ctx, queue, k1, 16384);  // power of two

  enum { W = 96, H = 37 };
  cl_mem d = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, W * H * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k2, 0, sizeof(cl_mem), &d));
  size_t global[2] = {W, H};
  CHECK(clEnqueueNDRangeKernel(queue, k2, 2, NULL, global, NULL, 0, NULL, NULL));
  static cl_uint out[W * H];
  CHECK(clEnqueueReadBuffer(queue, d, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  int bad2 = 0;
  cl_uint sum = 0;
  for (cl_uint y = 0; y < H; ++y)
    for (cl_uint x = 0; x < W; ++x) {
      bad2 += out[y * W + x] != x * 1000 + y;
      sum = sum * 3 + out[y * W + x];
    }
  printf("2-D global %dx%d, local NULL: hash=%u %s\n", W, H, sum, bad2 ? "FAIL" : "PASS");
  bad += bad2;
  printf("%s\n", bad ? "FAIL" : "PASS");

  CHECK(clReleaseMemObject(d));
  CHECK(clReleaseKernel(k1));
  CHECK(clReleaseKernel(k2));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return bad ? 1 : 0;
}
