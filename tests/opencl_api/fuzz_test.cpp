// Random and corrupted input to the Ventus platform's parsers: build options, program
// sources and program binaries. Each call must return one of the codes the specification
// allows for it, never crash or hang (run under the sanitizers in CI).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

class Fuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(clGetPlatformIDs(1, &platform_, nullptr), CL_SUCCESS);
    ASSERT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr), CL_SUCCESS);
    cl_int status = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
  }
  void TearDown() override {
    if (context_) clReleaseContext(context_);
  }
  cl_program source_program(const std::string& text) {
    const char* p = text.c_str();
    const size_t length = text.size();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &p, &length, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return program;
  }
  std::string build_log(cl_program program) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return log;
  }
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
};

constexpr char kKernel[] = "kernel void k(global int* a, int b) { a[get_global_id(0)] = b; }\n";

TEST_F(Fuzz, BuildOptions) {
  static const char* kPieces[] = {"-D", "-I", "-DX", "-DX=1", "-D X", "-cl-std=CL1.2", "-cl-std=",
                                  "-cl-std=CL9", "-O2", "-O7", "-w", "-Werror", "-cl-mad-enable",
                                  "-cl-fast-relaxed-math", "\"", "'", "\\", "=", " ", "  ", "\t",
                                  "x", "-", "--", "-cl-", "-g", "-cl-opt-disable", "\xff", "-I/"};
  std::mt19937 random(1234);
  cl_program program = source_program(kKernel);
  int built = 0, rejected = 0;
  for (int i = 0; i < 150; ++i) {
    std::string options;
    const int pieces = static_cast<int>(random() % 5);
    for (int p = 0; p < pieces; ++p) options += kPieces[random() % std::size(kPieces)];
    const cl_int status = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    ASSERT_TRUE(status == CL_SUCCESS || status == CL_INVALID_BUILD_OPTIONS ||
                status == CL_BUILD_PROGRAM_FAILURE)
        << "options '" << options << "': " << status;
    if (status == CL_SUCCESS) {
      ++built;
      cl_kernel kernel = clCreateKernel(program, "k", nullptr);
      EXPECT_NE(kernel, nullptr) << options;
      if (kernel) clReleaseKernel(kernel);
    } else {
      ++rejected;
      EXPECT_FALSE(build_log(program).empty()) << "no reason for rejecting '" << options << "'";
    }
  }
  EXPECT_GT(built, 0);
  EXPECT_GT(rejected, 0);
  clReleaseProgram(program);
}

TEST_F(Fuzz, Sources) {
  static const char* kTokens[] = {"kernel", "void", "k", "(", ")", "{", "}", "global", "int", "*",
                                  "a", "[", "]", "=", ";", "get_global_id", "0", "1.5f", "for",
                                  "if", "barrier", "local", "\"", "#define", "\n", "/*", "long",
                                  "float4", ",", "+", "return", "__attribute__"};
  std::mt19937 random(99);
  for (int i = 0; i < 25; ++i) {
    std::string text;
    const int tokens = 1 + static_cast<int>(random() % 40);
    for (int t = 0; t < tokens; ++t) text += std::string(kTokens[random() % std::size(kTokens)]) + " ";
    cl_program program = source_program(text);
    const cl_int status = clBuildProgram(program, 1, &device_, nullptr, nullptr, nullptr);
    ASSERT_TRUE(status == CL_SUCCESS || status == CL_BUILD_PROGRAM_FAILURE) << text << ": " << status;
    if (status != CL_SUCCESS) {
      EXPECT_NE(build_log(program).find("error"), std::string::npos) << text;
    }
    clReleaseProgram(program);
  }
}

TEST_F(Fuzz, Binaries) {
  cl_program program = source_program(kKernel);
  ASSERT_EQ(clBuildProgram(program, 1, &device_, nullptr, nullptr, nullptr), CL_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> elf(size);
  unsigned char* destination = elf.data();
  ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof destination, &destination, nullptr),
            CL_SUCCESS);
  clReleaseProgram(program);

  std::mt19937 random(7);
  int accepted = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<unsigned char> bytes = elf;
    switch (i % 4) {
      case 0:  // flip a few bits
        for (int f = 0; f < 1 + i % 5; ++f) bytes[random() % bytes.size()] ^= 1u << (random() % 8);
        break;
      case 1:  // truncate
        bytes.resize(1 + random() % bytes.size());
        break;
      case 2:  // overwrite a run with random bytes
        for (size_t at = random() % bytes.size(), n = 0; n < 16 && at < bytes.size(); ++n, ++at)
          bytes[at] = static_cast<unsigned char>(random());
        break;
      default:  // random bytes, sometimes with the ELF magic
        for (unsigned char& b : bytes) b = static_cast<unsigned char>(random());
        if (i % 8 == 3) std::copy(elf.begin(), elf.begin() + 16, bytes.begin());
        break;
    }
    const unsigned char* p = bytes.data();
    const size_t length = bytes.size();
    cl_int binary_status = CL_SUCCESS, status = CL_SUCCESS;
    cl_program loaded =
        clCreateProgramWithBinary(context_, 1, &device_, &length, &p, &binary_status, &status);
    ASSERT_TRUE(status == CL_SUCCESS || status == CL_INVALID_BINARY) << "mutation " << i << ": " << status;
    if (status != CL_SUCCESS) {
      EXPECT_EQ(loaded, nullptr);
      EXPECT_EQ(binary_status, CL_INVALID_BINARY);
      continue;
    }
    ++accepted;
    const cl_int built = clBuildProgram(loaded, 1, &device_, nullptr, nullptr, nullptr);
    EXPECT_TRUE(built == CL_SUCCESS || built == CL_BUILD_PROGRAM_FAILURE) << built;
    cl_uint kernels = 0;
    const cl_int listed = clCreateKernelsInProgram(loaded, 0, nullptr, &kernels);
    EXPECT_TRUE(listed == CL_SUCCESS || listed == CL_INVALID_PROGRAM_EXECUTABLE) << listed;
    clReleaseProgram(loaded);
  }
  EXPECT_GT(accepted, 0);  // bit flips in unused bytes keep a valid program
}

}  // namespace
