// The cycle model under OpenCL (docs/opencl.md, "Timing"). ctest runs the suite Timing with
// VENTUS_TIMING=verilog-release and VENTUS_STATS_JSON set, and TimingRefused with a preset
// that does not exist; without those settings the tests skip.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "common.h"

namespace clapi {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

class Timing : public ClTest {
 protected:
  void SetUp() override {
    if (!is_ventus() || environment("VENTUS_TIMING") != "verilog-release" ||
        environment("VENTUS_STATS_JSON").empty())
      GTEST_SKIP() << "needs the Ventus platform, VENTUS_TIMING=verilog-release and "
                      "VENTUS_STATS_JSON (set by ctest)";
    ClTest::SetUp();
  }
  // The statistics file as the platform last wrote it.
  nlohmann::json stats() {
    std::ifstream in(environment("VENTUS_STATS_JSON"));
    return nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  }
  cl_ulong profile(cl_event e, cl_profiling_info what) {
    cl_ulong t = 0;
    EXPECT_OK(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr));
    return t;
  }
};

// Each kernel's END - START is its cycles at the clock, in ns; the queue's clock runs on.
TEST_F(Timing, ProfilingReportsSimulatedDeviceTime) {
  const cl_uint clock_mhz = device_value<cl_uint>(device(), CL_DEVICE_MAX_CLOCK_FREQUENCY);
  EXPECT_EQ(clock_mhz, 620u);  // verilog-release
  cl_int e = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(context_, device(), CL_QUEUE_PROFILING_ENABLE, &e);
  ASSERT_OK(e);
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  const size_t n = 256;
  cl_mem m = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
  write_ints(m, std::vector<cl_int>(n, 5));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));

  uint64_t launches = 0, total = 0;
  cl_ulong previous_end = 0;
  for (size_t global : {size_t{256}, size_t{64}}) {
    cl_event ev = nullptr;
    ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &ev));
    ASSERT_OK(clWaitForEvents(1, &ev));
    const nlohmann::json s = stats();
    const uint64_t cycles = s["last_launch"]["timing"]["cycles"].get<uint64_t>();
    EXPECT_GT(cycles, 0u);
    EXPECT_EQ(s["last_launch"]["kernel"], "add_one");
    if (launches != 0) {
      EXPECT_EQ(s["launches"].get<uint64_t>(), launches + 1) << s.dump(1);
      EXPECT_EQ(s["total"]["cycles"].get<uint64_t>(), total + cycles) << s.dump(1);
    }
    launches = s["launches"].get<uint64_t>();
    total = s["total"]["cycles"].get<uint64_t>();
    const cl_ulong queued = profile(ev, CL_PROFILING_COMMAND_QUEUED),
                   submitted = profile(ev, CL_PROFILING_COMMAND_SUBMIT),
                   start = profile(ev, CL_PROFILING_COMMAND_START),
                   end = profile(ev, CL_PROFILING_COMMAND_END);
    EXPECT_LE(queued, submitted);
    EXPECT_LE(submitted, start);
    EXPECT_EQ(end - start, static_cast<cl_ulong>(std::llround(cycles * 1000.0 / clock_mhz)))
        << cycles << " cycles at " << clock_mhz << " MHz";
    EXPECT_GE(start, previous_end);
    previous_end = end;
    EXPECT_OK(clReleaseEvent(ev));
  }
  // The 320 work-items each added one, twice for the first 64: the results of the functional
  // mode.
  const std::vector<cl_int> got = read_ints(m, n, q);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i < 64 ? 7 : 6) << i;
  // A command after the kernels starts no earlier than the last one ended.
  cl_event read = nullptr;
  cl_int value = 0;
  ASSERT_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof value, &value, 0, nullptr, &read));
  EXPECT_GE(profile(read, CL_PROFILING_COMMAND_START), previous_end);
  EXPECT_LE(profile(read, CL_PROFILING_COMMAND_START), profile(read, CL_PROFILING_COMMAND_END));
  EXPECT_OK(clReleaseEvent(read));
  EXPECT_OK(clReleaseCommandQueue(q));
}

// A VENTUS_TIMING that names no preset and no file: the device is not available, contexts are
// refused with CL_DEVICE_NOT_AVAILABLE and the reason (stderr, pfn_notify); no crash.
TEST(TimingRefused, BadSettingRefusesContexts) {
  if (!is_ventus() || environment("VENTUS_TIMING") != "no-such-preset")
    GTEST_SKIP() << "needs the Ventus platform and VENTUS_TIMING=no-such-preset (set by ctest)";
  EXPECT_EQ(device_value<cl_bool>(device(), CL_DEVICE_AVAILABLE), cl_bool{CL_FALSE});
  Notifications notes;
  cl_device_id d = device();
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 1, &d, record_notification, &notes, &err), nullptr);
  EXPECT_CL(CL_DEVICE_NOT_AVAILABLE, err);
  ASSERT_EQ(notes.count(), 1u);
  EXPECT_NE(notes.messages[0].find("VENTUS_TIMING=no-such-preset"), std::string::npos)
      << notes.messages[0];
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(nullptr, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err), nullptr);
  EXPECT_CL(CL_DEVICE_NOT_AVAILABLE, err);
}

}  // namespace
}  // namespace clapi
