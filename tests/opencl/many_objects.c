// Object churn, as a long-running application produces it: hundreds of buffers of varying
// sizes created and released in a scrambled order, many kernel
// objects of one program, launches that bind different buffers each time, and a second
// program built and released while the first one's kernels are still in use. The data
// written through every object is checked, so a reused or leaked allocation shows.
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
    "__kernel void stamp(__global uint *v, uint tag, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i < n) v[i] = tag * 65536u + i;\n"
    "}\n";
static const char *kSource2 =
    "__kernel void twice(__global uint *v) {\n"
    "  v[get_global_id(0)] *= 2u;\n"
    "}\n";

enum { BUFFERS = 300, KERNELS = 40, ROUNDS = 3 };

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

static cl_uint rng = 12345u;
static cl_uint next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  cl_program program = build(ctx, device, kSource);
  cl_kernel kernels[KERNELS];
  for (int k = 0; k < KERNELS; ++k) {
    kernels[k] = clCreateKernel(program, "stamp", &err);
    CHECK(err);
  }

  static cl_mem bufs[BUFFERS];
  static cl_uint sizes[BUFFERS], tags[BUFFERS];
  static cl_uint host[16384];
  int failures = 0;
  cl_uint total_checked = 0;
  for (int round = 0; round < ROUNDS; ++round) {
    // Create: every tenth buffer up to 16384 words, the others up to 512.
    for (int b = 0; b < BUFFERS; ++b) {
      sizes[b] = 1 + next() % (b % 10 == 0 ? 16384 : 512);
      tags[b] = (cl_uint)(round * BUFFERS + b);
      bufs[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizes[b] * sizeof(cl_uint), NULL, &err);
      CHECK(err);
    }
    // Stamp every buffer through a kernel object chosen round-robin.
    for (int b = 0; b < BUFFERS; ++b) {
      cl_kernel k = kernels[b % KERNELS];
      CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[b]));
      CHECK(clSetKernelArg(k, 1, sizeof(cl_uint), &tags[b]));
      CHECK(clSetKernelArg(k, 2, sizeof(cl_uint), &sizes[b]));
      size_t local = 32, global = (sizes[b] + 31) / 32 * 32;
      CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    // Release half of them in a scrambled order before reading the others.
    for (int b = 0; b < BUFFERS; ++b) {
      int v = (b * 7 + round) % BUFFERS;
      if (v % 2 == 0) {
        CHECK(clReleaseMemObject(bufs[v]));
        bufs[v] = NULL;
      }
    }
    // New buffers in the freed space: written from the host, must not disturb the others.
    cl_mem fresh[BUFFERS / 2];
    for (int f = 0; f < BUFFERS / 2; ++f) {
      cl_uint n = 1 + next() % 1024;
      for (cl_uint i = 0; i < n; ++i) host[i] = 0xabcd0000u + i;
      fresh[f] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint),
                                host, &err);
      CHECK(err);
    }
    for (int b = 1; b < BUFFERS; b += 2) {
      CHECK(clEnqueueReadBuffer(q, bufs[b], CL_TRUE, 0, sizes[b] * sizeof(cl_uint), host, 0, NULL,
                                NULL));
      for (cl_uint i = 0; i < sizes[b]; ++i) failures += host[i] != tags[b] * 65536u + i;
      total_checked += sizes[b];
      CHECK(clReleaseMemObject(bufs[b]));
    }
    for (int f = 0; f < BUFFERS / 2; ++f) {
      cl_uint first = 0;
      CHECK(clEnqueueReadBuffer(q, fresh[f], CL_TRUE, 0, sizeof(first), &first, 0, NULL, NULL));
      failures += first != 0xabcd0000u;
      CHECK(clReleaseMemObject(fresh[f]));
    }
    printf("round %d: %d buffers stamped, %d read back: %s\n", round, BUFFERS, BUFFERS / 2,
           failures ? "FAIL" : "PASS");
  }

  // A second program, built while kernels of the first exist, used, then released first.
  cl_program p2 = build(ctx, device, kSource2);
  cl_kernel twice = clCreateKernel(p2, "twice", &err);
  CHECK(err);
  CHECK(clReleaseProgram(p2));  // the kernel keeps the program alive
  cl_mem v = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  cl_uint tag = 3, n = 256;
  CHECK(clSetKernelArg(kernels[0], 0, sizeof(cl_mem), &v));
  CHECK(clSetKernelArg(kernels[0], 1, sizeof(cl_uint), &tag));
  CHECK(clSetKernelArg(kernels[0], 2, sizeof(cl_uint), &n));
  CHECK(clSetKernelArg(twice, 0, sizeof(cl_mem), &v));
  size_t global = 256, local = 64;
  CHECK(clEnqueueNDRangeKernel(q, kernels[0], 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(q, twice, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, v, CL_TRUE, 0, 256 * sizeof(cl_uint), host, 0, NULL, NULL));
  int bad2 = 0;
  for (cl_uint i = 0; i < 256; ++i) bad2 += host[i] != 2u * (3u * 65536u + i);
  printf("kernel of a released program: %s\n", bad2 ? "FAIL" : "PASS");
  failures += bad2;
  printf("words checked: %u\n", total_checked);
  printf("%s\n", failures ? "FAIL" : "PASS");

  CHECK(clReleaseMemObject(v));
  CHECK(clReleaseKernel(twice));
  for (int k = 0; k < KERNELS; ++k) CHECK(clReleaseKernel(kernels[k]));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
