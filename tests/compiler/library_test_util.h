// The builtin library on pocl (the host's reference OpenCL implementation): the library's
// OpenCL C sources are compiled there with -DVT_POCL_TEST, which puts every OpenCL-named
// function under the prefix vtcl_ (pocl's own builtins keep their names) and leaves the
// scalar cores as vt_*. Tests generate kernels that call them and compare the results
// with host reference code.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ventus::libtest {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Expands `#include "..."` (relative to the including file, then the library directory)
// so that the program source handed to pocl is self-contained: pocl caches compiled
// programs by their source text, which then covers every included file. Each file is
// included once (the library's headers are #pragma once).
inline void expand_includes(const std::filesystem::path& file, const std::filesystem::path& lib,
                            std::set<std::string>& seen, std::string& out) {
  auto canonical = std::filesystem::weakly_canonical(file).string();
  if (!seen.insert(canonical).second) return;
  std::istringstream in(read_text(file));
  std::string line;
  while (std::getline(in, line)) {
    auto p = line.find_first_not_of(" \t");
    if (p != std::string::npos && line.compare(p, 8, "#include") == 0) {
      auto q1 = line.find('"', p), q2 = line.rfind('"');
      if (q1 != std::string::npos && q2 > q1) {
        std::string name = line.substr(q1 + 1, q2 - q1 - 1);
        if (name == "ventus_intrinsics.h") continue;  // not used on pocl
        auto local = file.parent_path() / name;
        expand_includes(std::filesystem::exists(local) ? local : lib / name, lib, seen, out);
        continue;
      }
    }
    if (p != std::string::npos && line.compare(p, 12, "#pragma once") == 0) continue;
    out += line;
    out += '\n';
  }
}

// The library's source files named relative to its directory, expanded into one text.
inline std::string library_source(const std::vector<std::string>& files) {
  std::filesystem::path lib = VENTUS_COMPILER_LIB_DIR;
  std::set<std::string> seen;
  std::string out;
  for (const auto& f : files) expand_includes(lib / f, lib, seen, out);
  return out;
}

// One pocl context with one program; Skip() reasons are in `skip`.
class Pocl {
 public:
  std::string skip;

  explicit Pocl(const std::string& source) {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) {
      skip = "no OpenCL platform (install pocl-opencl-icd)";
      return;
    }
    std::vector<cl_platform_id> platforms(n);
    clGetPlatformIDs(n, platforms.data(), nullptr);
    for (auto p : platforms) {
      char name[256] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::strstr(name, "Portable Computing Language") || std::strstr(name, "PoCL")) {
        platform_ = p;
        break;
      }
    }
    if (!platform_) {
      skip = "no pocl platform among the OpenCL platforms (install pocl-opencl-icd)";
      return;
    }
    if (clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr) != CL_SUCCESS) {
      skip = "pocl has no device";
      return;
    }
    cl_int err;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    queue_ = clCreateCommandQueue(context_, device_, 0, &err);
    const char* text = source.c_str();
    program_ = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
    err = clBuildProgram(program_, 1, &device_,
                         "-DVT_POCL_TEST -cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt",
                         nullptr, nullptr);
    if (err != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      build_error = "pocl could not build the library (" + std::to_string(err) + "):\n" + log;
    }
  }
  ~Pocl() {
    for (auto& [name, k] : kernels_) clReleaseKernel(k);
    if (program_) clReleaseProgram(program_);
    if (queue_) clReleaseCommandQueue(queue_);
    if (context_) clReleaseContext(context_);
  }
  Pocl(const Pocl&) = delete;
  Pocl& operator=(const Pocl&) = delete;

  std::string build_error;

  // A buffer argument: host data copied in, and out after the launch when `out`.
  struct Arg {
    void* data;
    size_t bytes;
    bool out;
    bool is_buffer;
    int32_t value;
  };
  template <class T>
  static Arg in(const std::vector<T>& v) {
    return {const_cast<T*>(v.data()), v.size() * sizeof(T), false, true, 0};
  }
  template <class T>
  static Arg out(std::vector<T>& v) {
    return {v.data(), v.size() * sizeof(T), true, true, 0};
  }
  static Arg scalar(int32_t v) { return {nullptr, 0, false, false, v}; }

  // Runs kernel `name` over `n` work-items (n a multiple of 64).
  void run(const std::string& name, size_t n, const std::vector<Arg>& args) {
    cl_int err;
    auto it = kernels_.find(name);
    if (it == kernels_.end()) {
      cl_kernel k = clCreateKernel(program_, name.c_str(), &err);
      ASSERT_EQ(err, CL_SUCCESS) << "kernel " << name;
      it = kernels_.emplace(name, k).first;
    }
    std::vector<cl_mem> buffers;
    for (size_t i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      if (a.is_buffer) {
        cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  a.bytes ? a.bytes : 4, a.data, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        buffers.push_back(m);
        clSetKernelArg(it->second, i, sizeof(cl_mem), &m);
      } else {
        buffers.push_back(nullptr);
        clSetKernelArg(it->second, i, sizeof(int32_t), &a.value);
      }
    }
    size_t local = 64;
    err = clEnqueueNDRangeKernel(queue_, it->second, 1, nullptr, &n, &local, 0, nullptr, nullptr);
    ASSERT_EQ(err, CL_SUCCESS) << "launch of " << name;
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].is_buffer && args[i].out)
        clEnqueueReadBuffer(queue_, buffers[i], CL_TRUE, 0, args[i].bytes, args[i].data, 0, nullptr,
                            nullptr);
    clFinish(queue_);
    for (auto m : buffers)
      if (m) clReleaseMemObject(m);
  }

 private:
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  std::map<std::string, cl_kernel> kernels_;
};

// Float bits.
inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace ventus::libtest
