// 256-bin histogram of 2^17 bytes, computed twice: with atomic increments on global memory,
// and with a per-work-group histogram in local memory (local atomics) merged into the
// global bins with atomic_add. A third kernel exercises atomic_min/max/or/xchg/cmpxchg.
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

static const char *kSource =
    "__kernel void hist_global(__global const uchar *data, uint n, __global uint *bins) {\n"
    "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    atomic_inc(&bins[data[i]]);\n"
    "}\n"
    "\n"
    "__kernel void hist_local(__global const uchar *data, uint n, __global uint *bins) {\n"
    "  __local uint lbins[256];\n"
    "  for (uint b = get_local_id(0); b < 256; b += get_local_size(0)) lbins[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    atomic_add(&lbins[data[i]], 1u);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint b = get_local_id(0); b < 256; b += get_local_size(0))\n"
    "    if (lbins[b]) atomic_add(&bins[b], lbins[b]);\n"
    "}\n"
    "\n"
    "// stats: [0] min, [1] max, [2] OR of all, [3] count of values >= 200,\n"
    "// [4] the last xchg'd value (any), [5] cmpxchg winners (exactly one)\n"
    "__kernel void stats(__global const uchar *data, uint n, __global int *stats) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  int v = data[i];\n"
    "  atomic_min(&stats[0], v);\n"
    "  atomic_max(&stats[1], v);\n"
    "  atomic_or(&stats[2], 1 << (v & 31));\n"
    "  if (v >= 200) atomic_inc(&stats[3]);\n"
    "  atomic_xchg(&stats[4], v);\n"
    "  if (atomic_cmpxchg(&stats[6], 0, (int)i + 1) == 0) atomic_inc(&stats[5]);\n"
    "}\n";

int main(void) {
  enum { N = 1 << 17, LOCAL = 64, GROUPS = 32 };
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
  cl_kernel kglobal = clCreateKernel(program, "hist_global", &err);
  CHECK(err);
  cl_kernel klocal = clCreateKernel(program, "hist_local", &err);
  CHECK(err);
  cl_kernel kstats = clCreateKernel(program, "stats", &err);
  CHECK(err);

  // A skewed distribution (sum of two hashed bytes, folded): some bins are hot, which is
  // what makes the atomics contend.
  static unsigned char data[N];
  cl_uint ref[256] = {0};
  cl_uint x = 7u;
  for (int i = 0; i < N; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = (unsigned char)(((x & 0xff) + ((x >> 8) & 0xff)) / 2 + (i % 3 == 0 ? 40 : 0));
    ref[data[i]]++;
  }

  cl_mem ddata = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, data, &err);
  CHECK(err);
  cl_mem dbins = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  cl_uint n = N, zero = 0;
  cl_uint bins_global[256], bins_local[256];
  size_t global = GROUPS * LOCAL, local = LOCAL;

  CHECK(clEnqueueFillBuffer(queue, dbins, &zero, sizeof(zero), 0, 256 * sizeof(cl_uint), 0, NULL,
                            NULL));
  CHECK(clSetKernelArg(kglobal, 0, sizeof(cl_mem), &ddata));
  CHECK(clSetKernelArg(kglobal, 1, sizeof(cl_uint), &n));
  CHECK(clSetKernelArg(kglobal, 2, sizeof(cl_mem), &dbins));
  CHECK(clEnqueueNDRangeKernel(queue, kglobal, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dbins, CL_TRUE, 0, sizeof(bins_global), bins_global, 0, NULL,
                            NULL));

  CHECK(clEnqueueFillBuffer(queue, dbins, &zero, sizeof(zero), 0, 256 * sizeof(cl_uint), 0, NULL,
                            NULL));
  CHECK(clSetKernelArg(klocal, 0, sizeof(cl_mem), &ddata));
  CHECK(clSetKernelArg(klocal, 1, sizeof(cl_uint), &n));
  CHECK(clSetKernelArg(klocal, 2, sizeof(cl_mem), &dbins));
  CHECK(clEnqueueNDRangeKernel(queue, klocal, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(
      clEnqueueReadBuffer(queue, dbins, CL_TRUE, 0, sizeof(bins_local), bins_local, 0, NULL, NULL));

  // stats on the first 4096 bytes, one work-item each.
  enum { SN = 4096 };
  cl_int init[7] = {255, 0, 0, 0, -1, 0, 0}, stats[7];
  cl_mem dstats =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(init), init, &err);
  CHECK(err);
  cl_uint sn = SN;
  CHECK(clSetKernelArg(kstats, 0, sizeof(cl_mem), &ddata));
  CHECK(clSetKernelArg(kstats, 1, sizeof(cl_uint), &sn));
  CHECK(clSetKernelArg(kstats, 2, sizeof(cl_mem), &dstats));
  size_t sglobal = SN, slocal = 128;
  CHECK(clEnqueueNDRangeKernel(queue, kstats, 1, NULL, &sglobal, &slocal, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dstats, CL_TRUE, 0, sizeof(stats), stats, 0, NULL, NULL));

  cl_int rmin = 255, rmax = 0, ror = 0, rge = 0;
  int xchg_seen = 0;
  for (int i = 0; i < SN; ++i) {
    if (data[i] < rmin) rmin = data[i];
    if (data[i] > rmax) rmax = data[i];
    ror |= 1 << (data[i] & 31);
    rge += data[i] >= 200;
    xchg_seen |= stats[4] == data[i];
  }

  int bad_global = memcmp(bins_global, ref, sizeof(ref)) != 0;
  int bad_local = memcmp(bins_local, ref, sizeof(ref)) != 0;
  int bad_stats = stats[0] != rmin || stats[1] != rmax || stats[2] != ror || stats[3] != rge ||
                  !xchg_seen || stats[5] != 1 || stats[6] < 1 || stats[6] > SN;
  cl_uint total = 0, weighted = 0, hottest = 0;
  for (int b = 0; b < 256; ++b) {
    total += bins_local[b];
    weighted += bins_local[b] * (cl_uint)b;
    if (bins_local[b] > bins_local[hottest]) hottest = (cl_uint)b;
  }
  printf("histogram: %d bytes, 256 bins\n", N);
  printf("bins[0..7]:");
  for (int b = 0; b < 8; ++b) printf(" %u", bins_local[b]);
  printf("\nbins[120..127]:");
  for (int b = 120; b < 128; ++b) printf(" %u", bins_local[b]);
  printf("\ntotal=%u weighted=%u hottest bin=%u (%u)\n", total, weighted, hottest,
         bins_local[hottest]);
  printf("global atomics: %s\n", bad_global ? "FAIL" : "PASS");
  printf("local atomics: %s\n", bad_local ? "FAIL" : "PASS");
  printf("atomic min=%d max=%d or=0x%08x count>=200=%d cmpxchg winners=%d: %s\n", stats[0],
         stats[1], (unsigned)stats[2], stats[3], stats[5], bad_stats ? "FAIL" : "PASS");
  int ok = !bad_global && !bad_local && !bad_stats;
  printf("%s\n", ok ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(ddata));
  CHECK(clReleaseMemObject(dbins));
  CHECK(clReleaseMemObject(dstats));
  CHECK(clReleaseKernel(kglobal));
  CHECK(clReleaseKernel(klocal));
  CHECK(clReleaseKernel(kstats));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return ok ? 0 : 1;
}
