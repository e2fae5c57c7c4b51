// Shared helpers of the OpenCL API conformance tests (docs/opencl-tests.md, "API conformance
// tests"). The tests call the OpenCL 1.2 API through the ICD loader; the process's
// OCL_ICD_VENDORS names one platform (Ventus under ctest; pocl when a developer checks a
// reading of the specification against it).
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace clapi {

const char* error_name(cl_int code);

// A return code that gtest prints by name: EXPECT_EQ(Code(CL_INVALID_VALUE), Code(call)).
struct Code {
  cl_int value;
  explicit Code(cl_int v) : value(v) {}
  bool operator==(const Code& other) const { return value == other.value; }
};
inline void PrintTo(const Code& c, std::ostream* os) {
  *os << error_name(c.value) << " (" << c.value << ")";
}

#define EXPECT_CL(expected, call) EXPECT_EQ(::clapi::Code(expected), ::clapi::Code(call)) << #call
#define ASSERT_CL(expected, call) ASSERT_EQ(::clapi::Code(expected), ::clapi::Code(call)) << #call
#define ASSERT_OK(call) ASSERT_CL(CL_SUCCESS, call)
#define EXPECT_OK(call) EXPECT_CL(CL_SUCCESS, call)

// The one platform and device of the process (the first ones the loader lists).
cl_platform_id platform();
cl_device_id device();
// The platform under test is Ventus (ctest); otherwise a reference platform (pocl) on
// which the Ventus-only expectations (its name, the simulator's fault handling) are skipped.
bool is_ventus();

std::string platform_string(cl_platform_id p, cl_platform_info what);
std::string device_string(cl_device_id d, cl_device_info what);
template <typename T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  EXPECT_OK(clGetDeviceInfo(d, what, sizeof v, &v, nullptr));
  return v;
}
size_t device_max_work_group_size();
cl_uint device_base_addr_align_bytes();

// What a context's pfn_notify received (the tests check that faults are reported).
struct Notifications {
  std::mutex mutex;
  std::vector<std::string> messages;
  size_t count() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
};
void CL_CALLBACK record_notification(const char* errinfo, const void* private_info, size_t cb,
                                     void* user_data);

// Waits up to `timeout` for `done()` (callbacks run asynchronously: the specification does not
// order them with clFinish).
template <typename F>
bool wait_until(F done, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  auto end = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

cl_int event_status(cl_event e);
cl_uint reference_count(cl_context c);
cl_uint reference_count(cl_mem m);

// A context on the device with a recording pfn_notify, and an in-order queue.
class ClTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A program built from `source` with `options`; fails the test when the build fails.
  cl_program build(const std::string& source, const char* options = "");
  cl_kernel kernel(cl_program program, const char* name);
  cl_mem buffer(cl_mem_flags flags, size_t size, void* host_ptr = nullptr);
  std::vector<cl_int> read_ints(cl_mem buf, size_t count, cl_command_queue q = nullptr);
  void write_ints(cl_mem buf, const std::vector<cl_int>& values);
  std::string build_log(cl_program program);

  Notifications notes_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  // Objects released by TearDown (the tests release their own ones where release is the
  // subject).
  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> mems_;
};

// Kernels used by several files: `add_one` adds 1 to each element, `ids` writes
// global id + bias.
extern const char* const kSimpleKernels;

}  // namespace clapi
