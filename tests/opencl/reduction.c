// Parallel reduction in several passes: each work-group sums 2 * local-size elements in
// local memory (a tree with a barrier per level) and writes one partial sum; the host
// launches the kernel again on the partial sums until one value is left. The buffers stay
// on the device between passes. A second kernel finds the minimum and maximum of signed
// data in one pass with __local arrays declared in the kernel.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <limits.h>
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
    "__kernel void reduce_sum(__global const uint *in, __global uint *out,\n"
    "                         __local uint *scratch, uint n) {\n"
    "  uint lid = get_local_id(0), ls = get_local_size(0);\n"
    "  uint i = get_group_id(0) * ls * 2 + lid;\n"
    "  uint v = i < n ? in[i] : 0u;\n"
    "  if (i + ls < n) v += in[i + ls];\n"
    "  scratch[lid] = v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = ls / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) scratch[lid] += scratch[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "\n"
    "#define GROUP 128\n"
    "__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))\n"
    "void reduce_minmax(__global const int *in, __global int2 *out, int n) {\n"
    "  __local int lmin[GROUP];\n"
    "  __local int lmax[GROUP];\n"
    "  int lid = get_local_id(0);\n"
    "  int mn = INT_MAX, mx = INT_MIN;\n"
    "  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "    mn = min(mn, in[i]);\n"
    "    mx = max(mx, in[i]);\n"
    "  }\n"
    "  lmin[lid] = mn;\n"
    "  lmax[lid] = mx;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int s = GROUP / 2; s > 0; s /= 2) {\n"
    "    if (lid < s) {\n"
    "      lmin[lid] = min(lmin[lid], lmin[lid + s]);\n"
    "      lmax[lid] = max(lmax[lid], lmax[lid + s]);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = (int2)(lmin[0], lmax[0]);\n"
    "}\n";

int main(void) {
  enum { N = 100000, LOCAL = 128, MINMAX_GROUPS = 16 };
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
  cl_kernel ksum = clCreateKernel(program, "reduce_sum", &err);
  CHECK(err);
  cl_kernel kminmax = clCreateKernel(program, "reduce_minmax", &err);
  CHECK(err);

  static cl_uint data[N];
  static cl_int sdata[N];
  cl_uint ref_sum = 0;
  cl_int ref_min = INT_MAX, ref_max = INT_MIN;
  cl_uint x = 12345u;
  for (int i = 0; i < N; ++i) {
    x = x * 1664525u + 1013904223u;  // LCG: deterministic on every host
    data[i] = x >> 20;               // 0..4095: the total stays below 2^32
    ref_sum += data[i];
    sdata[i] = (cl_int)(x ^ (x >> 7)) / 3;
    if (sdata[i] < ref_min) ref_min = sdata[i];
    if (sdata[i] > ref_max) ref_max = sdata[i];
  }

  // Two ping-pong buffers: pass p reads one and writes the other.
  size_t groups0 = (N + 2 * LOCAL - 1) / (2 * LOCAL);
  cl_mem bufs[2];
  bufs[0] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(data), data, &err);
  CHECK(err);
  bufs[1] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups0 * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  cl_uint n = N;
  int passes = 0, cur = 0;
  while (n > 1) {
    size_t groups = (n + 2 * LOCAL - 1) / (2 * LOCAL);
    size_t global = groups * LOCAL, local = LOCAL;
    CHECK(clSetKernelArg(ksum, 0, sizeof(cl_mem), &bufs[cur]));
    CHECK(clSetKernelArg(ksum, 1, sizeof(cl_mem), &bufs[1 - cur]));
    CHECK(clSetKernelArg(ksum, 2, LOCAL * sizeof(cl_uint), NULL));
    CHECK(clSetKernelArg(ksum, 3, sizeof(cl_uint), &n));
    CHECK(clEnqueueNDRangeKernel(queue, ksum, 1, NULL, &global, &local, 0, NULL, NULL));
    n = (cl_uint)groups;
    cur = 1 - cur;
    ++passes;
  }
  cl_uint sum = 0;
  CHECK(clEnqueueReadBuffer(queue, bufs[cur], CL_TRUE, 0, sizeof(cl_uint), &sum, 0, NULL, NULL));

  cl_mem dsigned =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(sdata), sdata, &err);
  CHECK(err);
  cl_mem dpartial =
      clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, MINMAX_GROUPS * sizeof(cl_int2), NULL, &err);
  CHECK(err);
  cl_int sn = N;
  CHECK(clSetKernelArg(kminmax, 0, sizeof(cl_mem), &dsigned));
  CHECK(clSetKernelArg(kminmax, 1, sizeof(cl_mem), &dpartial));
  CHECK(clSetKernelArg(kminmax, 2, sizeof(cl_int), &sn));
  size_t global = MINMAX_GROUPS * 128, local = 128;
  CHECK(clEnqueueNDRangeKernel(queue, kminmax, 1, NULL, &global, &local, 0, NULL, NULL));
  cl_int2 partial[MINMAX_GROUPS];
  CHECK(clEnqueueReadBuffer(queue, dpartial, CL_TRUE, 0, sizeof(partial), partial, 0, NULL, NULL));
  cl_int mn = INT_MAX, mx = INT_MIN;
  for (int g = 0; g < MINMAX_GROUPS; ++g) {
    if (partial[g].s[0] < mn) mn = partial[g].s[0];
    if (partial[g].s[1] > mx) mx = partial[g].s[1];
  }

  int ok_sum = sum == ref_sum, ok_minmax = mn == ref_min && mx == ref_max;
  printf("reduction: n=%d, %d passes of local size %d\n", N, passes, LOCAL);
  printf("sum=%u expected=%u %s\n", sum, ref_sum, ok_sum ? "PASS" : "FAIL");
  printf("min=%d max=%d expected min=%d max=%d %s\n", mn, mx, ref_min, ref_max,
         ok_minmax ? "PASS" : "FAIL");
  printf("%s\n", ok_sum && ok_minmax ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(bufs[0]));
  CHECK(clReleaseMemObject(bufs[1]));
  CHECK(clReleaseMemObject(dsigned));
  CHECK(clReleaseMemObject(dpartial));
  CHECK(clReleaseKernel(ksum));
  CHECK(clReleaseKernel(kminmax));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return ok_sum && ok_minmax ? 0 : 1;
}
