// Matrix multiplication C (M x N) = A (M x K) * B (K x N) with non-square matrices, the
// local tiles passed as __local pointer arguments whose sizes the host sets with
// clSetKernelArg(kernel, i, bytes, NULL). The tile edge is a kernel argument too.
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
    "__kernel void matmul(int M, int N, int K, int T,\n"
    "                     __global const float *A, __global const float *B,\n"
    "                     __global float *C, __local float *As, __local float *Bs) {\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < K; t += T) {\n"
    "    As[ly * T + lx] = A[row * K + t + lx];\n"
    "    Bs[ly * T + lx] = B[(t + ly) * N + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < T; ++k) acc += As[ly * T + k] * Bs[k * T + lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (row < M && col < N) C[row * N + col] = acc;\n"
    "}\n";

int main(void) {
  enum { M = 96, K = 80, N = 112, T = 8 };
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
  cl_kernel kernel = clCreateKernel(program, "matmul", &err);
  CHECK(err);

  static float A[M * K], B[K * N], C[M * N], ref[M * N];
  // Hashed small integers: exact float sums in any order, no short period.
  for (unsigned i = 0; i < M * K; ++i) A[i] = (float)((int)((i * 2654435761u) >> 24) % 13 - 6);
  for (unsigned i = 0; i < K * N; ++i) B[i] = (float)((int)((i * 2246822519u) >> 24) % 10 - 5);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c];
      ref[r * N + c] = s;
    }

  cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(A), A, &err);
  CHECK(err);
  cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(B), B, &err);
  CHECK(err);
  cl_mem dC = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(C), NULL, &err);
  CHECK(err);
  cl_int m = M, n = N, k = K, t = T;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_int), &m));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_int), &n));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_int), &k));
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_int), &t));
  CHECK(clSetKernelArg(kernel, 4, sizeof(cl_mem), &dA));
  CHECK(clSetKernelArg(kernel, 5, sizeof(cl_mem), &dB));
  CHECK(clSetKernelArg(kernel, 6, sizeof(cl_mem), &dC));
  // The local buffers: a size and no value.
  CHECK(clSetKernelArg(kernel, 7, T * T * sizeof(float), NULL));
  CHECK(clSetKernelArg(kernel, 8, T * T * sizeof(float), NULL));
  size_t global[2] = {N, M}, local[2] = {T, T};
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dC, CL_TRUE, 0, sizeof(C), C, 0, NULL, NULL));

  // Second launch: same kernel, larger tiles (16 x 16) only by changing the argument sizes.
  static float C2[M * N];
  t = 16;
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_int), &t));
  CHECK(clSetKernelArg(kernel, 7, 16 * 16 * sizeof(float), NULL));
  CHECK(clSetKernelArg(kernel, 8, 16 * 16 * sizeof(float), NULL));
  size_t local16[2] = {16, 16};
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local16, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dC, CL_TRUE, 0, sizeof(C2), C2, 0, NULL, NULL));

  int bad8 = 0, bad16 = 0;
  long long checksum = 0;
  for (int i = 0; i < M * N; ++i) {
    bad8 += C[i] != ref[i];
    bad16 += C2[i] != ref[i];
    checksum += (long long)C[i] * (i % 7 + 1);
  }
  printf("matmul_local_args: (%dx%d) * (%dx%d)\n", M, K, K, N);
  printf("C[0][0]=%.1f C[50][60]=%.1f C[%d][%d]=%.1f\n", C[0], C[50 * N + 60], M - 1, N - 1,
         C[M * N - 1]);
  printf("weighted checksum=%lld\n", checksum);
  printf("tile 8: %s (%d mismatches)\n", bad8 ? "FAIL" : "PASS", bad8);
  printf("tile 16: %s (%d mismatches)\n", bad16 ? "FAIL" : "PASS", bad16);
  printf("%s\n", bad8 + bad16 == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(dA));
  CHECK(clReleaseMemObject(dB));
  CHECK(clReleaseMemObject(dC));
  CHECK(clReleaseKernel(kernel));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return bad8 + bad16 == 0 ? 0 : 1;
}
