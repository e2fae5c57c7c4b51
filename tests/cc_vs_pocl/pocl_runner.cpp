// The reference implementation: pocl's CPU device through the OpenCL 1.2 API.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "runner.h"
#include "ventus/error.h"

#if VENTUS_HAVE_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#endif

namespace ventus::clspec {

#if !VENTUS_HAVE_OPENCL

std::unique_ptr<Runner> make_pocl_runner(std::string* why) {
  if (why) *why = "the build found no OpenCL headers and ICD loader (ocl-icd-opencl-dev)";
  return nullptr;
}

#else

namespace {

const char* error_name(cl_int e) {
  switch (e) {
#define NAME(x) \
  case x:       \
    return #x;
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY) NAME(CL_BUILD_PROGRAM_FAILURE)
        NAME(CL_INVALID_VALUE) NAME(CL_INVALID_KERNEL_NAME) NAME(CL_INVALID_ARG_INDEX)
            NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_ARG_SIZE) NAME(CL_INVALID_KERNEL_ARGS)
                NAME(CL_INVALID_WORK_DIMENSION) NAME(CL_INVALID_WORK_GROUP_SIZE)
                    NAME(CL_INVALID_WORK_ITEM_SIZE) NAME(CL_INVALID_GLOBAL_OFFSET)
                        NAME(CL_INVALID_BUFFER_SIZE) NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
                            NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_BUILD_OPTIONS)
                                NAME(CL_INVALID_PROGRAM_EXECUTABLE)
#undef NAME
                                    case -1001 : return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "an OpenCL error";
  }
}

void ok(cl_int e, const std::string& what) {
  if (e != CL_SUCCESS)
    throw Error("pocl: " + what + ": " + error_name(e) + " (" + std::to_string(e) + ")");
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS) return "";
  std::string s(size, '\0');
  clGetPlatformInfo(p, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// Only pocl: the ICD loader reads OCL_ICD_VENDORS at its first use, so this runs before
// any OpenCL call. The kernel cache goes into the build tree instead of ~/.cache.
void prepare_environment() {
  static bool done = false;
  if (done) return;
  done = true;
#ifdef VENTUS_POCL_ICD_DIR
  if (std::filesystem::is_directory(VENTUS_POCL_ICD_DIR))
    setenv("OCL_ICD_VENDORS", VENTUS_POCL_ICD_DIR, 1);
#endif
#ifdef VENTUS_POCL_CACHE_DIR
  setenv("POCL_CACHE_DIR", VENTUS_POCL_CACHE_DIR, 0);
#endif
}

struct Kernel {
  std::string name;
  cl_kernel handle = nullptr;
};

class PoclRunner final : public Runner {
 public:
  PoclRunner(cl_platform_id platform, cl_device_id device) : device_(device) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     reinterpret_cast<cl_context_properties>(platform), 0};
    cl_int e = CL_SUCCESS;
    context_ = clCreateContext(props, 1, &device_, nullptr, nullptr, &e);
    ok(e, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_, 0, &e);
    ok(e, "clCreateCommandQueue");
    cl_uint align_bits = 0;
    ok(clGetDeviceInfo(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                       nullptr),
       "clGetDeviceInfo");
    guard_ = std::max<size_t>(guard_, align_bits / 8);
  }
  ~PoclRunner() override {
    release_program();
    if (queue_) clReleaseCommandQueue(queue_);
    if (context_) clReleaseContext(context_);
  }

  std::string name() const override { return "pocl"; }

  void compile(const Spec& spec, std::string_view source) override {
    release_program();
    cl_int e = CL_SUCCESS;
    const char* text = source.data();
    const size_t length = source.size();
    program_ = clCreateProgramWithSource(context_, 1, &text, &length, &e);
    ok(e, "clCreateProgramWithSource");
    std::string options = "-cl-std=CL1.2 -cl-kernel-arg-info";
    for (const std::string& o : spec.options) options += " " + o;
    e = clBuildProgram(program_, 1, &device_, options.c_str(), nullptr, nullptr);
    if (e != CL_SUCCESS) {
      size_t size = 0;
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      throw Error("pocl: " + spec.file + " does not build (" + error_name(e) + "):\n" + log);
    }
    for (const RunSpec& run : spec.runs) kernel(spec, run);
  }

  Buffers execute(const Spec& spec, size_t configuration, const Buffers& initial) override {
    // Each buffer is a sub-buffer between two guard zones of a larger one: a kernel (or a
    // spec) that writes outside its buffer is reported instead of corrupting the heap.
    std::vector<cl_mem> memory, parents;
    struct Release {
      std::vector<cl_mem>& m;
      ~Release() {
        for (cl_mem b : m) clReleaseMemObject(b);
      }
    } release_parents{parents}, release{memory};
    cl_int e = CL_SUCCESS;
    for (size_t i = 0; i < spec.buffers.size(); ++i) {
      std::vector<uint8_t> bytes(initial[i].size() + 2 * guard_, kGuardByte);
      std::copy(initial[i].begin(), initial[i].end(), bytes.begin() + guard_);
      parents.push_back(clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                       bytes.size(), bytes.data(), &e));
      ok(e, "clCreateBuffer " + spec.buffers[i].name);
      cl_buffer_region region{guard_, initial[i].size()};
      memory.push_back(clCreateSubBuffer(parents.back(), CL_MEM_READ_WRITE,
                                         CL_BUFFER_CREATE_TYPE_REGION, &region, &e));
      ok(e, "clCreateSubBuffer " + spec.buffers[i].name);
    }
    for (const Launch& launch : plan(spec, configuration)) {
      const RunSpec& run = *launch.run;
      cl_kernel k = kernel(spec, run);
      for (size_t a = 0; a < run.args.size(); ++a) {
        const ArgSpec& arg = run.args[a];
        const std::string what = "argument " + std::to_string(a) + " of " + run.kernel;
        switch (arg.kind) {
          case ArgSpec::Kind::buffer:
            ok(clSetKernelArg(k, a, sizeof(cl_mem), &memory[arg.buffer]), what);
            break;
          case ArgSpec::Kind::local:
            ok(clSetKernelArg(k, a, arg.local_bytes, nullptr), what);
            break;
          case ArgSpec::Kind::scalar: {
            const std::vector<uint8_t> bytes = arg.bytes(launch.iteration);
            ok(clSetKernelArg(k, a, bytes.size(), bytes.data()), what);
            break;
          }
        }
      }
      size_t global[3], local[3], offset[3];
      for (int d = 0; d < 3; ++d) {
        global[d] = launch.global.size[d];
        local[d] = launch.local.size[d];
        offset[d] = launch.offset.size[d];
      }
      ok(clEnqueueNDRangeKernel(queue_, k, launch.global.dims, offset, global, local, 0, nullptr,
                                nullptr),
         "launch " + launch.text());
      ok(clFinish(queue_), "launch " + launch.text());
    }
    Buffers out(spec.buffers.size());
    for (size_t i = 0; i < spec.buffers.size(); ++i) {
      std::vector<uint8_t> bytes(initial[i].size() + 2 * guard_);
      ok(clEnqueueReadBuffer(queue_, parents[i], CL_TRUE, 0, bytes.size(), bytes.data(), 0, nullptr,
                             nullptr),
         "read " + spec.buffers[i].name);
      for (size_t b = 0; b < bytes.size(); ++b) {
        if (b == guard_) b += initial[i].size();
        if (bytes[b] != kGuardByte)
          throw Error("pocl: " + spec.file + ": the kernels write outside buffer " +
                      spec.buffers[i].name + " (" + std::to_string(initial[i].size()) +
                      " bytes): byte " + std::to_string(static_cast<int64_t>(b) - guard_) +
                      " changed");
      }
      out[i].assign(bytes.begin() + guard_, bytes.begin() + guard_ + initial[i].size());
    }
    return out;
  }

 private:
  void release_program() {
    for (Kernel& k : kernels_) clReleaseKernel(k.handle);
    kernels_.clear();
    if (program_) clReleaseProgram(program_);
    program_ = nullptr;
  }

  // The kernel object of a run, created (and its arguments checked) on first use.
  cl_kernel kernel(const Spec& spec, const RunSpec& run) {
    for (const Kernel& k : kernels_)
      if (k.name == run.kernel) return k.handle;
    cl_int e = CL_SUCCESS;
    cl_kernel handle = clCreateKernel(program_, run.kernel.c_str(), &e);
    ok(e, spec.file + ":" + std::to_string(run.line) + ": kernel " + run.kernel);
    kernels_.push_back({run.kernel, handle});
    check_arguments(spec, run, handle);
    return handle;
  }

  std::string arg_string(cl_kernel k, cl_uint index, cl_kernel_arg_info what) {
    size_t size = 0;
    if (clGetKernelArgInfo(k, index, what, 0, nullptr, &size) != CL_SUCCESS) return "";
    std::string s(size, '\0');
    clGetKernelArgInfo(k, index, what, size, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
  }

  // The spec's arguments against the kernel's signature: their number, buffers to
  // __global/__constant pointers of the buffer's type, local:N to __local pointers.
  void check_arguments(const Spec& spec, const RunSpec& run, cl_kernel k) {
    const std::string where = spec.file + ":" + std::to_string(run.line) + ": " + run.kernel;
    cl_uint count = 0;
    ok(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr), where);
    if (count != run.args.size())
      throw Error(where + " takes " + std::to_string(count) + " arguments, the spec gives " +
                  std::to_string(run.args.size()));
    for (cl_uint a = 0; a < count; ++a) {
      const ArgSpec& arg = run.args[a];
      cl_kernel_arg_address_qualifier space = 0;
      ok(clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr),
         where);
      std::string type = arg_string(k, a, CL_KERNEL_ARG_TYPE_NAME);
      const std::string name = arg_string(k, a, CL_KERNEL_ARG_NAME);
      const std::string here =
          where + " argument " + std::to_string(a) + " '" + name + "' (" + type + ")";
      const bool pointer = !type.empty() && type.back() == '*';
      switch (arg.kind) {
        case ArgSpec::Kind::local:
          if (space != CL_KERNEL_ARG_ADDRESS_LOCAL) throw Error(here + " is not a __local pointer");
          break;
        case ArgSpec::Kind::buffer: {
          if (!pointer ||
              (space != CL_KERNEL_ARG_ADDRESS_GLOBAL && space != CL_KERNEL_ARG_ADDRESS_CONSTANT))
            throw Error(here + " is not a __global or __constant pointer");
          type.pop_back();
          // Buffers of structs or void: the spec's element type cannot be compared.
          const BufferSpec& b = spec.buffers[arg.buffer];
          if (parse_type(type) && *parse_type(type) != b.type)
            throw Error(here + " gets buffer '" + b.name + "' of " + b.type.name());
          break;
        }
        case ArgSpec::Kind::scalar:
          if (pointer) throw Error(here + " is a pointer, the spec gives " + arg.text());
          if (parse_type(type) && *parse_type(type) != arg.type)
            throw Error(here + " gets " + arg.text());
          break;
      }
    }
  }

  static constexpr uint8_t kGuardByte = 0xa5;
  size_t guard_ = 4096;  // a multiple of the device's sub-buffer alignment
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  std::vector<Kernel> kernels_;
};

}  // namespace

std::unique_ptr<Runner> make_pocl_runner(std::string* why) {
  prepare_environment();
  cl_uint count = 0;
  cl_int e = clGetPlatformIDs(0, nullptr, &count);
  if (e != CL_SUCCESS || count == 0) {
    if (why)
      *why = std::string("no OpenCL platform (") + error_name(e) +
             "): install pocl-opencl-icd (scripts/setup.sh)";
    return nullptr;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  std::string seen;
  for (cl_platform_id p : platforms) {
    const std::string name = platform_string(p, CL_PLATFORM_NAME);
    seen += (seen.empty() ? "" : ", ") + name;
    if (name != "Portable Computing Language") continue;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) continue;
    return std::make_unique<PoclRunner>(p, device);
  }
  if (why) *why = "no pocl platform among the OpenCL platforms (" + seen + ")";
  return nullptr;
}

#endif

Buffers initial_buffers(const Spec& spec) {
  Buffers out;
  for (const BufferSpec& b : spec.buffers) out.push_back(initial_contents(b));
  return out;
}

std::vector<Buffers> run_all(const Spec& spec, std::string_view source, Runner& runner) {
  runner.compile(spec, source);
  std::vector<Buffers> out;
  for (size_t c = 0; c < spec.configurations(); ++c)
    out.push_back(runner.execute(spec, c, initial_buffers(spec)));
  return out;
}

std::string vacuous_checks(const Spec& spec, const std::vector<Buffers>& reference) {
  const Buffers initial = initial_buffers(spec);
  std::string report;
  for (const CheckSpec& check : spec.checks) {
    bool changed = false;
    for (const Buffers& result : reference)
      changed |= result[check.buffer] != initial[check.buffer];
    if (!changed)
      report += spec.file + ":" + std::to_string(check.line) + ": the kernels leave buffer " +
                spec.buffers[check.buffer].name + " as initialised: this check cannot fail\n";
  }
  return report;
}

std::string compare_results(const Spec& spec, const std::vector<Buffers>& reference,
                            const std::vector<Buffers>& tested, std::string_view reference_name,
                            std::string_view tested_name) {
  std::string report;
  for (size_t c = 0; c < spec.configurations(); ++c) {
    for (const CheckSpec& check : spec.checks) {
      const BufferSpec& b = spec.buffers[check.buffer];
      const Comparison cmp = compare(check, b, reference[c][check.buffer], tested[c][check.buffer],
                                     reference_name, tested_name);
      if (!cmp.mismatches) continue;
      report += spec.file + ":" + std::to_string(check.line) + ": buffer " + b.name + " (" +
                b.type.name() + "[" + std::to_string(b.count) + "], " + check.text() + ")";
      if (!spec.ranges.empty()) report += " with " + spec.ranges[c].text();
      report += ": " + std::to_string(cmp.mismatches) + " of " + std::to_string(cmp.compared) +
                " values differ\n" + cmp.report;
    }
  }
  return report;
}

std::string compare_runs(const Spec& spec, std::string_view source, Runner& reference,
                         Runner& tested) {
  const std::vector<Buffers> expected = run_all(spec, source, reference);
  const std::vector<Buffers> actual = run_all(spec, source, tested);
  return vacuous_checks(spec, expected) +
         compare_results(spec, expected, actual, reference.name(), tested.name());
}

}  // namespace ventus::clspec
