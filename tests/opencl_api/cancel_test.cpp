// Kernels of a context the application has let go of are cancelled (docs/opencl.md,
// "Execution"): an endless kernel no longer holds the device for its whole instruction
// budget once its context, queues and events are released. ctest runs this suite with
// VENTUS_INSTRUCTION_BUDGET=0, where the kernel would otherwise run forever.
#include <cstdlib>

#include "common.h"

namespace clapi {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSpin = R"(
__kernel void spin(__global volatile int* p) {
  while (p[0] == 0) p[1]++;
}
)";

bool unlimited_budget() {
  const char* budget = std::getenv("VENTUS_INSTRUCTION_BUDGET");
  return budget != nullptr && std::string(budget) == "0";
}

// A context with an endless kernel running on its queue; the test releases what it wants.
struct Spinning {
  Notifications notes;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_event event = nullptr;

  bool cancelled() {
    std::lock_guard lock(notes.mutex);
    return !notes.messages.empty() &&
           notes.messages.back().find("launch cancelled by the host") != std::string::npos;
  }

  void start() {
    cl_int err = CL_SUCCESS;
    cl_device_id d = device();
    context = clCreateContext(nullptr, 1, &d, record_notification, &notes, &err);
    ASSERT_OK(err);
    queue = clCreateCommandQueue(context, d, 0, &err);
    ASSERT_OK(err);
    const char* source = kSpin;
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    ASSERT_OK(err);
    ASSERT_OK(clBuildProgram(program, 1, &d, nullptr, nullptr, nullptr));
    cl_kernel kernel = clCreateKernel(program, "spin", &err);
    ASSERT_OK(err);
    const cl_int zero[2] = {0, 0};
    cl_mem flag =
        clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof zero, const_cast<cl_int*>(zero), &err);
    ASSERT_OK(err);
    ASSERT_OK(clSetKernelArg(kernel, 0, sizeof flag, &flag));
    const size_t one = 1;
    ASSERT_OK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one, 0, nullptr, &event));
    ASSERT_TRUE(wait_until([&] { return event_status(event) == CL_RUNNING; }));
    EXPECT_OK(clReleaseKernel(kernel));
    EXPECT_OK(clReleaseProgram(program));
    EXPECT_OK(clReleaseMemObject(flag));
  }
};

// The device is free again at once: another context's blocking write (which waits for the
// device) completes within a second instead of after the endless kernel's budget.
void expect_device_free_soon() {
  cl_int err = CL_SUCCESS;
  cl_device_id d = device();
  cl_context other = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  ASSERT_OK(err);
  cl_command_queue q = clCreateCommandQueue(other, d, 0, &err);
  ASSERT_OK(err);
  cl_mem b = clCreateBuffer(other, CL_MEM_READ_WRITE, 4, nullptr, &err);
  ASSERT_OK(err);
  const cl_int value = 7;
  const auto start = Clock::now();
  EXPECT_OK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 4, &value, 0, nullptr, nullptr));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 1.0);
  EXPECT_OK(clReleaseMemObject(b));
  EXPECT_OK(clReleaseCommandQueue(q));
  EXPECT_OK(clReleaseContext(other));
}

TEST(Cancel, ReleasingTheContextQueueAndEventStopsTheKernel) {
  if (!is_ventus()) GTEST_SKIP() << "cancellation on release is the Ventus platform's rule";
  if (!unlimited_budget()) GTEST_SKIP() << "needs VENTUS_INSTRUCTION_BUDGET=0 (ctest sets it)";
  Spinning s;
  ASSERT_NO_FATAL_FAILURE(s.start());
  ::testing::internal::CaptureStderr();
  EXPECT_OK(clReleaseCommandQueue(s.queue));
  EXPECT_OK(clReleaseContext(s.context));
  EXPECT_OK(clReleaseEvent(s.event));
  const bool cancelled = wait_until([&] { return s.cancelled(); }, std::chrono::seconds(1));
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(cancelled);
  // The callback hears of it; stderr does not (nobody waits for the kernel any more).
  EXPECT_EQ(printed.find("cancelled"), std::string::npos) << printed;
  expect_device_free_soon();
}

// While the application holds a queue or an event of the context it may still wait for the
// kernel, which therefore goes on (as the specification says); the last release stops it.
TEST(Cancel, AHeldQueueOrEventKeepsTheKernelRunning) {
  if (!is_ventus()) GTEST_SKIP() << "cancellation on release is the Ventus platform's rule";
  if (!unlimited_budget()) GTEST_SKIP() << "needs VENTUS_INSTRUCTION_BUDGET=0 (ctest sets it)";
  Spinning s;
  ASSERT_NO_FATAL_FAILURE(s.start());
  EXPECT_OK(clReleaseContext(s.context));
  EXPECT_OK(clRetainCommandQueue(s.queue));
  EXPECT_OK(clReleaseCommandQueue(s.queue));
  EXPECT_OK(clReleaseCommandQueue(s.queue));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_CL(CL_RUNNING, event_status(s.event));  // the event is still held
  EXPECT_FALSE(s.cancelled());
  EXPECT_OK(clRetainEvent(s.event));
  EXPECT_OK(clReleaseEvent(s.event));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_CL(CL_RUNNING, event_status(s.event));
  EXPECT_OK(clReleaseEvent(s.event));
  EXPECT_TRUE(wait_until([&] { return s.cancelled(); }, std::chrono::seconds(1)));
  expect_device_free_soon();
}

}  // namespace
}  // namespace clapi
