// Events: non-blocking writes whose events form a kernel's wait list, a user event that
// holds a kernel back until the host releases it, markers and barriers with wait lists,
// completion callbacks (on a command and on a user event), command-type queries, and
// profiling information (only its ordering is printed, never the times).
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cl_int err_ = (call);                                                             \
    if (err_ != CL_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call, err_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static const char *kSource =
    "__kernel void add(__global const int *a, __global const int *b, __global int *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void twice(__global int *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] *= 2;\n"
    "}\n";

static int failures;
static void report(const char *what, int ok) {
  printf("%-52s %s\n", what, ok ? "PASS" : "FAIL");
  failures += !ok;
}

// Callbacks run on a runtime thread, possibly after clFinish returns: atomics, and the
// host waits for them with a timeout.
struct cb_record {
  atomic_int calls;
  atomic_int status;
  int tag;
  atomic_int tag_seen;
};

static void CL_CALLBACK on_event(cl_event ev, cl_int status, void *user) {
  (void)ev;
  struct cb_record *r = user;
  atomic_store(&r->status, status);
  atomic_store(&r->tag_seen, r->tag);
  atomic_fetch_add(&r->calls, 1);
}

static int wait_for_callback(struct cb_record *r) {
  for (int i = 0; i < 1000 && atomic_load(&r->calls) == 0; ++i) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  return atomic_load(&r->calls);
}

int main(void) {
  enum { N = 4096 };
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
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
  cl_kernel kadd = clCreateKernel(program, "add", &err);
  CHECK(err);
  cl_kernel ktwice = clCreateKernel(program, "twice", &err);
  CHECK(err);

  static cl_int a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 3 * i - 1000;
  }
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(a), NULL, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(b), NULL, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(c), NULL, &err);
  CHECK(err);

  // 1. Writes -> kernel (waits for both) -> read (waits for the kernel).
  cl_event writes[2], kernel_done, read_done;
  CHECK(clEnqueueWriteBuffer(q, da, CL_FALSE, 0, sizeof(a), a, 0, NULL, &writes[0]));
  CHECK(clEnqueueWriteBuffer(q, db, CL_FALSE, 0, sizeof(b), b, 0, NULL, &writes[1]));
  CHECK(clSetKernelArg(kadd, 0, sizeof(cl_mem), &da));
  CHECK(clSetKernelArg(kadd, 1, sizeof(cl_mem), &db));
  CHECK(clSetKernelArg(kadd, 2, sizeof(cl_mem), &dc));
  size_t global = N, local = 128;
  CHECK(clEnqueueNDRangeKernel(q, kadd, 1, NULL, &global, &local, 2, writes, &kernel_done));
  struct cb_record kcb = {0, 0, 17, 0};
  CHECK(clSetEventCallback(kernel_done, CL_COMPLETE, on_event, &kcb));
  CHECK(clEnqueueReadBuffer(q, dc, CL_FALSE, 0, sizeof(c), c, 1, &kernel_done, &read_done));
  CHECK(clWaitForEvents(1, &read_done));
  int ok = 1;
  for (int i = 0; i < N; ++i) ok &= c[i] == 4 * i - 1000;
  report("write, write -> kernel -> read chain", ok);
  cl_int status = 0;
  CHECK(clGetEventInfo(kernel_done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                       NULL));
  report("kernel event CL_COMPLETE after the read", status == CL_COMPLETE);
  report("callback called once with CL_COMPLETE and its data",
         wait_for_callback(&kcb) == 1 && atomic_load(&kcb.status) == CL_COMPLETE &&
             atomic_load(&kcb.tag_seen) == 17);

  cl_command_type type = 0;
  CHECK(clGetEventInfo(kernel_done, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  cl_command_type rtype = 0;
  CHECK(clGetEventInfo(read_done, CL_EVENT_COMMAND_TYPE, sizeof(rtype), &rtype, NULL));
  cl_command_queue eq = NULL;
  CHECK(clGetEventInfo(read_done, CL_EVENT_COMMAND_QUEUE, sizeof(eq), &eq, NULL));
  cl_context ectx = NULL;
  CHECK(clGetEventInfo(read_done, CL_EVENT_CONTEXT, sizeof(ectx), &ectx, NULL));
  report("event info: command types, queue, context", type == CL_COMMAND_NDRANGE_KERNEL &&
                                                          rtype == CL_COMMAND_READ_BUFFER &&
                                                          eq == q && ectx == ctx);

  // 2. Profiling: QUEUED <= SUBMIT <= START <= END for the kernel.
  cl_ulong t[4];
  const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    CHECK(clGetEventProfilingInfo(kernel_done, what[i], sizeof(cl_ulong), &t[i], NULL));
  report("profiling END >= START >= SUBMIT >= QUEUED",
         t[3] >= t[2] && t[2] >= t[1] && t[1] >= t[0]);

  // 3. A user event gates a kernel: nothing may run before the host completes it.
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK(err);
  struct cb_record ucb = {0, 0, 99, 0};
  CHECK(clSetEventCallback(gate, CL_COMPLETE, on_event, &ucb));
  cl_event gated;
  CHECK(clSetKernelArg(ktwice, 0, sizeof(cl_mem), &dc));
  CHECK(clEnqueueNDRangeKernel(q, ktwice, 1, NULL, &global, &local, 1, &gate, &gated));
  CHECK(clFlush(q));
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  CHECK(clGetEventInfo(gated, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL));
  report("gated kernel not complete before the user event", status != CL_COMPLETE && status >= 0);
  cl_int gate_status = 0;
  CHECK(clGetEventInfo(gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(gate_status), &gate_status,
                       NULL));
  CHECK(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
  report("user event: CL_SUBMITTED, CL_COMMAND_USER",
         gate_status == CL_SUBMITTED && type == CL_COMMAND_USER);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &gated));
  CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL));
  ok = 1;
  for (int i = 0; i < N; ++i) ok &= c[i] == 2 * (4 * i - 1000);
  report("gated kernel ran once after clSetUserEventStatus", ok);
  report("user event callback", wait_for_callback(&ucb) == 1 &&
                                    atomic_load(&ucb.status) == CL_COMPLETE &&
                                    atomic_load(&ucb.tag_seen) == 99);

  // 4. Markers and barriers with wait lists.
  cl_event k1, k2, marker, barrier_ev;
  CHECK(clEnqueueNDRangeKernel(q, ktwice, 1, NULL, &global, &local, 0, NULL, &k1));
  CHECK(clEnqueueNDRangeKernel(q, ktwice, 1, NULL, &global, &local, 0, NULL, &k2));
  cl_event both[2] = {k1, k2};
  CHECK(clEnqueueMarkerWithWaitList(q, 2, both, &marker));
  CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier_ev));
  CHECK(clWaitForEvents(1, &marker));
  cl_int s1, s2;
  CHECK(clGetEventInfo(k1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s1), &s1, NULL));
  CHECK(clGetEventInfo(k2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s2), &s2, NULL));
  report("marker completes after the events it waits for", s1 == CL_COMPLETE && s2 == CL_COMPLETE);
  CHECK(clWaitForEvents(1, &barrier_ev));
  CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL));
  ok = 1;
  long long sum = 0;
  for (int i = 0; i < N; ++i) {
    ok &= c[i] == 8 * (4 * i - 1000);
    sum += c[i];
  }
  report("two more kernels behind the barrier", ok);
  printf("c[0]=%d c[1]=%d c[%d]=%d sum=%lld\n", c[0], c[1], N - 1, c[N - 1], sum);

  printf("%s\n", failures ? "FAIL" : "PASS");
  cl_event evs[] = {writes[0], writes[1], kernel_done, read_done, gate,
                    gated,     k1,        k2,          marker,    barrier_ev};
  for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); ++i) CHECK(clReleaseEvent(evs[i]));
  CHECK(clReleaseMemObject(da));
  CHECK(clReleaseMemObject(db));
  CHECK(clReleaseMemObject(dc));
  CHECK(clReleaseKernel(kadd));
  CHECK(clReleaseKernel(ktwice));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
