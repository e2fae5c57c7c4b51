// NDRanges past 2^20 work-items (issue 17 item 9): a vector add over 2^21 floats (the local
// size given, then chosen by the platform), a float3 kernel over 175,000 work-items in
// workgroups of 4, and a 1920x1080 image whose work-items fill a private array from their
// own ids and sum it back in another order. The device holds few workgroups at once, so
// thousands of workgroups reuse the same private memory: a wrong result would show two
// resident workgroups sharing it or a workgroup seeing its slot's previous contents.
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
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void scale3(__global const float *in, __global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  vstore3(vload3(i, in) * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, out);\n"
    "}\n"
    "__kernel void private_mix(__global uint *out, uint n) {\n"
    "  uint x = get_global_id(0), y = get_global_id(1);\n"
    "  uint id = y * get_global_size(0) + x;\n"
    "  uint a[16];\n"
    "  for (uint i = 0; i < n; ++i) a[i] = id * 16u + i * (get_group_id(0) + 1u);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint s = 0;\n"
    "  for (uint i = 0; i < n; ++i) s += a[(i * 7u + x) % n] * (i + 1u);\n"
    "  out[id] = s;\n"
    "}\n";

static cl_context ctx;
static cl_command_queue queue;

static cl_mem buffer_of(size_t bytes, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)data, &err);
  CHECK(err);
  return m;
}

int main(void) {
  enum { N = 1 << 21, N3 = 175000, W = 1920, H = 1080, LOCAL_X = 16, LOCAL_Y = 8, ARRAY = 16 };
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
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "clBuildProgram failed:\n%s\n", log);
    return 1;
  }
  int failures = 0;

  // 2^21 floats: exact sums of multiples of 1/4.
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
  float *c = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)((i * 7) % 1000) * 0.25f;
  }
  cl_kernel vadd = clCreateKernel(program, "vadd", &err);
  CHECK(err);
  cl_mem da = buffer_of(N * sizeof(float), a), db = buffer_of(N * sizeof(float), b);
  cl_mem dc = buffer_of(N * sizeof(float), NULL);
  CHECK(clSetKernelArg(vadd, 0, sizeof da, &da));
  CHECK(clSetKernelArg(vadd, 1, sizeof db, &db));
  CHECK(clSetKernelArg(vadd, 2, sizeof dc, &dc));
  const size_t global = N, local = 256;
  for (int pass = 0; pass < 2; ++pass) {
    CHECK(clEnqueueFillBuffer(queue, dc, &(float){-1.0f}, sizeof(float), 0, N * sizeof(float), 0,
                              NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, vadd, 1, NULL, &global, pass == 0 ? &local : NULL, 0, NULL,
                                 NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));
    int wrong = 0;
    double checksum = 0;
    for (int i = 0; i < N; ++i) {
      if (c[i] != a[i] + b[i] && wrong++ < 3)
        printf("vadd: c[%d] = %.2f, expected %.2f\n", i, c[i], a[i] + b[i]);
      checksum += c[i];
    }
    printf("vadd over %d floats, local size %s: checksum %.2f, %d wrong\n", N,
           pass == 0 ? "256" : "chosen by the platform", checksum, wrong);
    failures += wrong != 0;
  }

  // float3 over 175,000 work-items in workgroups of 4.
  cl_kernel scale3 = clCreateKernel(program, "scale3", &err);
  CHECK(err);
  cl_mem din = buffer_of(3 * N3 * sizeof(float), a), dout = buffer_of(3 * N3 * sizeof(float), NULL);
  CHECK(clSetKernelArg(scale3, 0, sizeof din, &din));
  CHECK(clSetKernelArg(scale3, 1, sizeof dout, &dout));
  const size_t global3 = N3, local3 = 4;
  CHECK(clEnqueueNDRangeKernel(queue, scale3, 1, NULL, &global3, &local3, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, 3 * N3 * sizeof(float), c, 0, NULL, NULL));
  int wrong3 = 0;
  for (int i = 0; i < 3 * N3; ++i) {
    const float expected = a[i] * 2.0f + (float)(i % 3 + 1);
    if (c[i] != expected && wrong3++ < 3)
      printf("scale3: out[%d] = %.2f, expected %.2f\n", i, c[i], expected);
  }
  printf("scale3 over %d work-items, local size 4: %d wrong\n", N3, wrong3);
  failures += wrong3 != 0;

  // 1920x1080 with a private array per work-item.
  cl_kernel mix = clCreateKernel(program, "private_mix", &err);
  CHECK(err);
  cl_mem dimage = buffer_of((size_t)W * H * sizeof(cl_uint), NULL);
  const cl_uint n = ARRAY;
  CHECK(clSetKernelArg(mix, 0, sizeof dimage, &dimage));
  CHECK(clSetKernelArg(mix, 1, sizeof n, &n));
  const size_t global2[2] = {W, H}, local2[2] = {LOCAL_X, LOCAL_Y};
  CHECK(clEnqueueNDRangeKernel(queue, mix, 2, NULL, global2, local2, 0, NULL, NULL));
  cl_uint *image = malloc((size_t)W * H * sizeof(cl_uint));
  CHECK(clEnqueueReadBuffer(queue, dimage, CL_TRUE, 0, (size_t)W * H * sizeof(cl_uint), image, 0,
                            NULL, NULL));
  int wrong2 = 0;
  unsigned long long checksum2 = 0;
  for (cl_uint y = 0; y < H; ++y)
    for (cl_uint x = 0; x < W; ++x) {
      const cl_uint id = y * W + x, group = x / LOCAL_X;
      cl_uint s = 0;
      for (cl_uint i = 0; i < n; ++i) {
        const cl_uint k = (i * 7u + x) % n;
        s += (id * 16u + k * (group + 1u)) * (i + 1u);
      }
      if (image[id] != s && wrong2++ < 3)
        printf("private_mix: (%u, %u) = %u, expected %u\n", x, y, image[id], s);
      checksum2 += image[id];
    }
  printf("private_mix over %dx%d, local size %dx%d: checksum %llu, %d wrong\n", W, H, LOCAL_X,
         LOCAL_Y, checksum2, wrong2);
  failures += wrong2 != 0;

  printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseMemObject(dimage);
  clReleaseKernel(vadd);
  clReleaseKernel(scale3);
  clReleaseKernel(mix);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  free(image);
  return failures == 0 ? 0 : 1;
}
