// Exclusive prefix sum of 100000 elements with the work-efficient (Blelloch) scan: each
// work-group scans a block of 2 * LOCAL elements in local memory (up-sweep, down-sweep)
// and writes the block's total; the block totals are scanned the same way (recursively,
// as many levels as needed) and a third kernel adds each block's offset. All levels stay
// in device buffers; only the final result is read back.
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
    "__kernel void scan_block(__global const uint *in, __global uint *out,\n"
    "                         __global uint *block_sums, __local uint *tmp, uint n) {\n"
    "  uint lid = get_local_id(0);\n"
    "  uint m = 2 * get_local_size(0);\n"
    "  uint base = get_group_id(0) * m;\n"
    "  tmp[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0;\n"
    "  tmp[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0;\n"
    "  uint offset = 1;\n"
    "  for (uint d = m >> 1; d > 0; d >>= 1) {  // up-sweep\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d) {\n"
    "      uint ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;\n"
    "      tmp[bi] += tmp[ai];\n"
    "    }\n"
    "    offset <<= 1;\n"
    "  }\n"
    "  if (lid == 0) {\n"
    "    block_sums[get_group_id(0)] = tmp[m - 1];\n"
    "    tmp[m - 1] = 0;\n"
    "  }\n"
    "  for (uint d = 1; d < m; d <<= 1) {  // down-sweep\n"
    "    offset >>= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d) {\n"
    "      uint ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;\n"
    "      uint t = tmp[ai];\n"
    "      tmp[ai] = tmp[bi];\n"
    "      tmp[bi] += t;\n"
    "    }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (base + 2 * lid < n) out[base + 2 * lid] = tmp[2 * lid];\n"
    "  if (base + 2 * lid + 1 < n) out[base + 2 * lid + 1] = tmp[2 * lid + 1];\n"
    "}\n"
    "\n"
    "__kernel void add_offsets(__global uint *data, __global const uint *offsets, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n) data[i] += offsets[i / (2 * get_local_size(0))];\n"
    "}\n";

enum { LOCAL = 128, BLOCK = 2 * LOCAL };

static cl_kernel kscan, kadd;
static cl_context ctx;
static cl_command_queue queue;
static int launches;

// Scans n elements of `in` into `out` (device buffers), recursing on the block totals.
static void scan(cl_mem in, cl_mem out, cl_uint n) {
  cl_int err;
  cl_uint blocks = (n + BLOCK - 1) / BLOCK;
  cl_mem sums = clCreateBuffer(ctx, CL_MEM_READ_WRITE, blocks * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kscan, 0, sizeof(cl_mem), &in));
  CHECK(clSetKernelArg(kscan, 1, sizeof(cl_mem), &out));
  CHECK(clSetKernelArg(kscan, 2, sizeof(cl_mem), &sums));
  CHECK(clSetKernelArg(kscan, 3, BLOCK * sizeof(cl_uint), NULL));
  CHECK(clSetKernelArg(kscan, 4, sizeof(cl_uint), &n));
  size_t global = (size_t)blocks * LOCAL, local = LOCAL;
  CHECK(clEnqueueNDRangeKernel(queue, kscan, 1, NULL, &global, &local, 0, NULL, NULL));
  ++launches;
  if (blocks > 1) {
    cl_mem scanned = clCreateBuffer(ctx, CL_MEM_READ_WRITE, blocks * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    scan(sums, scanned, blocks);
    // Each work-item of add_offsets covers one element; BLOCK elements share an offset,
    // so the work-group size is BLOCK / 2 (the kernel divides by 2 * local size).
    size_t g2 = ((size_t)n + LOCAL - 1) / LOCAL * LOCAL, l2 = LOCAL;
    CHECK(clSetKernelArg(kadd, 0, sizeof(cl_mem), &out));
    CHECK(clSetKernelArg(kadd, 1, sizeof(cl_mem), &scanned));
    CHECK(clSetKernelArg(kadd, 2, sizeof(cl_uint), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kadd, 1, NULL, &g2, &l2, 0, NULL, NULL));
    ++launches;
    // Releasing while commands are queued is legal: the runtime keeps the buffer alive.
    CHECK(clReleaseMemObject(scanned));
  }
  CHECK(clReleaseMemObject(sums));
}

int main(void) {
  enum { N = 100000 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  queue = clCreateCommandQueue(ctx, device, 0, &err);
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
  kscan = clCreateKernel(program, "scan_block", &err);
  CHECK(err);
  kadd = clCreateKernel(program, "add_offsets", &err);
  CHECK(err);

  static cl_uint data[N], result[N], ref[N];
  cl_uint x = 2024u;
  for (int i = 0; i < N; ++i) {
    x = x * 1103515245u + 12345u;
    data[i] = (x >> 16) % 100;
  }
  cl_uint acc = 0;
  for (int i = 0; i < N; ++i) {
    ref[i] = acc;
    acc += data[i];
  }

  cl_mem din =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(data), data, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(result), NULL, &err);
  CHECK(err);
  scan(din, dout, N);
  CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, sizeof(result), result, 0, NULL, NULL));

  int mismatches = 0, first_bad = -1;
  cl_uint hash = 0;
  for (int i = 0; i < N; ++i) {
    if (result[i] != ref[i]) {
      if (first_bad < 0) first_bad = i;
      ++mismatches;
    }
    hash = hash * 31u + result[i];
  }
  cl_uint total = result[N - 1] + data[N - 1];
  printf("scan: n=%d, blocks of %d, %d kernel launches\n", N, BLOCK, launches);
  printf("out[0]=%u out[1]=%u out[255]=%u out[256]=%u out[50000]=%u out[%d]=%u\n", result[0],
         result[1], result[255], result[256], result[50000], N - 1, result[N - 1]);
  printf("total=%u hash=%u\n", total, hash);
  if (mismatches)
    printf("first mismatch at %d: got %u expected %u\n", first_bad, result[first_bad],
           ref[first_bad]);
  printf("mismatches=%d\n%s\n", mismatches, mismatches == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(din));
  CHECK(clReleaseMemObject(dout));
  CHECK(clReleaseKernel(kscan));
  CHECK(clReleaseKernel(kadd));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return mismatches == 0 ? 0 : 1;
}
