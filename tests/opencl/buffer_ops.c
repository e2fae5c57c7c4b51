// Buffer commands without kernels and with them: clEnqueueFillBuffer (1-, 4- and 16-byte
// patterns), clEnqueueCopyBuffer with offsets, clEnqueueWriteBufferRect/ReadBufferRect and
// CopyBufferRect on 2-D and 3-D regions with pitches, and clEnqueueMapBuffer/Unmap on
// buffers created with CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR.
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
    "__kernel void affine(__global int *data, int mul, int add) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * mul + add;\n"
    "}\n";

static int failures;
static void report(const char *what, int ok) {
  printf("%-44s %s\n", what, ok ? "PASS" : "FAIL");
  failures += !ok;
}

static cl_uint hash_bytes(const unsigned char *p, size_t n) {
  cl_uint h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

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
  cl_kernel affine = clCreateKernel(program, "affine", &err);
  CHECK(err);

  // --- Fill: three patterns into disjoint ranges of one 4 KiB buffer.
  enum { BYTES = 4096 };
  static unsigned char host[BYTES], expect[BYTES];
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &err);
  CHECK(err);
  unsigned char b1 = 0xA5;
  cl_uint p4 = 0x11223344u;
  cl_int4 p16 = {{-1, 2, -3, 4}};
  CHECK(clEnqueueFillBuffer(q, buf, &b1, 1, 0, BYTES, 0, NULL, NULL));
  CHECK(clEnqueueFillBuffer(q, buf, &p4, 4, 64, 256, 0, NULL, NULL));
  CHECK(clEnqueueFillBuffer(q, buf, &p16, 16, 1024, 512, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, BYTES, host, 0, NULL, NULL));
  memset(expect, 0xA5, BYTES);
  for (int i = 64; i < 64 + 256; i += 4) memcpy(expect + i, &p4, 4);
  for (int i = 1024; i < 1024 + 512; i += 16) memcpy(expect + i, &p16, 16);
  report("fill 1/4/16-byte patterns", memcmp(host, expect, BYTES) == 0);
  printf("  fill hash=%u\n", hash_bytes(host, BYTES));

  // --- Copy: from another buffer into the middle, overlapping nothing.
  cl_int src_host[256];
  for (int i = 0; i < 256; ++i) src_host[i] = i * i - 300;
  cl_mem src = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(src_host),
                              src_host, &err);
  CHECK(err);
  CHECK(clEnqueueCopyBuffer(q, src, buf, 40 * 4, 2000, 100 * 4, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, BYTES, host, 0, NULL, NULL));
  memcpy(expect + 2000, src_host + 40, 400);
  report("copy buffer with offsets", memcmp(host, expect, BYTES) == 0);

  // --- Rect: a 2-D host image (row pitch 40 bytes) written into a 2-D buffer region with a
  // different row pitch (64), read back into a third layout, and a 3-D region copy.
  enum { HW = 40, HH = 12 };  // host image: 40 bytes x 12 rows
  unsigned char himg[HW * HH];
  for (int i = 0; i < HW * HH; ++i) himg[i] = (unsigned char)(i * 7 + 3);
  cl_mem rect = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 16, NULL, &err);
  CHECK(err);
  unsigned char zero = 0;
  CHECK(clEnqueueFillBuffer(q, rect, &zero, 1, 0, 64 * 16, 0, NULL, NULL));
  // host (5, 2) .. (5 + 24, 2 + 8) -> buffer (8, 3) .. with row pitch 64
  size_t buf_origin[3] = {8, 3, 0}, host_origin[3] = {5, 2, 0}, region[3] = {24, 8, 1};
  CHECK(clEnqueueWriteBufferRect(q, rect, CL_TRUE, buf_origin, host_origin, region, 64, 0, HW, 0,
                                 himg, 0, NULL, NULL));
  unsigned char rect_host[64 * 16];
  CHECK(clEnqueueReadBuffer(q, rect, CL_TRUE, 0, sizeof(rect_host), rect_host, 0, NULL, NULL));
  int ok = 1;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 64; ++x) {
      int in = x >= 8 && x < 32 && y >= 3 && y < 11;
      unsigned char e = in ? himg[(y - 3 + 2) * HW + (x - 8 + 5)] : 0;
      ok &= rect_host[y * 64 + x] == e;
    }
  report("write buffer rect (2-D, pitches 40 -> 64)", ok);
  // Read a 10x4 window back into a tightly packed array (host row pitch 10).
  unsigned char window[40];
  size_t rb_origin[3] = {12, 5, 0}, rh_origin[3] = {0, 0, 0}, rregion[3] = {10, 4, 1};
  CHECK(clEnqueueReadBufferRect(q, rect, CL_TRUE, rb_origin, rh_origin, rregion, 64, 0, 10, 0,
                                window, 0, NULL, NULL));
  ok = 1;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 10; ++x)
      ok &= window[y * 10 + x] == himg[(5 + y - 3 + 2) * HW + (12 + x - 8 + 5)];
  report("read buffer rect (2-D window)", ok);
  // 3-D: a 4 x 3 x 2 box of ints from a (8 x 5 x 3) volume to a (6 x 4 x 2) volume.
  cl_int vol[8 * 5 * 3], vol2[6 * 4 * 2];
  for (int i = 0; i < 8 * 5 * 3; ++i) vol[i] = 1000 + i;
  cl_mem dvol =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(vol), vol, &err);
  CHECK(err);
  cl_mem dvol2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(vol2), NULL, &err);
  CHECK(err);
  cl_int minus1 = -1;
  CHECK(clEnqueueFillBuffer(q, dvol2, &minus1, 4, 0, sizeof(vol2), 0, NULL, NULL));
  size_t s_origin[3] = {2 * 4, 1, 1}, d_origin[3] = {1 * 4, 0, 0}, vregion[3] = {4 * 4, 3, 2};
  CHECK(clEnqueueCopyBufferRect(q, dvol, dvol2, s_origin, d_origin, vregion, 8 * 4, 8 * 5 * 4,
                                6 * 4, 6 * 4 * 4, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dvol2, CL_TRUE, 0, sizeof(vol2), vol2, 0, NULL, NULL));
  ok = 1;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) {
        int in = x >= 1 && x < 5 && y < 3;
        cl_int e = in ? vol[(z + 1) * 40 + (y + 1) * 8 + (x - 1 + 2)] : -1;
        ok &= vol2[(z * 4 + y) * 6 + x] == e;
      }
  report("copy buffer rect (3-D box)", ok);
  printf("  vol2[1]=%d vol2[%d]=%d\n", vol2[1], 24 + 6 + 4, vol2[24 + 6 + 4]);

  // --- Map/unmap. N ints; the kernel computes data * 3 + 1 in place.
  enum { N = 1024 };
  cl_int mul = 3, add = 1;
  size_t global = N, local = 64;
  CHECK(clSetKernelArg(affine, 1, sizeof(cl_int), &mul));
  CHECK(clSetKernelArg(affine, 2, sizeof(cl_int), &add));

  // USE_HOST_PTR: the host array is the buffer's storage, mapping gives its contents.
  cl_int *use = malloc(N * sizeof(cl_int));
  for (int i = 0; i < N; ++i) use[i] = i;
  cl_mem duse =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(cl_int), use, &err);
  CHECK(err);
  CHECK(clSetKernelArg(affine, 0, sizeof(cl_mem), &duse));
  CHECK(clEnqueueNDRangeKernel(q, affine, 1, NULL, &global, &local, 0, NULL, NULL));
  cl_int *m = clEnqueueMapBuffer(q, duse, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                 N * sizeof(cl_int), 0, NULL, NULL, &err);
  CHECK(err);
  ok = 1;
  for (int i = 0; i < N; ++i) ok &= m[i] == i * 3 + 1;
  // Write through the mapping, unmap, run again: the kernel must see the host's writes.
  for (int i = 0; i < N; ++i) m[i] = -i;
  CHECK(clEnqueueUnmapMemObject(q, duse, m, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(q, affine, 1, NULL, &global, &local, 0, NULL, NULL));
  cl_int back[N];
  CHECK(clEnqueueReadBuffer(q, duse, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
  for (int i = 0; i < N; ++i) ok &= back[i] == -3 * i + 1;
  // A map of a sub-range (offset 100 ints) for reading only.
  m = clEnqueueMapBuffer(q, duse, CL_TRUE, CL_MAP_READ, 100 * sizeof(cl_int), 10 * sizeof(cl_int),
                         0, NULL, NULL, &err);
  CHECK(err);
  for (int i = 0; i < 10; ++i) ok &= m[i] == -3 * (100 + i) + 1;
  CHECK(clEnqueueUnmapMemObject(q, duse, m, 0, NULL, NULL));
  CHECK(clFinish(q));
  report("map/unmap CL_MEM_USE_HOST_PTR", ok);

  // ALLOC_HOST_PTR: no host array; initialize through a write mapping.
  cl_mem dalloc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * sizeof(cl_int),
                                 NULL, &err);
  CHECK(err);
  m = clEnqueueMapBuffer(q, dalloc, CL_TRUE, CL_MAP_WRITE, 0, N * sizeof(cl_int), 0, NULL, NULL,
                         &err);
  CHECK(err);
  for (int i = 0; i < N; ++i) m[i] = 7 * i - 500;
  cl_event unmapped;
  CHECK(clEnqueueUnmapMemObject(q, dalloc, m, 0, NULL, &unmapped));
  CHECK(clSetKernelArg(affine, 0, sizeof(cl_mem), &dalloc));
  CHECK(clEnqueueNDRangeKernel(q, affine, 1, NULL, &global, &local, 1, &unmapped, NULL));
  cl_event mapped;
  m = clEnqueueMapBuffer(q, dalloc, CL_FALSE, CL_MAP_READ, 0, N * sizeof(cl_int), 0, NULL, &mapped,
                         &err);
  CHECK(err);
  CHECK(clWaitForEvents(1, &mapped));
  ok = 1;
  cl_int sum = 0;
  for (int i = 0; i < N; ++i) {
    ok &= m[i] == (7 * i - 500) * 3 + 1;
    sum += m[i];
  }
  CHECK(clEnqueueUnmapMemObject(q, dalloc, m, 0, NULL, NULL));
  CHECK(clFinish(q));
  report("map/unmap CL_MEM_ALLOC_HOST_PTR", ok);
  printf("  alloc sum=%d\n", sum);

  // COPY_HOST_PTR: the buffer starts as a copy; changing the host array later changes nothing.
  cl_int init[N];
  for (int i = 0; i < N; ++i) init[i] = i % 17;
  cl_mem dcopy =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(init), init, &err);
  CHECK(err);
  for (int i = 0; i < N; ++i) init[i] = 99999;
  CHECK(clSetKernelArg(affine, 0, sizeof(cl_mem), &dcopy));
  CHECK(clEnqueueNDRangeKernel(q, affine, 1, NULL, &global, &local, 0, NULL, NULL));
  m = clEnqueueMapBuffer(q, dcopy, CL_TRUE, CL_MAP_READ, 0, N * sizeof(cl_int), 0, NULL, NULL,
                         &err);
  CHECK(err);
  ok = 1;
  for (int i = 0; i < N; ++i) ok &= m[i] == (i % 17) * 3 + 1;
  CHECK(clEnqueueUnmapMemObject(q, dcopy, m, 0, NULL, NULL));
  CHECK(clFinish(q));
  report("map/unmap CL_MEM_COPY_HOST_PTR", ok);

  // Queries that are fixed by the spec.
  cl_mem_flags flags = 0;
  size_t size = 0;
  void *hp = NULL;
  CHECK(clGetMemObjectInfo(duse, CL_MEM_FLAGS, sizeof(flags), &flags, NULL));
  CHECK(clGetMemObjectInfo(duse, CL_MEM_SIZE, sizeof(size), &size, NULL));
  CHECK(clGetMemObjectInfo(duse, CL_MEM_HOST_PTR, sizeof(hp), &hp, NULL));
  report("mem object info (flags, size, host ptr)",
         (flags & CL_MEM_USE_HOST_PTR) && size == N * sizeof(cl_int) && hp == use);

  printf("%s\n", failures ? "FAIL" : "PASS");
  CHECK(clReleaseEvent(unmapped));
  CHECK(clReleaseEvent(mapped));
  cl_mem all[] = {buf, src, rect, dvol, dvol2, duse, dalloc, dcopy};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) CHECK(clReleaseMemObject(all[i]));
  free(use);
  CHECK(clReleaseKernel(affine));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
