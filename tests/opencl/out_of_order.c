// A task graph on an out-of-order queue (when the device offers one; an in-order queue
// otherwise, which must give the same results): two independent initializations, a kernel
// that waits for both, two kernels that each wait for that one, a single-work-item task
// (clEnqueueTask) joining them, and reads whose only ordering is their wait lists. A
// barrier then separates a second round that reuses the buffers.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
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
    "__kernel void init(__global int *v, int mul, int add) {\n"
    "  int i = get_global_id(0);\n"
    "  v[i] = i * mul + add;\n"
    "}\n"
    "__kernel void combine(__global const int *a, __global const int *b, __global int *c) {\n"
    "  int i = get_global_id(0);\n"
    "  c[i] = a[i] * b[i] % 1000;\n"
    "}\n"
    "__kernel void shifted(__global const int *c, __global int *d, int by) {\n"
    "  int i = get_global_id(0), n = get_global_size(0);\n"
    "  d[i] = c[(i + by) % n] - c[i];\n"
    "}\n"
    "__kernel void total(__global const int *d, __global const int *e, int n,\n"
    "                    __global long *result) {\n"
    "  long s = 0;\n"
    "  for (int i = 0; i < n; ++i) s += (long)d[i] * i + e[i] * (i & 7);\n"
    "  result[0] = s;\n"
    "}\n";

enum { N = 4096 };

static long long reference(int round) {
  static int a[N], b[N], c[N], d[N], e[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i * (2 + round) + 1;
    b[i] = i * 3 - 7 * round;
  }
  for (int i = 0; i < N; ++i) c[i] = a[i] * b[i] % 1000;
  for (int i = 0; i < N; ++i) {
    d[i] = c[(i + 5) % N] - c[i];
    e[i] = c[(i + 77) % N] - c[i];
  }
  long long s = 0;
  for (int i = 0; i < N; ++i) s += (long long)d[i] * i + e[i] * (i & 7);
  return s;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_command_queue_properties props = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_QUEUE_PROPERTIES, sizeof(props), &props, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q =
      clCreateCommandQueue(ctx, device, props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
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
  // One kernel object per use: the arguments of a queued command are fixed at enqueue,
  // but separate objects keep the graph readable.
  cl_kernel init_a = clCreateKernel(program, "init", &err);
  CHECK(err);
  cl_kernel init_b = clCreateKernel(program, "init", &err);
  CHECK(err);
  cl_kernel combine = clCreateKernel(program, "combine", &err);
  CHECK(err);
  cl_kernel shift_d = clCreateKernel(program, "shifted", &err);
  CHECK(err);
  cl_kernel shift_e = clCreateKernel(program, "shifted", &err);
  CHECK(err);
  cl_kernel total = clCreateKernel(program, "total", &err);
  CHECK(err);

  cl_mem buf[5];
  for (int i = 0; i < 5; ++i) {
    buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
    CHECK(err);
  }
  cl_mem result = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(cl_long), NULL, &err);
  CHECK(err);
  cl_int n = N, by_d = 5, by_e = 77;
  CHECK(clSetKernelArg(init_a, 0, sizeof(cl_mem), &buf[0]));
  CHECK(clSetKernelArg(init_b, 0, sizeof(cl_mem), &buf[1]));
  CHECK(clSetKernelArg(combine, 0, sizeof(cl_mem), &buf[0]));
  CHECK(clSetKernelArg(combine, 1, sizeof(cl_mem), &buf[1]));
  CHECK(clSetKernelArg(combine, 2, sizeof(cl_mem), &buf[2]));
  CHECK(clSetKernelArg(shift_d, 0, sizeof(cl_mem), &buf[2]));
  CHECK(clSetKernelArg(shift_d, 1, sizeof(cl_mem), &buf[3]));
  CHECK(clSetKernelArg(shift_d, 2, sizeof(cl_int), &by_d));
  CHECK(clSetKernelArg(shift_e, 0, sizeof(cl_mem), &buf[2]));
  CHECK(clSetKernelArg(shift_e, 1, sizeof(cl_mem), &buf[4]));
  CHECK(clSetKernelArg(shift_e, 2, sizeof(cl_int), &by_e));
  CHECK(clSetKernelArg(total, 0, sizeof(cl_mem), &buf[3]));
  CHECK(clSetKernelArg(total, 1, sizeof(cl_mem), &buf[4]));
  CHECK(clSetKernelArg(total, 2, sizeof(cl_int), &n));
  CHECK(clSetKernelArg(total, 3, sizeof(cl_mem), &result));

  int failures = 0;
  size_t global = N, local = 64;
  for (int round = 0; round < 2; ++round) {
    cl_int mul_a = 2 + round, add_a = 1, mul_b = 3, add_b = -7 * round;
    CHECK(clSetKernelArg(init_a, 1, sizeof(cl_int), &mul_a));
    CHECK(clSetKernelArg(init_a, 2, sizeof(cl_int), &add_a));
    CHECK(clSetKernelArg(init_b, 1, sizeof(cl_int), &mul_b));
    CHECK(clSetKernelArg(init_b, 2, sizeof(cl_int), &add_b));
    cl_event ea, eb, ec, ed, ee, et, er, ebar;
    CHECK(clEnqueueNDRangeKernel(q, init_a, 1, NULL, &global, &local, 0, NULL, &ea));
    CHECK(clEnqueueNDRangeKernel(q, init_b, 1, NULL, &global, &local, 0, NULL, &eb));
    cl_event ab[2] = {ea, eb};
    CHECK(clEnqueueNDRangeKernel(q, combine, 1, NULL, &global, &local, 2, ab, &ec));
    CHECK(clEnqueueNDRangeKernel(q, shift_d, 1, NULL, &global, &local, 1, &ec, &ed));
    CHECK(clEnqueueNDRangeKernel(q, shift_e, 1, NULL, &global, &local, 1, &ec, &ee));
    cl_event de[2] = {ed, ee};
    CHECK(clEnqueueTask(q, total, 2, de, &et));
    cl_long got = 0;
    cl_int c_head[4];
    CHECK(clEnqueueReadBuffer(q, result, CL_FALSE, 0, sizeof(got), &got, 1, &et, &er));
    cl_event ehead;
    CHECK(clEnqueueReadBuffer(q, buf[2], CL_FALSE, 0, sizeof(c_head), c_head, 1, &ec, &ehead));
    // The next round overwrites every buffer: a barrier orders it after all of the above.
    CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &ebar));
    cl_event waits[2] = {er, ehead};
    CHECK(clWaitForEvents(2, waits));
    long long ref = reference(round);
    printf("round %d: c[0..3]=%d %d %d %d total=%lld %s\n", round, c_head[0], c_head[1], c_head[2],
           c_head[3], (long long)got, got == ref ? "PASS" : "FAIL");
    failures += got != ref;
    CHECK(clWaitForEvents(1, &ebar));
    cl_event all[] = {ea, eb, ec, ed, ee, et, er, ehead, ebar};
    for (int i = 0; i < 9; ++i) CHECK(clReleaseEvent(all[i]));
  }
  CHECK(clFinish(q));
  printf("%s\n", failures ? "FAIL" : "PASS");

  for (int i = 0; i < 5; ++i) CHECK(clReleaseMemObject(buf[i]));
  CHECK(clReleaseMemObject(result));
  cl_kernel ks[] = {init_a, init_b, combine, shift_d, shift_e, total};
  for (int i = 0; i < 6; ++i) CHECK(clReleaseKernel(ks[i]));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
