// Tiled matrix multiplication C = A * B (128x128) with the tiles in __local arrays declared
// inside the kernel: each work-group loads a TILE x TILE block of A and of B per step,
// synchronizes with barriers and accumulates from local memory.
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

#define TILE 16

static const char *kSource =
    "#define TILE 16\n"
    "__kernel void matmul(__global const float *A, __global const float *B,\n"
    "                     __global float *C, int n) {\n"
    "  __local float As[TILE][TILE];\n"
    "  __local float Bs[TILE][TILE];\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n / TILE; ++t) {\n"
    "    As[ly][lx] = A[row * n + t * TILE + lx];\n"
    "    Bs[ly][lx] = B[(t * TILE + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TILE; ++k) acc += As[ly][k] * Bs[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n";

static cl_program build(cl_context ctx, cl_device_id dev, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  err = clBuildProgram(p, 1, &dev, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
    exit(1);
  }
  return p;
}

int main(void) {
  enum { N = 128 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  cl_program program = build(ctx, device, kSource);
  cl_kernel kernel = clCreateKernel(program, "matmul", &err);
  CHECK(err);

  // Small integers: every product and partial sum is exact in float, whatever the order.
  static float A[N * N], B[N * N], C[N * N], ref[N * N];
  // A multiplicative hash, not a short period: a wrong index would not go unnoticed.
  for (unsigned i = 0; i < N * N; ++i) {
    A[i] = (float)((int)((i * 2654435761u) >> 24) % 7 - 3);
    B[i] = (float)((int)(((i + 77u) * 2246822519u) >> 24) % 9 - 4);
  }
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) {
      float s = 0.0f;
      for (int k = 0; k < N; ++k) s += A[r * N + k] * B[k * N + c];
      ref[r * N + c] = s;
    }

  size_t bytes = sizeof(A);
  cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, A, &err);
  CHECK(err);
  cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, B, &err);
  CHECK(err);
  cl_mem dC = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK(err);
  cl_int n = N;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dA));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dB));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dC));
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_int), &n));
  size_t global[2] = {N, N}, local[2] = {TILE, TILE};
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clFinish(queue));
  CHECK(clEnqueueReadBuffer(queue, dC, CL_TRUE, 0, bytes, C, 0, NULL, NULL));

  int mismatches = 0;
  long long checksum = 0;
  for (int i = 0; i < N * N; ++i) {
    if (C[i] != ref[i]) ++mismatches;
    checksum += (long long)C[i] * (i % 13 + 1);
  }
  printf("matmul_tiled: %dx%d, tile %d (local arrays in the kernel)\n", N, N, TILE);
  printf("C[0][0]=%.1f C[17][42]=%.1f C[127][127]=%.1f\n", C[0], C[17 * N + 42], C[N * N - 1]);
  printf("weighted checksum=%lld\n", checksum);
  printf("mismatches=%d\n%s\n", mismatches, mismatches == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(dA));
  CHECK(clReleaseMemObject(dB));
  CHECK(clReleaseMemObject(dC));
  CHECK(clReleaseKernel(kernel));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return mismatches == 0 ? 0 : 1;
}
