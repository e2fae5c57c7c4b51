// Careless and hostile uses of the API (issue 16): released handles used again, blocking
// calls inside event callbacks, `__local` sizes of 4 GiB and more, many command queues.
// docs/opencl.md, "Limits and errors", lists what the platform promises.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "common.h"

namespace clapi {
namespace {

using Tombstones = ClTest;
using CallbackCalls = ClTest;
using LocalArguments = ClTest;
using QueuePool = ClTest;

// Resident memory of the process, in bytes.
size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

size_t thread_count() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++n;
  return n;
}

// Every kind of object, released twice and used after its release, through the ICD loader
// (which reads the handle's dispatch table before the platform sees the call: a freed
// handle crashed there).
TEST_F(Tombstones, UseAfterReleaseThroughTheLoader) {
  if (!is_ventus()) GTEST_SKIP() << "undefined behaviour; the reference platform crashes";
  cl_int e = CL_SUCCESS;
  cl_device_id d = device();
  cl_uint n = 0;

  cl_mem m = clCreateBuffer(context_, 0, 16, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clRetainMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr));
  cl_buffer_region region{0, 4};
  EXPECT_EQ(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &e), nullptr);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, e);

  cl_program p = build(kSimpleKernels);
  ASSERT_NE(p, nullptr);
  cl_kernel k = clCreateKernel(p, "add_one", &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseKernel(k));
  EXPECT_CL(CL_INVALID_KERNEL, clReleaseKernel(k));
  EXPECT_CL(CL_INVALID_KERNEL, clSetKernelArg(k, 0, sizeof m, &m));
  EXPECT_CL(CL_INVALID_KERNEL, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr));

  const char* src = kSimpleKernels;
  cl_program unbuilt = clCreateProgramWithSource(context_, 1, &src, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseProgram(unbuilt));
  EXPECT_CL(CL_INVALID_PROGRAM, clReleaseProgram(unbuilt));
  EXPECT_CL(CL_INVALID_PROGRAM, clBuildProgram(unbuilt, 1, &d, nullptr, nullptr, nullptr));
  EXPECT_EQ(clCreateKernel(unbuilt, "add_one", &e), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM, e);

  cl_event u = clCreateUserEvent(context_, &e);
  ASSERT_OK(e);
  ASSERT_OK(clSetUserEventStatus(u, CL_COMPLETE));
  ASSERT_OK(clReleaseEvent(u));
  EXPECT_CL(CL_INVALID_EVENT, clReleaseEvent(u));
  EXPECT_CL(CL_INVALID_EVENT, clWaitForEvents(1, &u));
  EXPECT_CL(CL_INVALID_EVENT, clSetUserEventStatus(u, CL_COMPLETE));
  EXPECT_CL(CL_INVALID_EVENT, clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof n, &n, nullptr));

  cl_command_queue q = clCreateCommandQueue(context_, d, 0, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseCommandQueue(q));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(q));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFinish(q));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFlush(q));
  cl_int v = 0;
  cl_mem live = buffer(CL_MEM_READ_WRITE, 16);
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE,
            clEnqueueReadBuffer(q, live, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr));

  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseContext(c));
  EXPECT_CL(CL_INVALID_CONTEXT, clReleaseContext(c));
  EXPECT_CL(CL_INVALID_CONTEXT, clRetainContext(c));
  EXPECT_CL(CL_INVALID_CONTEXT,
            clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr));
  EXPECT_EQ(clCreateBuffer(c, 0, 16, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);
  EXPECT_EQ(clCreateCommandQueue(c, d, 0, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);

  // Samplers cannot be created on this device; the loader still routes a bogus one here
  // through the dispatch table it points at.
  struct FakeSampler {
    const void* dispatch;
  } fake{*reinterpret_cast<const void* const*>(platform())};
  EXPECT_CL(CL_INVALID_SAMPLER, clReleaseSampler(reinterpret_cast<cl_sampler>(&fake)));
}

// A release more than the application holds must not take a reference that the platform
// holds for a pending command or for another object.
TEST_F(Tombstones, OverReleaseKeepsThePlatformsReferences) {
  if (!is_ventus()) GTEST_SKIP() << "undefined behaviour; the reference platform crashes";
  cl_int e = CL_SUCCESS;
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  std::vector<cl_int> data = {1, 2, 3, 4};
  cl_mem m = clCreateBuffer(context_, CL_MEM_COPY_HOST_PTR, 16, data.data(), &e);
  ASSERT_OK(e);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  cl_event gate = clCreateUserEvent(context_, &e);
  ASSERT_OK(e);
  size_t n = 4;
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 1, &gate, nullptr));
  std::vector<cl_int> out(4, 0);
  cl_event read = nullptr;
  ASSERT_OK(clEnqueueReadBuffer(queue_, m, CL_FALSE, 0, 16, out.data(), 0, nullptr, &read));
  ASSERT_OK(clReleaseMemObject(m));  // the pending commands keep the buffer alive
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject(m));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject(m));
  ASSERT_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_OK(clWaitForEvents(1, &read));
  EXPECT_EQ(out, (std::vector<cl_int>{2, 3, 4, 5}));
  ASSERT_OK(clReleaseEvent(read));
  ASSERT_OK(clReleaseEvent(gate));

  // A context released by the application lives on while a buffer refers to it; a second
  // release is the application's error, not the buffer's loss.
  cl_device_id d = device();
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_mem b = clCreateBuffer(c, 0, 16, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clReleaseContext(c));
  EXPECT_CL(CL_INVALID_CONTEXT, clReleaseContext(c));
  cl_context of_buffer = nullptr;
  ASSERT_OK(clGetMemObjectInfo(b, CL_MEM_CONTEXT, sizeof of_buffer, &of_buffer, nullptr));
  EXPECT_EQ(of_buffer, c);
  cl_uint count = 0;
  ASSERT_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, nullptr));
  EXPECT_EQ(count, 1u);
  ASSERT_OK(clRetainContext(c));  // legal: the context exists
  ASSERT_OK(clReleaseContext(c));
  ASSERT_OK(clReleaseMemObject(b));  // the context goes with its last reference
  EXPECT_CL(CL_INVALID_CONTEXT,
            clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, nullptr));
}

// A released handle costs 8 bytes for the life of the process, nothing more.
TEST_F(Tombstones, MemoryStaysFlat) {
  // The platform may be instrumented even where this test is not.
  if (dlsym(RTLD_DEFAULT, "__asan_init") != nullptr ||
      dlsym(RTLD_DEFAULT, "__tsan_init") != nullptr)
    GTEST_SKIP() << "a sanitizer's runtime holds freed memory";
  cl_int e = CL_SUCCESS;
  auto cycles = [&](int count) {
    for (int i = 0; i < count; ++i) {
      cl_mem m = clCreateBuffer(context_, 0, 64, nullptr, &e);
      ASSERT_OK(e);
      ASSERT_OK(clReleaseMemObject(m));
      cl_event u = clCreateUserEvent(context_, &e);
      ASSERT_OK(e);
      ASSERT_OK(clReleaseEvent(u));
    }
  };
  cycles(10000);  // allocator pools warmed up
  const size_t before = resident_bytes();
  cycles(100000);
  const size_t growth = resident_bytes() - std::min(resident_bytes(), before);
  RecordProperty("growth_bytes", std::to_string(growth));
  // 200,000 handles: 1.6 MB of tombstones; a freed object kept whole would take ~40 MB.
  EXPECT_LT(growth, size_t{6} << 20) << "resident memory grew by " << growth << " bytes";
}

// ---- blocking calls inside callbacks ----

struct CallbackRun {
  cl_command_queue queue = nullptr;
  cl_mem buffer = nullptr;
  cl_event other = nullptr;
  std::atomic<int> finish{1}, read{1}, wait{1};
  std::vector<cl_int> seen = std::vector<cl_int>(4, 0);
  std::atomic<bool> done{false};
};

void CL_CALLBACK block_inside(cl_event, cl_int, void* data) {
  auto* run = static_cast<CallbackRun*>(data);
  run->finish = clFinish(run->queue);
  run->read = clEnqueueReadBuffer(run->queue, run->buffer, CL_TRUE, 0, 16, run->seen.data(), 0,
                                  nullptr, nullptr);
  run->wait = clWaitForEvents(1, &run->other);
  run->done = true;
}

// clFinish, a blocking read on the same queue and clWaitForEvents inside an event callback
// complete (they deadlocked: the callback ran on the queue's only thread, holding it).
TEST_F(CallbackCalls, BlockingCallsComplete) {
  for (cl_int trigger : {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED}) {
    SCOPED_TRACE(trigger);
    auto* run = new CallbackRun;  // leaked if a deadlock leaves the callback running
    run->queue = queue_;
    run->buffer = buffer(CL_MEM_READ_WRITE, 16);
    std::vector<cl_int> values = {7, 8, 9, trigger};
    cl_event written = nullptr;
    ASSERT_OK(clEnqueueWriteBuffer(queue_, run->buffer, CL_FALSE, 0, 16, values.data(), 0, nullptr,
                                   &written));
    ASSERT_OK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &run->other));
    ASSERT_OK(clSetEventCallback(written, trigger, block_inside, run));
    EXPECT_TRUE(wait_until([&] { return run->done.load(); }, std::chrono::seconds(20)))
        << "a blocking call inside the callback did not return";
    if (!run->done) return;  // the queue is stuck: nothing below can work
    EXPECT_CL(CL_SUCCESS, run->finish.load());
    EXPECT_CL(CL_SUCCESS, run->read.load());
    EXPECT_CL(CL_SUCCESS, run->wait.load());
    EXPECT_EQ(run->seen, values);
    ASSERT_OK(clFinish(queue_));
    EXPECT_OK(clReleaseEvent(written));
    EXPECT_OK(clReleaseEvent(run->other));
    delete run;
  }
}

// The same from the callback of a user event set by the application's thread, and from a
// mem object's destructor callback, which run in the calling thread.
void CL_CALLBACK finish_on_destroy(cl_mem, void* data) {
  auto* run = static_cast<CallbackRun*>(data);
  run->finish = clFinish(run->queue);
  run->done = true;
}

TEST_F(CallbackCalls, DestructorCallbackFinishesTheQueue) {
  cl_int e = CL_SUCCESS;
  CallbackRun run;
  run.queue = queue_;
  cl_mem m = clCreateBuffer(context_, 0, 16, nullptr, &e);
  ASSERT_OK(e);
  ASSERT_OK(clSetMemObjectDestructorCallback(m, finish_on_destroy, &run));
  std::vector<cl_int> values = {1, 2, 3, 4};
  ASSERT_OK(clEnqueueWriteBuffer(queue_, m, CL_FALSE, 0, 16, values.data(), 0, nullptr, nullptr));
  ASSERT_OK(clReleaseMemObject(m));  // the write holds the last reference
  EXPECT_TRUE(wait_until([&] { return run.done.load(); }, std::chrono::seconds(20)));
  EXPECT_CL(CL_SUCCESS, run.finish.load());
}

// ---- __local argument sizes ----

const char* const kLocalKernel = R"CLC(
__kernel void scratch(__global int *out, __local int *a, __local int *b) {
  size_t i = get_local_id(0);
  a[i] = (int)i;
  b[i] = 2 * (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[i] + b[i];
}
)CLC";

// Sizes are 64-bit: 2^32 + 16 bytes is not 16 bytes (it was: accepted, reported as 16 bytes
// by CL_KERNEL_LOCAL_MEM_SIZE, and the kernel ran).
TEST_F(LocalArguments, SizesOf4GiBAndMoreAreRefused) {
  cl_kernel k = kernel(build(kLocalKernel), "scratch");
  ASSERT_NE(k, nullptr);
  cl_ulong device_local = device_value<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 1, 256, nullptr));
  // The refusals are Ventus's: pocl 3.1 queues such launches (its local memory is host memory).
  for (size_t huge : {(size_t{1} << 32) + 16, size_t{1} << 32, (size_t{1} << 33) + 256, SIZE_MAX}) {
    if (!is_ventus()) break;
    SCOPED_TRACE(huge);
    cl_int s = clSetKernelArg(k, 2, huge, nullptr);
    // The specification leaves the refusal to clSetKernelArg (CL_INVALID_ARG_SIZE) or the
    // launch (CL_OUT_OF_RESOURCES); either way the kernel must not run.
    if (s == CL_SUCCESS) {
      size_t global = 64, local = 64;
      EXPECT_CL(CL_OUT_OF_RESOURCES, clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local,
                                                            0, nullptr, nullptr));
      cl_ulong used = 0;
      ASSERT_OK(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                         nullptr));
      EXPECT_GE(used, huge) << "CL_KERNEL_LOCAL_MEM_SIZE wrapped around";
    } else {
      EXPECT_CL(CL_INVALID_ARG_SIZE, s);
    }
  }
  // Within the device's local memory each, too large together for the workgroup.
  ASSERT_OK(clSetKernelArg(k, 1, static_cast<size_t>(device_local), nullptr));
  ASSERT_OK(clSetKernelArg(k, 2, static_cast<size_t>(device_local), nullptr));
  cl_ulong used = 0;
  ASSERT_OK(
      clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, nullptr));
  EXPECT_GE(used, 2 * device_local);
  size_t global = 64, local = 64;
  if (is_ventus()) {
    EXPECT_CL(CL_OUT_OF_RESOURCES,
              clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  }
  // Back to sizes that fit: the kernel runs and CL_KERNEL_LOCAL_MEM_SIZE counts both.
  ASSERT_OK(clSetKernelArg(k, 1, 64 * sizeof(cl_int), nullptr));
  ASSERT_OK(clSetKernelArg(k, 2, 64 * sizeof(cl_int), nullptr));
  ASSERT_OK(
      clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, nullptr));
  EXPECT_GE(used, 2 * 64 * sizeof(cl_int));
  EXPECT_LT(used, 4 * 64 * sizeof(cl_int));
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_int> got = read_ints(out, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], 3 * i) << i;
}

// 2^27 x 2^27 work-items are more workgroups than the device numbers: refused, not wrapped
// (their private memory was once counted for the whole NDRange, 2^64 bytes wrapped to 0).
TEST_F(LocalArguments, HugeRangesAreRefusedNotWrapped) {
  if (!is_ventus()) GTEST_SKIP() << "a CPU implementation runs it";
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  cl_mem m = buffer(CL_MEM_READ_WRITE, 16);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  const size_t global[2] = {size_t{1} << 27, size_t{1} << 27};
  EXPECT_CL(CL_OUT_OF_RESOURCES,
            clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
}

// A refusal for the kernel's or the buffer's needs also reaches the context's pfn_notify,
// saying why (the error code alone does not say which limit).
TEST_F(LocalArguments, RefusalsTellTheContextWhy) {
  if (!is_ventus()) GTEST_SKIP() << "the messages are Ventus's";
  auto noted = [&](const std::string& part) {
    std::lock_guard lock(notes_.mutex);
    for (const std::string& m : notes_.messages)
      if (m.find(part) != std::string::npos) return true;
    return false;
  };
  cl_int e = CL_SUCCESS;
  EXPECT_EQ(clCreateBuffer(context_, 0, size_t{1} << 40, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, e);
  EXPECT_TRUE(noted("clCreateBuffer: a size of 1099511627776 bytes is not within 1.."));
  cl_kernel k = kernel(build(kLocalKernel), "scratch");
  ASSERT_NE(k, nullptr);
  cl_int two = 2;
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, sizeof two, &two));
  EXPECT_TRUE(
      noted("clSetKernelArg of scratch, argument 0: a global pointer takes sizeof(cl_mem) = 8 "
            "bytes, not 4"));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, 0, nullptr));
  EXPECT_TRUE(noted("clSetKernelArg of scratch, argument 1: a __local argument needs a size"));
  size_t global = 64, local = 64;
  EXPECT_CL(CL_INVALID_KERNEL_ARGS,
            clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  EXPECT_TRUE(noted("clEnqueueNDRangeKernel of scratch: argument 0 is not set"));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 1, size_t{1} << 32, nullptr));
  ASSERT_OK(clSetKernelArg(k, 2, 16, nullptr));
  EXPECT_CL(CL_OUT_OF_RESOURCES,
            clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  // 2 KiB of stacks + 2^32 + 128 bytes of local data.
  EXPECT_TRUE(
      noted("clEnqueueNDRangeKernel of scratch: a workgroup needs 4294969472 bytes of "
            "local memory"));
}

// Every limit of the launch plan has its OpenCL error code, and the context's pfn_notify
// says which limit and by how much.
TEST_F(LocalArguments, EachLimitHasItsCodeAndReason) {
  if (!is_ventus()) GTEST_SKIP() << "the limits and messages are Ventus's";
  auto noted = [&](const std::string& part) {
    std::lock_guard lock(notes_.mutex);
    for (const std::string& m : notes_.messages)
      if (m.find(part) != std::string::npos) return true;
    return false;
  };
  cl_kernel k = kernel(build(kLocalKernel), "scratch");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_READ_WRITE, 1024 * sizeof(cl_int));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 1, 63000, nullptr));
  ASSERT_OK(clSetKernelArg(k, 2, 16, nullptr));
  const auto launch = [&](cl_uint dims, const size_t* global, const size_t* local) {
    return clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, nullptr);
  };
  // Local memory counts the warps' stacks: 63104 + 128 bytes of __local data fit beside two
  // warps' stacks, not beside eight.
  size_t global = 64, local = 64;
  ASSERT_OK(launch(1, &global, &local));
  global = local = 256;
  EXPECT_CL(CL_OUT_OF_RESOURCES, launch(1, &global, &local));
  EXPECT_TRUE(
      noted("a workgroup needs 71424 bytes of local memory (8 warps x 1024 bytes of "
            "stack + 63232 bytes of local data); an SM has 65536: 5888 bytes too many"));
  ASSERT_OK(clSetKernelArg(k, 1, 16, nullptr));
  // Work-item size: one dimension beyond CL_DEVICE_MAX_WORK_ITEM_SIZES.
  global = local = 2048;
  EXPECT_CL(CL_INVALID_WORK_ITEM_SIZE, launch(1, &global, &local));
  EXPECT_TRUE(noted("local size x = 2048; a workgroup holds at most 1024 work-items"));
  // Work-group size: more work-items than CL_DEVICE_MAX_WORK_GROUP_SIZE.
  const size_t global2[2] = {32, 64}, local2[2] = {32, 64};
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, launch(2, global2, local2));
  EXPECT_TRUE(noted("a workgroup of 64 warps needs more than the 32 warp slots of an SM"));
  // A local size that does not divide the global size.
  global = 96, local = 64;
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE, launch(1, &global, &local));
  EXPECT_TRUE(noted("global size x = 96 is not a multiple of local size x = 64"));
  // The grid: more workgroups than the device numbers.
  const size_t huge[2] = {size_t{1} << 31, size_t{1} << 31}, one[2] = {1, 1};
  EXPECT_CL(CL_OUT_OF_RESOURCES, launch(2, huge, one));
  EXPECT_TRUE(noted("has more than 2^32 - 1 workgroups"));
}

// ---- many queues ----

// Queues share a bounded pool of threads (there was one thread per queue), and in-order
// semantics hold on each.
TEST_F(QueuePool, ThousandQueues) {
  constexpr int kQueues = 1000;
  cl_int e = CL_SUCCESS;
  const size_t threads_before = thread_count();
  const auto start = std::chrono::steady_clock::now();
  std::vector<cl_command_queue> queues;
  std::vector<cl_mem> buffers;
  std::vector<std::vector<cl_int>> results(kQueues, std::vector<cl_int>(2, 0));
  // What the non-blocking writes read, until they have run.
  std::vector<std::vector<cl_int>> written(kQueues);
  for (int i = 0; i < kQueues; ++i) {
    queues.push_back(clCreateCommandQueue(context_, device(), 0, &e));
    ASSERT_OK(e);
    buffers.push_back(clCreateBuffer(context_, 0, 8, nullptr, &e));
    ASSERT_OK(e);
    written[i] = {i, -i, 3 * i};
    // In order: the second write lands after the first, the read after both.
    ASSERT_OK(clEnqueueWriteBuffer(queues[i], buffers[i], CL_FALSE, 0, 8, &written[i][0], 0,
                                   nullptr, nullptr));
    ASSERT_OK(clEnqueueWriteBuffer(queues[i], buffers[i], CL_FALSE, 4, 4, &written[i][2], 0,
                                   nullptr, nullptr));
    ASSERT_OK(clEnqueueReadBuffer(queues[i], buffers[i], CL_FALSE, 0, 8, results[i].data(), 0,
                                  nullptr, nullptr));
    ASSERT_OK(clFlush(queues[i]));
  }
  const size_t threads_during = thread_count();
  for (cl_command_queue q : queues) ASSERT_OK(clFinish(q));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("threads_added", std::to_string(threads_during - threads_before));
  RecordProperty("seconds", std::to_string(seconds));
  EXPECT_LT(threads_during, threads_before + 64) << "threads grow with the number of queues";
  for (int i = 0; i < kQueues; ++i) ASSERT_EQ(results[i], (std::vector<cl_int>{i, 3 * i})) << i;
  for (int i = 0; i < kQueues; ++i) {
    EXPECT_OK(clReleaseMemObject(buffers[i]));
    EXPECT_OK(clReleaseCommandQueue(queues[i]));
  }
}

}  // namespace
}  // namespace clapi
