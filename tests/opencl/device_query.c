// A program that adapts to the device: it queries CL_DEVICE_MAX_WORK_GROUP_SIZE,
// CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_LOCAL_MEM_SIZE, and per kernel
// CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE and
// CL_KERNEL_LOCAL_MEM_SIZE, then picks a 1-D work-group size and the tile of a tiled
// matrix multiplication (built with -DTILE=...) from them. The chosen sizes differ between
// devices; the printed results do not.
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
    "#ifndef TILE\n"
    "#define TILE 1\n"
    "#endif\n"
    "__kernel void matmul(__global const float *A, __global const float *B,\n"
    "                     __global float *C, int n) {\n"
    "  __local float As[TILE][TILE], Bs[TILE][TILE];\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n; t += TILE) {\n"
    "    As[ly][lx] = A[row * n + t + lx];\n"
    "    Bs[ly][lx] = B[(t + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TILE; ++k) acc += As[ly][k] * Bs[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n"
    "__kernel void saxpy(__global float *y, __global const float *x, float a, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static cl_program build(cl_context ctx, cl_device_id dev, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram(%s) failed (%d):\n%s\n", options, err, log);
    exit(1);
  }
  return p;
}

int main(void) {
  enum { N = 128, VN = 30000 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));

  size_t max_wg = 0, max_items[3] = {0, 0, 0};
  cl_ulong local_mem = 0;
  cl_uint dims = 0;
  cl_device_local_mem_type local_type = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(dims), &dims, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(max_items), max_items, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local_mem), &local_mem, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_TYPE, sizeof(local_type), &local_type, NULL));
  // The spec's minimums for a full-profile, non-custom device.
  printf("CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS >= 3: %s\n", dims >= 3 ? "yes" : "no");
  printf("CL_DEVICE_MAX_WORK_GROUP_SIZE >= 1: %s\n", max_wg >= 1 ? "yes" : "no");
  printf("CL_DEVICE_MAX_WORK_ITEM_SIZES >= (1, 1, 1): %s\n",
         max_items[0] >= 1 && max_items[1] >= 1 && max_items[2] >= 1 ? "yes" : "no");
  printf("CL_DEVICE_LOCAL_MEM_SIZE >= 32 KiB: %s\n", local_mem >= 32 * 1024 ? "yes" : "no");
  printf("CL_DEVICE_LOCAL_MEM_TYPE valid: %s\n",
         local_type == CL_LOCAL || local_type == CL_GLOBAL ? "yes" : "no");

  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  int failures = 0;

  // --- 1-D: the work-group size from the kernel's limits and its preferred multiple.
  cl_program p1 = build(ctx, device, "");
  cl_kernel saxpy = clCreateKernel(p1, "saxpy", &err);
  CHECK(err);
  size_t kwg = 0, multiple = 0;
  CHECK(
      clGetKernelWorkGroupInfo(saxpy, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kwg), &kwg, NULL));
  CHECK(clGetKernelWorkGroupInfo(saxpy, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof(multiple), &multiple, NULL));
  size_t wg = kwg < 256 ? kwg : 256;
  if (wg > max_items[0]) wg = max_items[0];
  if (multiple > 0 && wg >= multiple) wg -= wg % multiple;
  printf("CL_KERNEL_WORK_GROUP_SIZE <= CL_DEVICE_MAX_WORK_GROUP_SIZE: %s\n",
         kwg >= 1 && kwg <= max_wg ? "yes" : "no");
  printf("CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE >= 1: %s\n", multiple >= 1 ? "yes" : "no");

  static float x[VN], y[VN];
  for (int i = 0; i < VN; ++i) {
    x[i] = (float)(i % 100);
    y[i] = (float)(i % 7) * 0.5f;
  }
  cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(x), x, &err);
  CHECK(err);
  cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(y), y, &err);
  CHECK(err);
  float a = 2.5f;
  cl_uint vn = VN;
  CHECK(clSetKernelArg(saxpy, 0, sizeof(cl_mem), &dy));
  CHECK(clSetKernelArg(saxpy, 1, sizeof(cl_mem), &dx));
  CHECK(clSetKernelArg(saxpy, 2, sizeof(float), &a));
  CHECK(clSetKernelArg(saxpy, 3, sizeof(cl_uint), &vn));
  size_t vglobal = (VN + wg - 1) / wg * wg;
  CHECK(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &vglobal, &wg, 0, NULL, NULL));
  static float yr[VN];
  CHECK(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, sizeof(yr), yr, 0, NULL, NULL));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < VN; ++i) {
    bad += yr[i] != a * x[i] + y[i];
    sum += yr[i];
  }
  printf("saxpy with the chosen work-group size: sum=%.1f %s\n", sum, bad ? "FAIL" : "PASS");
  failures += bad != 0;

  // --- 2-D: the largest tile T in {16, 8, 4, 2} with T*T work-items allowed for the kernel
  // built with that tile, and its local arrays within the local memory.
  int tile = 0;
  cl_program p2 = NULL;
  cl_kernel mm = NULL;
  for (int t = 16; t >= 2 && !tile; t /= 2) {
    if ((size_t)(t * t) > max_wg || (size_t)t > max_items[0] || (size_t)t > max_items[1]) continue;
    if ((cl_ulong)(2 * t * t * sizeof(float)) > local_mem) continue;
    char options[32];
    snprintf(options, sizeof(options), "-DTILE=%d", t);
    cl_program p = build(ctx, device, options);
    cl_kernel k = clCreateKernel(p, "matmul", &err);
    CHECK(err);
    size_t kmax = 0;
    cl_ulong klocal = 0;
    CHECK(
        clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax), &kmax, NULL));
    CHECK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(klocal), &klocal,
                                   NULL));
    if ((size_t)(t * t) <= kmax && klocal <= local_mem) {
      tile = t;
      p2 = p;
      mm = k;
      printf("CL_KERNEL_LOCAL_MEM_SIZE covers the tiles: %s\n",
             klocal >= (cl_ulong)(2 * t * t * sizeof(float)) ? "yes" : "no");
    } else {
      CHECK(clReleaseKernel(k));
      CHECK(clReleaseProgram(p));
    }
  }
  if (!tile) {
    fprintf(stderr, "no tile size fits this device\n");
    return 1;
  }
  static float A[N * N], B[N * N], C[N * N];
  for (unsigned i = 0; i < N * N; ++i) {
    A[i] = (float)((int)((i * 2654435761u) >> 28) - 8);
    B[i] = (float)((int)((i * 40503u + 17u) % 11u) - 5);
  }
  cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(A), A, &err);
  CHECK(err);
  cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(B), B, &err);
  CHECK(err);
  cl_mem dC = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(C), NULL, &err);
  CHECK(err);
  cl_int n = N;
  CHECK(clSetKernelArg(mm, 0, sizeof(cl_mem), &dA));
  CHECK(clSetKernelArg(mm, 1, sizeof(cl_mem), &dB));
  CHECK(clSetKernelArg(mm, 2, sizeof(cl_mem), &dC));
  CHECK(clSetKernelArg(mm, 3, sizeof(cl_int), &n));
  size_t global[2] = {N, N}, local[2] = {(size_t)tile, (size_t)tile};
  CHECK(clEnqueueNDRangeKernel(q, mm, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dC, CL_TRUE, 0, sizeof(C), C, 0, NULL, NULL));
  bad = 0;
  long long check = 0;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) {
      float s = 0.0f;
      for (int k = 0; k < N; ++k) s += A[r * N + k] * B[k * N + c];
      bad += C[r * N + c] != s;
      check += (long long)C[r * N + c] * ((r + 2 * c) % 5 + 1);
    }
  printf("matmul %dx%d with the chosen tile: checksum=%lld %s\n", N, N, check,
         bad ? "FAIL" : "PASS");
  failures += bad != 0;
  printf("%s\n", failures ? "FAIL" : "PASS");

  cl_mem mems[] = {dx, dy, dA, dB, dC};
  for (int i = 0; i < 5; ++i) CHECK(clReleaseMemObject(mems[i]));
  CHECK(clReleaseKernel(saxpy));
  CHECK(clReleaseKernel(mm));
  CHECK(clReleaseProgram(p1));
  CHECK(clReleaseProgram(p2));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
