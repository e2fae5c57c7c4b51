// A multi-threaded host: four threads share one context and one program; each has its own
// command queue, kernel object and buffers (clSetKernelArg is not thread-safe on a shared
// kernel, everything else is) and runs its own sequence of launches, reads and writes at
// the same time as the others. A fifth phase has all threads wait on one user event that
// the main thread completes. Results are checked per thread and printed in thread order.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
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
    "__kernel void k_step(__global uint *v, uint salt) {\n"
    "  uint i = get_global_id(0);\n"
    "  v[i] = v[i] * 1664525u + 1013904223u + salt;\n"
    "}\n"
    "__kernel void add_to(__global uint *v, __global const uint *w) {\n"
    "  v[get_global_id(0)] += w[get_global_id(0)];\n"
    "}\n";

enum { THREADS = 4, N = 2048, ROUNDS = 25 };

static cl_context ctx;
static cl_device_id device;
static cl_program program;
static cl_event gate;

struct job {
  int id;
  cl_uint result_hash;
  int ok;
};

static void *worker(void *arg) {
  struct job *job = arg;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  // "step" is also an OpenCL C built-in name: the kernel is named k_step below.
  cl_kernel step = clCreateKernel(program, "k_step", &err);
  CHECK(err);
  cl_kernel add = clCreateKernel(program, "add_to", &err);
  CHECK(err);
  cl_uint *host = malloc(N * sizeof(cl_uint)), *ref = malloc(N * sizeof(cl_uint));
  for (int i = 0; i < N; ++i) host[i] = ref[i] = (cl_uint)(i * (job->id + 1));
  cl_mem v = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                            host, &err);
  CHECK(err);
  cl_mem w = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &err);
  CHECK(err);
  size_t global = N, local = 64;
  CHECK(clSetKernelArg(step, 0, sizeof(cl_mem), &v));
  CHECK(clSetKernelArg(add, 0, sizeof(cl_mem), &v));
  CHECK(clSetKernelArg(add, 1, sizeof(cl_mem), &w));
  for (int r = 0; r < ROUNDS; ++r) {
    cl_uint salt = (cl_uint)(job->id * 1000 + r);
    CHECK(clSetKernelArg(step, 1, sizeof(cl_uint), &salt));
    CHECK(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, &local, 0, NULL, NULL));
    for (int i = 0; i < N; ++i) ref[i] = ref[i] * 1664525u + 1013904223u + salt;
    if (r % 5 == 4) {
      // Every fifth round: a host write of w, and v += w.
      for (int i = 0; i < N; ++i) host[i] = (cl_uint)(r * i) ^ salt;
      CHECK(clEnqueueWriteBuffer(q, w, CL_TRUE, 0, N * sizeof(cl_uint), host, 0, NULL, NULL));
      CHECK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, &local, 0, NULL, NULL));
      for (int i = 0; i < N; ++i) ref[i] += host[i];
    }
  }
  // The last step waits for the main thread's user event.
  cl_uint salt = 7;
  CHECK(clSetKernelArg(step, 1, sizeof(cl_uint), &salt));
  CHECK(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, &local, 1, &gate, NULL));
  for (int i = 0; i < N; ++i) ref[i] = ref[i] * 1664525u + 1013904223u + salt;
  CHECK(clEnqueueReadBuffer(q, v, CL_TRUE, 0, N * sizeof(cl_uint), host, 0, NULL, NULL));
  job->ok = 1;
  job->result_hash = 0;
  for (int i = 0; i < N; ++i) {
    job->ok &= host[i] == ref[i];
    job->result_hash = job->result_hash * 31u + host[i];
  }
  free(host);
  free(ref);
  CHECK(clReleaseMemObject(v));
  CHECK(clReleaseMemObject(w));
  CHECK(clReleaseKernel(step));
  CHECK(clReleaseKernel(add));
  CHECK(clReleaseCommandQueue(q));
  return NULL;
}

int main(void) {
  cl_platform_id platform;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
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
  gate = clCreateUserEvent(ctx, &err);
  CHECK(err);

  pthread_t threads[THREADS];
  struct job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t].id = t;
    if (pthread_create(&threads[t], NULL, worker, &jobs[t]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  // The workers block in their final read until the gate opens.
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  int failures = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    printf("thread %d: %d rounds, hash=%u %s\n", t, ROUNDS, jobs[t].result_hash,
           jobs[t].ok ? "PASS" : "FAIL");
    failures += !jobs[t].ok;
  }
  printf("%s\n", failures ? "FAIL" : "PASS");
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
