// VENTUS_PROGRESS=N (docs/opencl.md, "Environment"): a launch that runs longer than N seconds
// reports its progress on stderr every N seconds. ctest runs this suite with
// VENTUS_PROGRESS=1 and no instruction budget.
#include <cstdlib>
#include <regex>

#include "common.h"

namespace clapi {
namespace {

constexpr const char* kCount = R"(
__kernel void count(__global uint* out, uint n) {
  uint acc = 0;
  for (uint i = 0; i < n; ++i) acc = acc * 3u + i;
  out[0] = acc;
}
)";

TEST(Progress, LongLaunchesReportOnStderr) {
  const char* setting = std::getenv("VENTUS_PROGRESS");
  if (!is_ventus() || setting == nullptr || std::string(setting) != "1")
    GTEST_SKIP() << "needs the Ventus platform and VENTUS_PROGRESS=1 (set by ctest)";
  cl_int err = CL_SUCCESS;
  cl_device_id d = device();
  cl_context context = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  ASSERT_OK(err);
  cl_command_queue queue = clCreateCommandQueue(context, d, 0, &err);
  ASSERT_OK(err);
  const char* source = kCount;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_OK(err);
  ASSERT_OK(clBuildProgram(program, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "count", &err);
  ASSERT_OK(err);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &err);
  ASSERT_OK(err);
  ASSERT_OK(clSetKernelArg(kernel, 0, sizeof out, &out));

  // Longer launches until one runs past 1.5 s, so at least one report is due whatever the
  // host's speed (a sanitizer build is slower).
  testing::internal::CaptureStderr();
  double seconds = 0;
  for (cl_uint n = 1u << 22; seconds < 1.5 && n != 0; n <<= 1) {
    ASSERT_OK(clSetKernelArg(kernel, 1, sizeof n, &n));
    const auto start = std::chrono::steady_clock::now();
    const size_t one = 1;
    ASSERT_OK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr));
    ASSERT_OK(clFinish(queue));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_GE(seconds, 1.5);
  EXPECT_TRUE(std::regex_search(
      printed, std::regex(R"(\[Ventus OpenCL\] kernel 'count': [0-9]+ s, [0-9.]+ M )"
                          R"(warp-instructions, 0 of 1 workgroups done\n)")))
      << printed;

  EXPECT_OK(clReleaseMemObject(out));
  EXPECT_OK(clReleaseKernel(kernel));
  EXPECT_OK(clReleaseProgram(program));
  EXPECT_OK(clReleaseCommandQueue(queue));
  EXPECT_OK(clReleaseContext(context));
}

}  // namespace
}  // namespace clapi
