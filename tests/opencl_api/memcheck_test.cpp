// VENTUS_MEMCHECK=1 (docs/opencl.md, "Memory checking"): a kernel that reads or writes
// outside its buffers or its workgroup's local memory fails its event (clWaitForEvents
// reports it), and the context's pfn_notify receives every invalid access with kernel,
// work-item, pc and the buffer it missed; correct kernels run as without the checker.
// ctest runs this suite with VENTUS_MEMCHECK=1.
#include <cstdlib>
#include <regex>

#include "common.h"

namespace clapi {
namespace {

constexpr const char* kKernels = R"(
__kernel void shifted_copy(__global const int* in, __global int* out, int shift) {
  int i = get_global_id(0);
  out[i + shift] = in[i] + 1;
}
__kernel void read_before(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  out[i] = in[i - 1];
}
__kernel void local_overflow(__global int* out) {
  __local int tile[32];
  int l = get_local_id(0);
  tile[l + 1] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
)";

class Memcheck : public ClTest {
 protected:
  void SetUp() override {
    const char* setting = std::getenv("VENTUS_MEMCHECK");
    if (!is_ventus() || setting == nullptr || std::string(setting) != "1")
      GTEST_SKIP() << "needs the Ventus platform and VENTUS_MEMCHECK=1 (set by ctest)";
    ClTest::SetUp();
  }
  // Runs `k` over `global` work-items in workgroups of `local`; the event's final status.
  cl_int run(cl_kernel k, size_t global, size_t local) {
    cl_event done = nullptr;
    EXPECT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &done));
    const cl_int waited = clWaitForEvents(1, &done);
    const cl_int status = event_status(done);
    EXPECT_OK(clReleaseEvent(done));
    if (status < 0) {
      EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, waited);
    }
    return status;
  }
  std::string notified() {
    std::lock_guard lock(notes_.mutex);
    std::string all;
    for (const std::string& m : notes_.messages) all += m + "\n";
    return all;
  }
};

// 64 work-items copy into a 64-int buffer shifted by one: work-item 63 writes the 4 bytes
// after it.
TEST_F(Memcheck, WritePastTheEndFailsTheEventAndNotifies) {
  cl_kernel k = kernel(build(kKernels), "shifted_copy");
  cl_mem in = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  const cl_int shift = 1;
  ASSERT_OK(clSetKernelArg(k, 0, sizeof in, &in));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof out, &out));
  ASSERT_OK(clSetKernelArg(k, 2, sizeof shift, &shift));
  EXPECT_CL(CL_OUT_OF_RESOURCES, run(k, 64, 32));
  const std::string text = notified();
  EXPECT_TRUE(std::regex_search(
      text, std::regex(R"(kernel 'shifted_copy' workgroup \(1,0,0\) warp 0 \(SM [0-9]+\) pc )"
                       R"(0x[0-9a-f]{8} \[[0-9a-f]{8} [^\]]+\]: memcheck: invalid global write )"
                       R"(of 4 bytes at 0x[0-9a-f]{8} by work-item \(63,0,0\) \(thread 31 of )"
                       R"(warp 0, local \(31,0,0\)\): 0 bytes after the end of the 256-byte )"
                       R"(allocation at 0x[0-9a-f]{8})")))
      << text;
  // The same work with shift 0 is correct: nothing more is reported.
  const size_t before = notes_.count();
  const cl_int no_shift = 0;
  ASSERT_OK(clSetKernelArg(k, 2, sizeof no_shift, &no_shift));
  EXPECT_CL(CL_COMPLETE, run(k, 64, 32));
  EXPECT_EQ(notes_.count(), before) << notified();
}

TEST_F(Memcheck, ReadBeforeTheStart) {
  cl_kernel k = kernel(build(kKernels), "read_before");
  cl_mem in = buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
  cl_mem out = buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof in, &in));
  ASSERT_OK(clSetKernelArg(k, 1, sizeof out, &out));
  EXPECT_CL(CL_OUT_OF_RESOURCES, run(k, 16, 16));
  const std::string text = notified();
  EXPECT_NE(text.find("memcheck: invalid global read of 4 bytes at"), std::string::npos) << text;
  EXPECT_NE(text.find(" by work-item (0,0,0) (thread 0 of warp 0, local (0,0,0)): 4 bytes "
                      "before the start of the 64-byte allocation at"),
            std::string::npos)
      << text;
}

// 32 work-items shift a 32-int __local tile by one: work-item 31 writes past the
// workgroup's local memory (the warps' stacks, then the tile).
TEST_F(Memcheck, LocalMemoryOverflow) {
  cl_kernel k = kernel(build(kKernels), "local_overflow");
  cl_mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_OK(clSetKernelArg(k, 0, sizeof out, &out));
  EXPECT_CL(CL_OUT_OF_RESOURCES, run(k, 64, 32));
  const std::string text = notified();
  EXPECT_TRUE(std::regex_search(
      text, std::regex(R"(memcheck: invalid local write of 4 bytes at 0x7[0-9a-f]{7} by )"
                       R"(work-item \(31,0,0\) \(thread 31 of warp 0, local \(31,0,0\)\): 0 )"
                       R"(bytes after the end of the workgroup's [0-9]+-byte local memory)")))
      << text;
  // Both workgroups did it: two invalid accesses in all.
  EXPECT_NE(text.find("; 2 invalid accesses in all"), std::string::npos) << text;
}

}  // namespace
}  // namespace clapi
