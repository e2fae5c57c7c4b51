// Matrix transpose (rows x cols, not square) through a local-memory tile: a work-group
// reads a TILE x TILE block with coalesced row accesses, and writes the transposed block
// with coalesced row accesses too. The tile has one padding column (the usual fix for
// bank conflicts). A naive kernel gives a second result to compare.
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
    "#define TILE 16\n"
    "__kernel void transpose_local(__global const int *in, __global int *out,\n"
    "                              int rows, int cols) {\n"
    "  __local int tile[TILE][TILE + 1];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  int bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;\n"
    "  int x = bx + lx, y = by + ly;\n"
    "  if (x < cols && y < rows) tile[ly][lx] = in[y * cols + x];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  // out is cols x rows: the block goes to (by, bx), read the tile by columns\n"
    "  int ox = by + lx, oy = bx + ly;\n"
    "  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[lx][ly];\n"
    "}\n"
    "\n"
    "__kernel void transpose_naive(__global const int *in, __global int *out,\n"
    "                              int rows, int cols) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];\n"
    "}\n";

int main(void) {
  // Neither dimension a multiple of the tile: the edge blocks are partial.
  enum { ROWS = 100, COLS = 136, TILE = 16 };
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
  cl_kernel klocal = clCreateKernel(program, "transpose_local", &err);
  CHECK(err);
  cl_kernel knaive = clCreateKernel(program, "transpose_naive", &err);
  CHECK(err);

  static cl_int in[ROWS * COLS], out_local[ROWS * COLS], out_naive[ROWS * COLS];
  for (int y = 0; y < ROWS; ++y)
    for (int x = 0; x < COLS; ++x) in[y * COLS + x] = y * 1000 + x;

  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
  CHECK(err);
  cl_mem dout1 = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(in), NULL, &err);
  CHECK(err);
  cl_mem dout2 = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(in), NULL, &err);
  CHECK(err);
  cl_int rows = ROWS, cols = COLS;
  size_t global[2] = {(COLS + TILE - 1) / TILE * TILE, (ROWS + TILE - 1) / TILE * TILE};
  size_t local[2] = {TILE, TILE};
  CHECK(clSetKernelArg(klocal, 0, sizeof(cl_mem), &din));
  CHECK(clSetKernelArg(klocal, 1, sizeof(cl_mem), &dout1));
  CHECK(clSetKernelArg(klocal, 2, sizeof(cl_int), &rows));
  CHECK(clSetKernelArg(klocal, 3, sizeof(cl_int), &cols));
  CHECK(clEnqueueNDRangeKernel(queue, klocal, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clSetKernelArg(knaive, 0, sizeof(cl_mem), &din));
  CHECK(clSetKernelArg(knaive, 1, sizeof(cl_mem), &dout2));
  CHECK(clSetKernelArg(knaive, 2, sizeof(cl_int), &rows));
  CHECK(clSetKernelArg(knaive, 3, sizeof(cl_int), &cols));
  size_t local_naive[2] = {8, 8};
  CHECK(clEnqueueNDRangeKernel(queue, knaive, 2, NULL, global, local_naive, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dout1, CL_FALSE, 0, sizeof(in), out_local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dout2, CL_FALSE, 0, sizeof(in), out_naive, 0, NULL, NULL));
  CHECK(clFinish(queue));

  int bad_local = 0, bad_naive = 0;
  cl_uint hash = 0;
  for (int x = 0; x < COLS; ++x)
    for (int y = 0; y < ROWS; ++y) {
      cl_int expect = in[y * COLS + x];
      bad_local += out_local[x * ROWS + y] != expect;
      bad_naive += out_naive[x * ROWS + y] != expect;
      hash = hash * 16777619u ^ (cl_uint)out_local[x * ROWS + y];
    }
  printf("transpose: %dx%d -> %dx%d, tile %d\n", ROWS, COLS, COLS, ROWS, TILE);
  printf("out[0][1]=%d out[5][99]=%d out[135][0]=%d out[135][99]=%d\n", out_local[1],
         out_local[5 * ROWS + 99], out_local[135 * ROWS], out_local[135 * ROWS + 99]);
  printf("hash=%u\n", hash);
  printf("local-memory transpose: %s (%d mismatches)\n", bad_local ? "FAIL" : "PASS", bad_local);
  printf("naive transpose: %s (%d mismatches)\n", bad_naive ? "FAIL" : "PASS", bad_naive);
  printf("%s\n", bad_local + bad_naive == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(din));
  CHECK(clReleaseMemObject(dout1));
  CHECK(clReleaseMemObject(dout2));
  CHECK(clReleaseKernel(klocal));
  CHECK(clReleaseKernel(knaive));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return bad_local + bad_naive == 0 ? 0 : 1;
}
