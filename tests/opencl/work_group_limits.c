// The largest work-groups and local allocations the device allows, as a program that
// wants to use all of them would pick them: a reduction with the work-group size the
// kernel reports as its maximum (CL_KERNEL_WORK_GROUP_SIZE, rounded down to a power of
// two), and a kernel whose __local argument takes what CL_DEVICE_LOCAL_MEM_SIZE leaves
// after the kernel's own __local data (CL_KERNEL_LOCAL_MEM_SIZE), at most 32 KiB. The
// sizes differ between devices; the printed results do not.
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
    "__kernel void group_sum(__global const uint *in, __global uint *out, __local uint *s) {\n"
    "  uint lid = get_local_id(0);\n"
    "  s[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint k = get_local_size(0) / 2; k > 0; k >>= 1) {\n"
    "    if (lid < k) s[lid] += s[lid + k];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = s[0];\n"
    "}\n"
    "\n"
    "// Fills the whole __local buffer (words) with a pattern, then each work-item sums a\n"
    "// strided slice written by the others.\n"
    "__kernel void big_local(__global uint *out, __local uint *buf, uint words) {\n"
    "  __local uint flag[4];\n"
    "  uint lid = get_local_id(0), ls = get_local_size(0);\n"
    "  if (lid < 4) flag[lid] = lid;\n"
    "  for (uint w = lid; w < words; w += ls) buf[w] = w * 2654435761u + get_group_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint sum = flag[3];\n"
    "  for (uint w = ls - 1 - lid; w < words; w += ls) sum += buf[w] >> 7;\n"
    "  out[get_global_id(0)] = sum;\n"
    "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  size_t max_items[3];
  cl_ulong local_mem = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(max_items), max_items, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local_mem), &local_mem, NULL));
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
  cl_kernel ksum = clCreateKernel(program, "group_sum", &err);
  CHECK(err);
  cl_kernel kbig = clCreateKernel(program, "big_local", &err);
  CHECK(err);
  int failures = 0;

  // --- the largest power-of-two work-group of group_sum (at most 1024, for the run time).
  size_t kmax = 0;
  CHECK(
      clGetKernelWorkGroupInfo(ksum, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax), &kmax, NULL));
  size_t wg = 1;
  while (wg * 2 <= kmax && wg * 2 <= max_items[0] && wg * 2 <= 1024) wg *= 2;
  printf("work-group size is a power of two >= 64: %s\n", wg >= 64 ? "yes" : "no");
  enum { N = 1 << 16 };
  static cl_uint data[N], partial[N];
  cl_uint ref = 0;
  for (cl_uint i = 0; i < N; ++i) {
    data[i] = (i * 2246822519u) >> 20;
    ref += data[i];
  }
  cl_mem din =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(data), data, &err);
  CHECK(err);
  cl_mem dpartial = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(partial), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(ksum, 0, sizeof(cl_mem), &din));
  CHECK(clSetKernelArg(ksum, 1, sizeof(cl_mem), &dpartial));
  CHECK(clSetKernelArg(ksum, 2, wg * sizeof(cl_uint), NULL));
  size_t global = N;
  CHECK(clEnqueueNDRangeKernel(q, ksum, 1, NULL, &global, &wg, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dpartial, CL_TRUE, 0, N / wg * sizeof(cl_uint), partial, 0, NULL,
                            NULL));
  cl_uint sum = 0;
  for (size_t g = 0; g < N / wg; ++g) sum += partial[g];
  printf("sum with the largest work-group: %u %s\n", sum, sum == ref ? "PASS" : "FAIL");
  failures += sum != ref;

  // --- the largest __local argument next to the kernel's own __local data.
  cl_ulong static_local = 0;
  CHECK(clGetKernelWorkGroupInfo(kbig, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(static_local),
                                 &static_local, NULL));
  cl_ulong budget = local_mem < 32 * 1024 ? local_mem : 32 * 1024;
  // Whole 64-byte lines, leaving room for the static data with some slack for alignment.
  cl_ulong bytes = (budget - static_local - 64) / 64 * 64;
  cl_uint words = (cl_uint)(bytes / 4);
  printf("local buffer >= 30 KiB: %s\n", bytes >= 30 * 1024 ? "yes" : "no");
  size_t bwg = 256, groups = 4, bglobal = bwg * groups;
  size_t kbig_max = 0;
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bglobal * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kbig, 0, sizeof(cl_mem), &dout));
  CHECK(clSetKernelArg(kbig, 1, (size_t)bytes, NULL));
  CHECK(clSetKernelArg(kbig, 2, sizeof(cl_uint), &words));
  CHECK(clGetKernelWorkGroupInfo(kbig, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kbig_max),
                                 &kbig_max, NULL));
  while (bwg > kbig_max) bwg /= 2;
  bglobal = bwg * groups;
  CHECK(clEnqueueNDRangeKernel(q, kbig, 1, NULL, &bglobal, &bwg, 0, NULL, NULL));
  cl_uint *out = malloc(bglobal * sizeof(cl_uint));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, bglobal * sizeof(cl_uint), out, 0, NULL, NULL));
  int bad = 0;
  cl_uint total = 0, ref_total = 0;
  for (size_t g = 0; g < groups; ++g)
    for (size_t l = 0; l < bwg; ++l) {
      cl_uint e = 3;
      for (cl_uint w = (cl_uint)(bwg - 1 - l); w < words; w += (cl_uint)bwg)
        e += (w * 2654435761u + (cl_uint)g) >> 7;
      bad += out[g * bwg + l] != e;
      ref_total += e;
      total += out[g * bwg + l];
    }
  // The total depends on the local size the device allowed; only PASS/FAIL is printed.
  printf("every word of the large __local buffer written and read back: %s\n",
         !bad && total == ref_total ? "PASS" : "FAIL");
  failures += bad != 0;
  printf("%s\n", failures ? "FAIL" : "PASS");

  free(out);
  CHECK(clReleaseMemObject(din));
  CHECK(clReleaseMemObject(dpartial));
  CHECK(clReleaseMemObject(dout));
  CHECK(clReleaseKernel(ksum));
  CHECK(clReleaseKernel(kbig));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
