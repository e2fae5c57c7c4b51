// Events, user events, callbacks, profiling, markers and barriers, faulting kernels and release
// order, against the OpenCL 1.2 specification.
#include <algorithm>
#include <array>
#include <atomic>
#include <numeric>

#include "common.h"
// After common.h, which selects OpenCL 1.2.
#include <CL/cl_icd.h>

namespace clapi {
namespace {

using Events = ClTest;
using Faults = ClTest;
using Release = ClTest;

// A user event that the test must complete before it releases other objects (the
// specification leaves releasing them with a pending user event undefined).
struct UserEvent {
  cl_event event = nullptr;
  bool set = false;
  explicit UserEvent(cl_context c) {
    cl_int e = CL_SUCCESS;
    event = clCreateUserEvent(c, &e);
    EXPECT_OK(e);
  }
  cl_int complete(cl_int status = CL_COMPLETE) {
    set = true;
    return clSetUserEventStatus(event, status);
  }
  ~UserEvent() {
    if (!set) clSetUserEventStatus(event, CL_COMPLETE);
    clReleaseEvent(event);
  }
};

TEST_F(Events, UserEventGatesAKernel) {
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  std::vector<cl_int> init = {5, 6, 7, 8};
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, 16, init.data());
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  UserEvent gate(context_);
  EXPECT_EQ(event_status(gate.event), CL_SUBMITTED);
  cl_command_type type = 0;
  ASSERT_OK(clGetEventInfo(gate.event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_USER));
  cl_command_queue q = reinterpret_cast<cl_command_queue>(1);
  ASSERT_OK(clGetEventInfo(gate.event, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr));
  EXPECT_EQ(q, nullptr);

  size_t n = 4;
  cl_event run = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 1, &gate.event, &run));
  ASSERT_OK(clFlush(queue_));
  // The kernel must wait: read the buffer through a second queue meanwhile.
  cl_int e = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueue(context_, device(), 0, &e);
  ASSERT_OK(e);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_GT(event_status(run), CL_RUNNING) << "queued or submitted, not running or done";
  // Non-blocking with a time limit: a platform that stalls every queue behind the gated
  // command fails here instead of hanging.
  std::vector<cl_int> seen(4, -1);
  cl_event read = nullptr;
  ASSERT_OK(clEnqueueReadBuffer(other, m, CL_FALSE, 0, 16, seen.data(), 0, nullptr, &read));
  ASSERT_OK(clFlush(other));
  EXPECT_TRUE(
      wait_until([&] { return event_status(read) <= CL_COMPLETE; }, std::chrono::seconds(10)))
      << "a read on another queue waits for the gated kernel";
  if (event_status(read) == CL_COMPLETE) {
    EXPECT_EQ(seen, init);
  }
  ASSERT_OK(clGetEventInfo(run, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
  ASSERT_OK(clGetEventInfo(run, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr));
  EXPECT_EQ(q, queue_);
  cl_context c = nullptr;
  ASSERT_OK(clGetEventInfo(run, CL_EVENT_CONTEXT, sizeof c, &c, nullptr));
  EXPECT_EQ(c, context_);

  ASSERT_OK(gate.complete());
  ASSERT_OK(clWaitForEvents(1, &read));
  EXPECT_OK(clReleaseEvent(read));
  EXPECT_CL(CL_INVALID_OPERATION, clSetUserEventStatus(gate.event, CL_COMPLETE))
      << "a user event's status is set once";
  EXPECT_CL(CL_INVALID_OPERATION, clSetUserEventStatus(gate.event, -3));
  ASSERT_OK(clWaitForEvents(1, &run));
  EXPECT_EQ(event_status(run), CL_COMPLETE);
  EXPECT_EQ(read_ints(m, 4, other), (std::vector<cl_int>{6, 7, 8, 9}));
  cl_uint refs = 0, refs2 = 0;
  ASSERT_OK(clGetEventInfo(run, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  EXPECT_GE(refs, 1u);
  ASSERT_OK(clRetainEvent(run));
  ASSERT_OK(clGetEventInfo(run, CL_EVENT_REFERENCE_COUNT, sizeof refs2, &refs2, nullptr));
  EXPECT_EQ(refs2, refs + 1);
  ASSERT_OK(clReleaseEvent(run));
  EXPECT_CL(CL_INVALID_VALUE, clGetEventInfo(run, 0x7777, sizeof refs, &refs, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetEventInfo(run, CL_EVENT_COMMAND_TYPE, 1, &type, nullptr));
  EXPECT_OK(clReleaseEvent(run));
  EXPECT_OK(clReleaseCommandQueue(other));
}

TEST_F(Events, UserEventStatusValues) {
  UserEvent u(context_);
  // Only CL_COMPLETE or a negative error code.
  EXPECT_CL(CL_INVALID_VALUE, clSetUserEventStatus(u.event, CL_RUNNING));
  EXPECT_CL(CL_INVALID_VALUE, clSetUserEventStatus(u.event, CL_SUBMITTED));
  EXPECT_CL(CL_INVALID_VALUE, clSetUserEventStatus(u.event, 7));
  ASSERT_OK(u.complete());
  EXPECT_EQ(event_status(u.event), CL_COMPLETE);
  // A command's event is not a user event.
  cl_event marker = nullptr;
  ASSERT_OK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
  ASSERT_OK(clWaitForEvents(1, &marker));
  EXPECT_CL(CL_INVALID_EVENT, clSetUserEventStatus(marker, CL_COMPLETE));
  EXPECT_OK(clReleaseEvent(marker));
  EXPECT_CL(CL_INVALID_VALUE, clWaitForEvents(0, &u.event));
  EXPECT_CL(CL_INVALID_VALUE, clWaitForEvents(1, nullptr));
}

TEST_F(Events, NegativeUserEventFailsTheDependentCommand) {
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  std::vector<cl_int> init = {1, 2, 3, 4};
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, 16, init.data());
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  // A separate queue: after a failure the queue's state is implementation-defined.
  cl_int e = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(context_, device(), 0, &e);
  ASSERT_OK(e);
  UserEvent gate(context_);
  size_t n = 4;
  cl_event run = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 1, &gate.event, &run));
  ASSERT_OK(clFlush(q));
  ASSERT_OK(gate.complete(-77));
  EXPECT_EQ(event_status(gate.event), -77);
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &gate.event));
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &run));
  EXPECT_LT(event_status(run), 0);
  // The kernel did not run.
  EXPECT_EQ(read_ints(m, 4), init);
  // A blocking transfer waiting on a failed event reports it (pocl 3.1 blocks forever).
  if (is_ventus()) {
    std::vector<cl_int> got(4);
    EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
              clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, 16, got.data(), 1, &gate.event, nullptr));
  }
  clFinish(q);  // may report the failure
  EXPECT_OK(clReleaseEvent(run));
  EXPECT_OK(clReleaseCommandQueue(q));
}

struct CallbackLog {
  std::mutex mutex;
  std::vector<std::pair<cl_event, cl_int>> calls;
  size_t count() {
    std::lock_guard lock(mutex);
    return calls.size();
  }
};

void CL_CALLBACK on_event(cl_event e, cl_int status, void* user_data) {
  auto* log = static_cast<CallbackLog*>(user_data);
  std::lock_guard lock(log->mutex);
  log->calls.emplace_back(e, status);
}

TEST_F(Events, CallbacksOnComplete) {
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  write_ints(m, {0, 0, 0, 0});
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  UserEvent gate(context_);
  size_t n = 4;
  cl_event run = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 1, &gate.event, &run));
  CallbackLog log, user_log;
  ASSERT_OK(clSetEventCallback(run, CL_COMPLETE, on_event, &log));
  ASSERT_OK(clSetEventCallback(gate.event, CL_COMPLETE, on_event, &user_log));
  EXPECT_CL(CL_INVALID_VALUE, clSetEventCallback(run, CL_COMPLETE, nullptr, &log));
  EXPECT_CL(CL_INVALID_VALUE, clSetEventCallback(run, 77, on_event, &log));
  ASSERT_OK(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(log.count(), 0u) << "called before the command completed";
  ASSERT_OK(gate.complete());
  ASSERT_OK(clWaitForEvents(1, &run));
  EXPECT_TRUE(wait_until([&] { return log.count() == 1 && user_log.count() == 1; }));
  {
    std::lock_guard lock(log.mutex);
    ASSERT_EQ(log.calls.size(), 1u);
    EXPECT_EQ(log.calls[0].first, run);
    EXPECT_EQ(log.calls[0].second, CL_COMPLETE);
  }
  {
    std::lock_guard lock(user_log.mutex);
    EXPECT_EQ(user_log.calls.at(0).first, gate.event);
    EXPECT_EQ(user_log.calls.at(0).second, CL_COMPLETE);
  }
  // Registered on a complete event: called too.
  CallbackLog late;
  ASSERT_OK(clSetEventCallback(run, CL_COMPLETE, on_event, &late));
  EXPECT_TRUE(wait_until([&] { return late.count() == 1; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(log.count(), 1u) << "each callback once";
  EXPECT_OK(clReleaseEvent(run));
}

TEST_F(Events, Profiling) {
  cl_int e = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(context_, device(), CL_QUEUE_PROFILING_ENABLE, &e);
  ASSERT_OK(e);
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 64);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t n = 16;
  cl_event ev[2] = {};
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, &ev[0]));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, &ev[1]));
  ASSERT_OK(clWaitForEvents(2, ev));
  cl_ulong prev_end = 0, first_queued = ~cl_ulong{0};
  for (cl_event x : ev) {
    cl_ulong t[4] = {};
    const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; ++i) {
      size_t size = 0;
      ASSERT_OK(clGetEventProfilingInfo(x, what[i], sizeof t[i], &t[i], &size));
      EXPECT_EQ(size, sizeof(cl_ulong));
    }
    EXPECT_LE(t[0], t[1]);
    EXPECT_LE(t[1], t[2]);
    EXPECT_LE(t[2], t[3]);
    // In order: the second kernel starts after the first ended.
    EXPECT_LE(prev_end, t[2]);
    prev_end = t[3];
    first_queued = std::min(first_queued, t[0]);
    cl_ulong v = 0;
    EXPECT_CL(CL_INVALID_VALUE, clGetEventProfilingInfo(x, 0x7777, sizeof v, &v, nullptr));
    EXPECT_CL(CL_INVALID_VALUE,
              clGetEventProfilingInfo(x, CL_PROFILING_COMMAND_END, 4, &v, nullptr));
  }
  // Two kernel launches on the simulator take time: the counter advanced.
  EXPECT_GT(prev_end, first_queued);
  for (cl_event x : ev) EXPECT_OK(clReleaseEvent(x));

  // A queue without profiling, and a user event: no profiling information.
  cl_event plain = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, &plain));
  ASSERT_OK(clWaitForEvents(1, &plain));
  cl_ulong v = 0;
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
            clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr));
  EXPECT_OK(clReleaseEvent(plain));
  UserEvent u(context_);
  ASSERT_OK(u.complete());
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
            clGetEventProfilingInfo(u.event, CL_PROFILING_COMMAND_END, sizeof v, &v, nullptr));
  EXPECT_OK(clReleaseCommandQueue(q));
}

TEST_F(Events, MarkersWaitForEarlierCommands) {
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  write_ints(m, {0, 0, 0, 0});
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  UserEvent gate(context_);
  size_t n = 4;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 1, &gate.event, nullptr));
  cl_event marker = nullptr, barrier = nullptr;
  ASSERT_OK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
  ASSERT_OK(clEnqueueBarrierWithWaitList(queue_, 0, nullptr, &barrier));
  ASSERT_OK(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(event_status(marker), CL_COMPLETE);
  EXPECT_GT(event_status(barrier), CL_COMPLETE);
  cl_command_type type = 0;
  ASSERT_OK(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MARKER));
  ASSERT_OK(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_BARRIER));
  ASSERT_OK(gate.complete());
  ASSERT_OK(clWaitForEvents(1, &marker));
  // The marker completed, so the kernel before it did.
  EXPECT_EQ(read_ints(m, 4), (std::vector<cl_int>{1, 1, 1, 1}));
  ASSERT_OK(clWaitForEvents(1, &barrier));
  EXPECT_OK(clReleaseEvent(marker));
  EXPECT_OK(clReleaseEvent(barrier));
}

TEST_F(Events, OutOfOrderQueueBarrier) {
  auto supported = device_value<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_PROPERTIES);
  if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    GTEST_SKIP() << "no out-of-order queues";
  cl_int e = CL_SUCCESS;
  cl_command_queue q =
      clCreateCommandQueue(context_, device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &e);
  ASSERT_OK(e);
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem a = buffer(CL_MEM_READ_WRITE, 16);
  cl_mem b = buffer(CL_MEM_READ_WRITE, 16);
  write_ints(a, {10, 20, 30, 40});
  write_ints(b, {0, 0, 0, 0});
  ASSERT_OK(clSetKernelArg(k, 0, sizeof a, &a));
  UserEvent gate(context_);
  size_t n = 4;
  cl_event first = nullptr, copy = nullptr, marker = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 1, &gate.event, &first));
  // After the barrier: the copy must see the kernel's result although it waits on no event.
  ASSERT_OK(clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr));
  ASSERT_OK(clEnqueueCopyBuffer(q, a, b, 0, 0, 16, 0, nullptr, &copy));
  // A marker that waits only for `first`.
  ASSERT_OK(clEnqueueMarkerWithWaitList(q, 1, &first, &marker));
  ASSERT_OK(clFlush(q));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(event_status(copy), CL_RUNNING);
  EXPECT_GT(event_status(marker), CL_COMPLETE);
  ASSERT_OK(gate.complete());
  ASSERT_OK(clWaitForEvents(1, &copy));
  ASSERT_OK(clWaitForEvents(1, &marker));
  EXPECT_EQ(read_ints(b, 4), (std::vector<cl_int>{11, 21, 31, 41}));
  for (cl_event x : {first, copy, marker}) EXPECT_OK(clReleaseEvent(x));
  EXPECT_OK(clFinish(q));
  EXPECT_OK(clReleaseCommandQueue(q));
}

TEST_F(Events, WaitListAcrossQueues) {
  cl_int e = CL_SUCCESS;
  cl_command_queue q2 = clCreateCommandQueue(context_, device(), 0, &e);
  ASSERT_OK(e);
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  UserEvent gate(context_);
  cl_event wrote = nullptr, ran = nullptr;
  std::vector<cl_int> init = {3, 3, 3, 3};
  ASSERT_OK(clEnqueueWriteBuffer(queue_, m, CL_FALSE, 0, 16, init.data(), 1, &gate.event, &wrote));
  size_t n = 4;
  // A command on another queue that waits for the write.
  ASSERT_OK(clEnqueueNDRangeKernel(q2, k, 1, nullptr, &n, nullptr, 1, &wrote, &ran));
  ASSERT_OK(clFlush(queue_));
  ASSERT_OK(clFlush(q2));
  ASSERT_OK(gate.complete());
  cl_event both[2] = {wrote, ran};
  ASSERT_OK(clWaitForEvents(2, both));
  EXPECT_EQ(read_ints(m, 4), (std::vector<cl_int>{4, 4, 4, 4}));
  // A wait list event of another context.
  cl_device_id d = device();
  cl_context other = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_event foreign = clCreateUserEvent(other, &e);
  ASSERT_OK(e);
  // pocl 3.1 accepts it.
  EXPECT_CL(CL_INVALID_CONTEXT,
            clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 1, &foreign, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clWaitForEvents(2, std::array{ran, foreign}.data()));
  EXPECT_OK(clSetUserEventStatus(foreign, CL_COMPLETE));
  EXPECT_OK(clReleaseEvent(foreign));
  EXPECT_OK(clReleaseContext(other));
  EXPECT_OK(clReleaseEvent(wrote));
  EXPECT_OK(clReleaseEvent(ran));
  EXPECT_OK(clReleaseCommandQueue(q2));
}

// A correct kernel on `q` after a failed one (Ventus: the queue and context stay usable).
void expect_queue_still_works(cl_command_queue q) {
  cl_context c = nullptr;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr));
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  const char* src = kSimpleKernels;
  cl_program p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "ids", &e);
  ASSERT_OK(e);
  cl_mem out = clCreateBuffer(c, 0, 4 * sizeof(cl_int), nullptr, &e);
  ASSERT_OK(e);
  cl_int bias = 90;
  size_t n = 4;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof bias, &bias));
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<cl_int> got(4);
  ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(got, (std::vector<cl_int>{90, 91, 92, 93}));
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// The simulator stops a kernel that faults or runs past its instruction budget; pocl runs
// kernels on the host CPU, where either would take the test process down, so these are
// Ventus-only.
TEST_F(Faults, OutOfBoundsStoreFailsTheCommand) {
  if (!is_ventus()) GTEST_SKIP() << "a fault would crash a CPU implementation";
  const char* text = R"CLC(
__kernel void wild(__global int *a) {
  // Below the local-memory windows, the program and the buffers (docs/driver.md): unmapped.
  __global int *far = (__global int *)0x10000000ul;
  far[get_global_id(0)] = a[0];
}
)CLC";
  cl_kernel k = kernel(build(text), "wild");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t n = 4;
  cl_event run = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, &run));
  cl_int finish = clFinish(queue_);
  cl_int wait = clWaitForEvents(1, &run);
  EXPECT_LT(event_status(run), 0);
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, wait);
  std::printf("clFinish after the fault: %s\n", error_name(finish));
  EXPECT_TRUE(wait_until([&] { return notes_.count() > 0; })) << "pfn_notify was not called";
  {
    std::lock_guard lock(notes_.mutex);
    for (const std::string& s : notes_.messages) std::printf("pfn_notify: %s\n", s.c_str());
    ASSERT_FALSE(notes_.messages.empty());
    EXPECT_NE(notes_.messages[0].find("wild"), std::string::npos) << "names the kernel";
  }
  EXPECT_OK(clReleaseEvent(run));
  expect_queue_still_works(queue_);

  // The platform still runs a correct kernel (in a new context and queue).
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  ASSERT_OK(e);
  const char* src = kSimpleKernels;
  cl_program p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel ok = clCreateKernel(p, "ids", &e);
  ASSERT_OK(e);
  cl_mem out = clCreateBuffer(c, 0, 4 * sizeof(cl_int), nullptr, &e);
  cl_int bias = 50;
  ASSERT_OK(clSetKernelArg(ok, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(ok, 1, sizeof bias, &bias));
  ASSERT_OK(clEnqueueNDRangeKernel(q, ok, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<cl_int> got(4);
  ASSERT_OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(got, (std::vector<cl_int>{50, 51, 52, 53}));
  clReleaseMemObject(out);
  clReleaseKernel(ok);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
}

TEST_F(Faults, EndlessKernelIsStopped) {
  if (!is_ventus()) GTEST_SKIP() << "an endless kernel would hang a CPU implementation";
  const char* text = R"CLC(
__kernel void spin(__global volatile int *flag, __global int *out) {
  while (flag[0] == 0) { }
  out[0] = 1;
}
)CLC";
  cl_kernel k = kernel(build(text), "spin");
  ASSERT_NE(k, nullptr);
  cl_mem flag = buffer(CL_MEM_READ_WRITE, 4);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 4);
  write_ints(flag, {0});
  write_ints(out, {0});
  ASSERT_OK(clSetKernelArg(k, 0, sizeof flag, &flag));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof out, &out));
  size_t n = 1;
  cl_event run = nullptr;
  auto start = std::chrono::steady_clock::now();
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, &run));
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &run));
  std::printf("stopped after %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  EXPECT_LT(event_status(run), 0);
  // clFinish returns (CL_SUCCESS or an error: 1.2 leaves the queue's state after a failed
  // command to the implementation).
  std::printf("clFinish after the stop: %s\n", error_name(clFinish(queue_)));
  EXPECT_TRUE(wait_until([&] { return notes_.count() > 0; })) << "pfn_notify was not called";
  EXPECT_OK(clReleaseEvent(run));
  EXPECT_EQ(read_ints(out, 1)[0], 0) << "the store after the loop never ran";
  expect_queue_still_works(queue_);
}

// Releasing every object while a command that uses them is pending: the objects live until
// the command completes (the specification's implicit references), so nothing crashes and
// the command still completes. A user event holds the kernel back through the first half of
// the releases, so they happen while it is pending however fast the device runs (with
// translation on, the loop alone ended before the releases on a CI host); the second half
// come after the gate opens, most often while the kernel runs.
void release_all_while_pending(const std::vector<int>& order) {
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  ASSERT_OK(e);
  // Long enough (some 10^6 warp instructions, tens of milliseconds) that the releases below
  // happen while it runs; its result depends on the loop, so the loop stays.
  const char* src = R"CLC(
__kernel void slow_ids(__global int *out, int bias, int spins) {
  uint acc = 0;
  for (int i = 0; i < spins; ++i) acc = acc * 3u + (uint)i;
  out[get_global_id(0)] = (int)get_global_id(0) + bias + (int)(acc & 0xffu);
}
)CLC";
  cl_program p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "slow_ids", &e);
  ASSERT_OK(e);
  const cl_int spins = 200000;
  uint32_t acc = 0;
  for (cl_int i = 0; i < spins; ++i) acc = acc * 3u + static_cast<uint32_t>(i);
  const cl_int extra = static_cast<cl_int>(acc & 0xffu);
  std::vector<cl_int> result(64, 0);
  cl_mem out =
      clCreateBuffer(c, CL_MEM_USE_HOST_PTR, result.size() * sizeof(cl_int), result.data(), &e);
  ASSERT_OK(e);
  cl_int bias = 7;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof bias, &bias));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof spins, &spins));
  size_t n = result.size();
  cl_event gate = clCreateUserEvent(c, &e);
  ASSERT_OK(e);
  cl_event ran = nullptr, mapped = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 1, &gate, &ran));
  // A map after the kernel makes the result visible in `result` (USE_HOST_PTR).
  void* ptr = clEnqueueMapBuffer(q, out, CL_FALSE, CL_MAP_READ, 0, n * sizeof(cl_int), 1, &ran,
                                 &mapped, &e);
  ASSERT_OK(e);
  ASSERT_OK(clFlush(q));
  EXPECT_GT(event_status(ran), CL_RUNNING) << "the kernel started before its gate opened";
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == order.size() / 2) {
      EXPECT_GT(event_status(mapped), CL_COMPLETE) << "the commands finished before the gate";
      ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
      ASSERT_OK(clReleaseEvent(gate));
    }
    switch (order[i]) {
      case 0: EXPECT_OK(clReleaseKernel(k)); break;
      case 1: EXPECT_OK(clReleaseProgram(p)); break;
      case 2: EXPECT_OK(clReleaseMemObject(out)); break;
      case 3: EXPECT_OK(clReleaseCommandQueue(q)); break;
      case 4: EXPECT_OK(clReleaseContext(c)); break;
      case 5: EXPECT_OK(clReleaseEvent(ran)); break;
    }
  }
  ASSERT_OK(clWaitForEvents(1, &mapped));
  EXPECT_EQ(event_status(mapped), CL_COMPLETE);
  ASSERT_EQ(ptr, result.data());
  for (size_t i = 0; i < result.size(); ++i) ASSERT_EQ(result[i], cl_int(i) + 7 + extra) << i;
  EXPECT_OK(clReleaseEvent(mapped));
}

TEST(ReleaseOrder, ObjectsReleasedWhileACommandIsPending) {
  for (const std::vector<int>& order :
       {std::vector<int>{0, 1, 2, 3, 4, 5}, std::vector<int>{5, 4, 3, 2, 1, 0},
        std::vector<int>{4, 1, 5, 3, 0, 2}}) {
    SCOPED_TRACE(::testing::PrintToString(order));
    release_all_while_pending(order);
  }
}

TEST_F(Release, NullHandlesAtTheLoader) {
  // The ICD loader answers some of these itself; the codes are the specification's either way.
  cl_int e = CL_SUCCESS;
  EXPECT_CL(CL_INVALID_CONTEXT, clRetainContext(nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clReleaseContext(nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr));
  EXPECT_CL(CL_INVALID_PROGRAM, clReleaseProgram(nullptr));
  EXPECT_CL(CL_INVALID_PROGRAM, clBuildProgram(nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_KERNEL, clReleaseKernel(nullptr));
  EXPECT_CL(CL_INVALID_EVENT, clReleaseEvent(nullptr));
  EXPECT_CL(CL_INVALID_DEVICE, clGetDeviceInfo(nullptr, CL_DEVICE_NAME, 0, nullptr, nullptr));
  EXPECT_EQ(clCreateBuffer(nullptr, 0, 16, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);
  EXPECT_EQ(clCreateKernel(nullptr, "x", &e), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM, e);
  EXPECT_EQ(clCreateUserEvent(nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);
}

// NULL or wrong-kind objects behind a valid one: the loader dispatches through the valid one,
// so the platform itself must recognise them (pocl 3.1 dereferences them and crashes).
TEST_F(Release, InvalidHandlesReachingThePlatform) {
  if (!is_ventus()) GTEST_SKIP() << "the reference platform crashes on these";
  cl_int e = CL_SUCCESS;
  cl_int v = 0;
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueReadBuffer(queue_, nullptr, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueWriteBuffer(queue_, nullptr, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr));
  size_t n = 1;
  EXPECT_CL(CL_INVALID_KERNEL,
            clEnqueueNDRangeKernel(queue_, nullptr, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(clCreateCommandQueue(context_, nullptr, 0, &e), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, e);
  UserEvent u(context_);
  cl_event list[2] = {u.event, nullptr};
  EXPECT_CL(CL_INVALID_EVENT, clWaitForEvents(2, list));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue_, 2, list, nullptr));
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  // Objects of the wrong kind where a memory object is expected.
  cl_mem not_mem = reinterpret_cast<cl_mem>(queue_);
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueCopyBuffer(queue_, m, not_mem, 0, 0, 4, 0, nullptr, nullptr));
  cl_buffer_region r{0, 4};
  EXPECT_EQ(clCreateSubBuffer(not_mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e), nullptr);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, e);
  ASSERT_OK(u.complete());
}

// Released handles. The ICD loader reads a handle's dispatch table (its first word) before
// the platform sees the call, so a freed handle cannot be passed through the loader without
// a use after free. The platform's own entry points, taken from the dispatch table of a live
// object, must recognise a released handle: each check follows its release directly, before
// another object of the platform could reuse the address.
TEST_F(Release, ReleasedHandlesAtThePlatform) {
  if (!is_ventus()) GTEST_SKIP() << "the reference platform does not track released handles";
  const cl_icd_dispatch* api = *reinterpret_cast<cl_icd_dispatch* const*>(platform());
  cl_int e = CL_SUCCESS;
  cl_device_id d = device();
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  ASSERT_OK(e);
  const char* src = kSimpleKernels;
  cl_program p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "add_one", &e);
  ASSERT_OK(e);
  cl_mem m = clCreateBuffer(c, 0, 16, nullptr, &e);
  ASSERT_OK(e);
  cl_event u = clCreateUserEvent(c, &e);
  ASSERT_OK(e);
  ASSERT_OK(clSetUserEventStatus(u, CL_COMPLETE));
  cl_uint n = 0;

  // A query first: only once it fails is a second release safe (a platform that still holds
  // the object would lose a reference it needs).
  ASSERT_OK(clReleaseMemObject(m));
  ASSERT_CL(CL_INVALID_MEM_OBJECT,
            api->clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, api->clReleaseMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, api->clRetainMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, api->clSetKernelArg(k, 0, sizeof m, &m));
  ASSERT_OK(clReleaseEvent(u));
  ASSERT_CL(CL_INVALID_EVENT,
            api->clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_EVENT, api->clReleaseEvent(u));
  EXPECT_CL(CL_INVALID_EVENT, api->clWaitForEvents(1, &u));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST, api->clEnqueueMarkerWithWaitList(q, 1, &u, nullptr));
  ASSERT_OK(clReleaseKernel(k));
  ASSERT_CL(CL_INVALID_KERNEL, api->clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_KERNEL, api->clReleaseKernel(k));
  size_t one = 1;
  EXPECT_CL(CL_INVALID_KERNEL,
            api->clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  ASSERT_OK(clReleaseProgram(p));
  ASSERT_CL(CL_INVALID_PROGRAM,
            api->clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_PROGRAM, api->clReleaseProgram(p));
  EXPECT_EQ(api->clCreateKernel(p, "add_one", &e), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM, e);
  ASSERT_OK(clReleaseCommandQueue(q));
  ASSERT_CL(CL_INVALID_COMMAND_QUEUE,
            api->clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, api->clReleaseCommandQueue(q));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, api->clFinish(q));
  ASSERT_OK(clReleaseContext(c));
  // The context may outlive its last release while the platform holds it for objects
  // attached to it; a context that never had any goes at once.
  cl_context bare = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseContext(bare));
  ASSERT_CL(CL_INVALID_CONTEXT,
            api->clGetContextInfo(bare, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, api->clReleaseContext(bare));
  EXPECT_EQ(api->clCreateBuffer(bare, 0, 16, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);
}

}  // namespace
}  // namespace clapi
