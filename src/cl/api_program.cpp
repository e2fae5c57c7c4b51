// Programs (from source through the in-process compiler, from ELF binaries), kernels and
// their arguments, and kernel launches.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "build_options.h"
#include "commands.h"
#include "info.h"
#include "library.h"
#include "ventus/compiler.h"
#include "ventus/error.h"

namespace ventus::cl {
namespace {

std::vector<std::string> kernel_names(const rt::Program& program) {
  std::vector<std::string> names;
  for (const std::string& name : program.kernel_names())
    if (program.kernel_info(name) != nullptr) names.push_back(name);
  return names;
}

// Local data a launch of `kernel` needs beside the warps' stacks: its __local variables
// and the __local buffers of its arguments (rt::plan_launch's layout), saturated at 2^64 - 1.
uint64_t kernel_local_bytes(const Kernel& kernel) {
  uint64_t bytes = rt::align_local_data(kernel.info->local_bytes);
  for (const Kernel::Arg& a : kernel.args)
    if (a.type == Kernel::Arg::Type::local) {
      const uint64_t buffer = rt::align_local_data(a.local_bytes);
      bytes = bytes > UINT64_MAX - buffer ? UINT64_MAX : bytes + buffer;
    }
  return bytes;
}

// The launch options of every OpenCL launch: all the lanes of a warp.
rt::LaunchOptions launch_options() {
  rt::LaunchOptions options;
  options.threads_per_warp = the_device()->config.max_threads_per_warp;
  return options;
}

// The largest workgroup the kernel can run in (the device's rule, through the runtime).
size_t kernel_max_work_group_size(const Kernel& kernel) {
  return rt::max_work_group_size(the_device()->config, kernel.info, kernel_local_bytes(kernel),
                                 launch_options());
}

// CL_KERNEL_LOCAL_MEM_SIZE: what a workgroup of CL_KERNEL_WORK_GROUP_SIZE needs of
// CL_DEVICE_LOCAL_MEM_SIZE: the local data, and its warps' stacks beyond the start code's
// stacks of the largest workgroup, which CL_DEVICE_LOCAL_MEM_SIZE leaves out already. So
// it is at most CL_DEVICE_LOCAL_MEM_SIZE, and 0 more than the local data for the kernels
// with the start code's stacks.
uint64_t kernel_local_memory(const Kernel& kernel) {
  const uint64_t data = kernel_local_bytes(kernel);
  const uint64_t threads = the_device()->config.max_threads_per_warp;
  const uint64_t warps = (kernel_max_work_group_size(kernel) + threads - 1) / threads;
  const uint64_t stacks = uint64_t{kernel.info->stack_bytes} * warps;
  const uint64_t set_aside = the_device()->config.lds_bytes_per_sm - device_local_memory();
  const uint64_t beyond = stacks > set_aside ? stacks - set_aside : 0;
  return data > UINT64_MAX - beyond ? UINT64_MAX : data + beyond;
}

// The error code of clEnqueueNDRangeKernel (OpenCL 1.2, 5.8) for a refused launch.
cl_int launch_error_code(sim::LaunchLimit limit) {
  switch (limit) {
    case sim::LaunchLimit::work_dimensions: return CL_INVALID_WORK_DIMENSION;
    case sim::LaunchLimit::global_size: return CL_INVALID_GLOBAL_WORK_SIZE;
    // Not a divisor of the global size, not reqd_work_group_size, more work-items than
    // CL_DEVICE_MAX_WORK_GROUP_SIZE.
    case sim::LaunchLimit::local_size:
    case sim::LaunchLimit::work_group_size: return CL_INVALID_WORK_GROUP_SIZE;
    case sim::LaunchLimit::work_item_size: return CL_INVALID_WORK_ITEM_SIZE;
    case sim::LaunchLimit::arguments:
    case sim::LaunchLimit::argument_bytes: return CL_INVALID_KERNEL_ARGS;
    // "insufficient resources such as registers or local memory"; more workgroups than the
    // device can number.
    case sim::LaunchLimit::grid:
    case sim::LaunchLimit::threads_per_warp:
    case sim::LaunchLimit::scalar_registers:
    case sim::LaunchLimit::vector_registers:
    case sim::LaunchLimit::local_memory:
    case sim::LaunchLimit::private_memory: return CL_OUT_OF_RESOURCES;
  }
  return CL_OUT_OF_RESOURCES;
}

// The local size the runtime picks when the application passes none: per dimension the
// largest divisor of the global size that keeps the workgroup within `limit` work-items,
// dimension 0 first (consecutive work-items share a warp).
void choose_local_size(cl_uint dims, const size_t* global, size_t limit, size_t* local) {
  size_t room = std::max<size_t>(limit, 1);
  for (cl_uint d = 0; d < 3; ++d) local[d] = 1;
  for (cl_uint d = 0; d < dims; ++d) {
    size_t best = 1;
    for (size_t candidate = std::min(global[d], room); candidate > 1; --candidate)
      if (global[d] % candidate == 0) {
        best = candidate;
        break;
      }
    local[d] = best;
    room /= best;
  }
}

// A new published kernel; throws std::bad_alloc before it has changed anything.
Kernel* make_kernel(Program* program, const std::string& name) {
  // Before the first launch, which would otherwise spend it inside its own (profiled) time.
  ventus::sim::prepare_translation();
  auto kernel = std::make_unique<Kernel>();
  kernel->executable = program->executable;
  kernel->info = program->executable->kernel_info(name);
  kernel->args.resize(kernel->info->args.size());
  kernel->program = program;
  attach(program);
  program->kernels.fetch_add(1);
  publish(kernel.get());
  return kernel.release();
}

// One build at a time: the compiler's LLVM option state is process-wide.
std::mutex& compiler_lock() {
  static std::mutex lock;
  return lock;
}

// Makes a compile or link result the program's executable, or records its failure;
// false on failure (the log says why).
bool adopt_result(Program& program, cc::Result result) {
  program.build_log = result.diagnostics;
  if (result.ok) {
    try {
      program.executable = std::make_shared<const rt::Program>(rt::Program::from_elf_bytes(result.elf, "<program>"));
      program.binary = std::move(result.elf);
      program.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      program.build_status = CL_BUILD_SUCCESS;
      return true;
    } catch (const std::exception& e) {
      program.build_log += std::string("internal error: ") + e.what() + "\n";
    }
  }
  program.executable.reset();
  program.build_status = CL_BUILD_ERROR;
  return false;
}

// Links `objects` into `program`'s executable; false on errors.
bool link_into(Program& program, const std::vector<std::vector<uint8_t>>& objects,
               const cc::Options& options) {
  std::lock_guard compiling(compiler_lock());
  return adopt_result(program, cc::link(objects, options));
}

cl_int check_devices(cl_uint num_devices, const cl_device_id* device_list) {
  if ((num_devices == 0) != (device_list == nullptr)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!is_live(device_list[i], Kind::device)) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

// The checks clBuildProgram and clCompileProgram share.
cl_int check_build_call(const Program* program, cl_uint num_devices,
                        const cl_device_id* device_list,
                        void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  if (program == nullptr) return CL_INVALID_PROGRAM;
  if (cl_int s = check_devices(num_devices, device_list); s != CL_SUCCESS) return s;
  if (pfn_notify == nullptr && user_data != nullptr) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// Parses a build's options into `options` and records them; on bad options the build log
// says why and the build counts as failed (false).
bool take_build_options(Program& program, const char* text, cc::Options& options) {
  const std::string given = text ? text : "";
  if (std::string error = parse_build_options(given, options); !error.empty()) {
    program.build_log = error + "\n";
    program.build_status = CL_BUILD_ERROR;
    return false;
  }
  program.build_options = given;
  return true;
}

}  // namespace
}  // namespace ventus::cl

using namespace ventus::cl;
namespace rt = ventus::rt;
namespace cc = ventus::cc;

extern "C" {

// ---- programs ----

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context_handle,
                                                              cl_uint count, const char** strings,
                                                              const size_t* lengths,
                                                              cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (count == 0 || strings == nullptr) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  for (cl_uint i = 0; i < count; ++i)
    if (strings[i] == nullptr) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  Program* program = nullptr;
  try {
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      if (lengths == nullptr || lengths[i] == 0)
        source += strings[i];
      else
        source.append(strings[i], lengths[i]);
    }
    program = new Program;
    program->source = std::move(source);
  } catch (const std::exception&) {  // no exception may cross the C API
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
  program->context = context;
  attach(context);
  publish(program);
  set_error(errcode_ret, CL_SUCCESS);
  return program->handle();
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context_handle, cl_uint num_devices, const cl_device_id* device_list,
    const size_t* lengths, const unsigned char** binaries, cl_int* binary_status,
    cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (num_devices == 0 || device_list == nullptr) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!is_live(device_list[i], Kind::device)) return set_error(errcode_ret, CL_INVALID_DEVICE), nullptr;
  if (lengths == nullptr || binaries == nullptr) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (lengths[i] == 0 || binaries[i] == nullptr) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
    }
  // One device: the first binary is the program (further entries name the same device).
  std::vector<uint8_t> bytes;
  Program* program = nullptr;
  try {
    bytes.assign(binaries[0], binaries[0] + lengths[0]);
    program = new Program;
  } catch (const std::exception&) {  // no exception may cross the C API
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
  try {
    if (cc::is_object(bytes)) {
      program->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;  // clCompileProgram's
    } else if (unpack_library(bytes)) {
      program->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;  // clLinkProgram -create-library
    } else {
      program->executable = std::make_shared<const rt::Program>(rt::Program::from_elf_bytes(bytes, "<binary>"));
      program->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    }
  } catch (const std::exception&) {
    delete program;
    for (cl_uint i = 0; i < num_devices; ++i)
      if (binary_status) binary_status[i] = CL_INVALID_BINARY;
    return set_error(errcode_ret, CL_INVALID_BINARY), nullptr;
  }
  for (cl_uint i = 0; i < num_devices; ++i)
    if (binary_status) binary_status[i] = CL_SUCCESS;
  program->context = context;
  program->binary = std::move(bytes);
  program->from_binary = true;
  attach(context);
  publish(program);
  set_error(errcode_ret, CL_SUCCESS);
  return program->handle();
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context_handle, cl_uint num_devices, const cl_device_id* device_list,
    const char* kernel_names, cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (cl_int s = check_devices(num_devices, device_list); s != CL_SUCCESS || num_devices == 0)
    return set_error(errcode_ret, s != CL_SUCCESS ? s : CL_INVALID_VALUE), nullptr;
  // The device has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
  (void)kernel_names;
  return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void*, size_t,
                                                          cl_int* errcode_ret) {
  // No intermediate language is supported (OpenCL 2.1; CL_DEVICE_IL_VERSION would be empty).
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retain_handle(program, Kind::program, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return release_handle(program, Kind::program, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program_handle, cl_uint num_devices,
                                               const cl_device_id* device_list, const char* options,
                                               void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                               void* user_data) {
  Program* program = live<Program>(program_handle);
  if (cl_int s = check_build_call(program, num_devices, device_list, pfn_notify, user_data); s != CL_SUCCESS)
    return s;
  if (program->kernels.load() != 0) return CL_INVALID_OPERATION;
  cl_int status = CL_SUCCESS;
  {
    std::lock_guard guard(program->lock);
    cc::Options compile_options;
    compile_options.file_name = "<program source>";
    if (!take_build_options(*program, options, compile_options)) return CL_INVALID_BUILD_OPTIONS;
    if (program->from_binary && program->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
      program->build_status = CL_BUILD_SUCCESS;
      program->build_log.clear();
    } else if (program->from_binary) {
      // A compiled object or a library: linking it alone makes the executable.
      std::vector<std::vector<uint8_t>> objects = {program->binary};
      if (program->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) objects = *unpack_library(program->binary);
      status = link_into(*program, objects, compile_options) ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
    } else {
      std::lock_guard compiling(compiler_lock());
      if (!adopt_result(*program, cc::compile(program->source, compile_options))) {
        program->binary.clear();  // no stale executable from an earlier build
        program->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
        status = CL_BUILD_PROGRAM_FAILURE;
      }
    }
  }
  if (pfn_notify) pfn_notify(program_handle, user_data);
  return status;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program_handle, cl_uint num_devices,
                                                 const cl_device_id* device_list,
                                                 const char* options, cl_uint num_input_headers,
                                                 const cl_program* input_headers,
                                                 const char** header_include_names,
                                                 void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                 void* user_data) {
  Program* program = live<Program>(program_handle);
  if (cl_int s = check_build_call(program, num_devices, device_list, pfn_notify, user_data); s != CL_SUCCESS)
    return s;
  if ((num_input_headers == 0) != (input_headers == nullptr) ||
      (num_input_headers != 0 && header_include_names == nullptr))
    return CL_INVALID_VALUE;
  cc::Options compile_options;
  compile_options.file_name = "<program source>";
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    Program* header = live<Program>(input_headers[i]);
    if (header == nullptr) return CL_INVALID_PROGRAM;
    if (header_include_names[i] == nullptr) return CL_INVALID_VALUE;
    std::lock_guard guard(header->lock);
    compile_options.headers.emplace_back(header_include_names[i], header->source);
  }
  if (program->kernels.load() != 0) return CL_INVALID_OPERATION;
  cl_int status = CL_SUCCESS;
  {
    std::lock_guard guard(program->lock);
    if (program->from_binary) return CL_INVALID_OPERATION;  // nothing to compile
    if (!take_build_options(*program, options, compile_options)) return CL_INVALID_COMPILER_OPTIONS;
    cc::Object object;
    {
      std::lock_guard compiling(compiler_lock());
      object = cc::compile_object(program->source, compile_options);
    }
    program->build_log = object.diagnostics;
    program->executable.reset();
    if (object.ok) {
      program->binary = std::move(object.bitcode);
      program->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
      program->build_status = CL_BUILD_SUCCESS;
    } else {
      program->binary.clear();
      program->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
      program->build_status = CL_BUILD_ERROR;
      status = CL_COMPILE_PROGRAM_FAILURE;
    }
  }
  if (pfn_notify) pfn_notify(program_handle, user_data);
  return status;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context_handle, cl_uint num_devices,
                                                  const cl_device_id* device_list,
                                                  const char* options, cl_uint num_input_programs,
                                                  const cl_program* input_programs,
                                                  void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                                  void* user_data, cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (cl_int s = check_devices(num_devices, device_list); s != CL_SUCCESS)
    return set_error(errcode_ret, s), nullptr;
  if (num_input_programs == 0 || input_programs == nullptr ||
      (pfn_notify == nullptr && user_data != nullptr))
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  std::vector<std::vector<uint8_t>> objects;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    Program* input = live<Program>(input_programs[i]);
    if (input == nullptr) return set_error(errcode_ret, CL_INVALID_PROGRAM), nullptr;
    std::lock_guard guard(input->lock);
    if (input->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT) {
      objects.push_back(input->binary);
    } else if (input->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      std::optional<std::vector<std::vector<uint8_t>>> library = unpack_library(input->binary);
      for (std::vector<uint8_t>& object : *library) objects.push_back(std::move(object));
    } else {
      return set_error(errcode_ret, CL_INVALID_OPERATION), nullptr;
    }
  }
  const std::string text = options ? options : "";
  bool create_library = false;
  if (!parse_link_options(text, create_library).empty())
    return set_error(errcode_ret, CL_INVALID_LINKER_OPTIONS), nullptr;
  auto* program = new Program;
  program->context = context;
  program->build_options = text;
  attach(context);
  publish(program);
  bool linked = true;
  if (create_library) {
    // A library keeps its objects; linking it into a program resolves them.
    program->binary = pack_library(objects);
    program->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    program->build_status = CL_BUILD_SUCCESS;
  } else {
    cc::Options link_options;
    link_options.file_name = "<linked program>";
    linked = link_into(*program, objects, link_options);
  }
  if (pfn_notify) pfn_notify(program->handle(), user_data);
  set_error(errcode_ret, linked ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE);
  return program->handle();
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) {
  return CL_SUCCESS;
}
CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return platform == the_platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program_handle,
                                                 cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  Program* program = live<Program>(program_handle);
  if (program == nullptr) return CL_INVALID_PROGRAM;
  std::lock_guard guard(program->lock);
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: return info_value(n, v, r, reference_count(program));
    case CL_PROGRAM_CONTEXT: return info_value(n, v, r, program->context->handle());
    case CL_PROGRAM_NUM_DEVICES:
      return info_value(n, v, r, cl_uint{1});
    case CL_PROGRAM_DEVICES:
      return info_value(n, v, r, static_cast<cl_device_id>(the_device()));
    case CL_PROGRAM_SOURCE:
      return info_string(n, v, r, program->source);
    case CL_PROGRAM_BINARY_SIZES:
      return info_value(n, v, r, program->binary.size());
    case CL_PROGRAM_BINARIES: {
      // An array of one pointer (one device) to memory the application provides.
      if (v != nullptr) {
        if (n < sizeof(unsigned char*)) return CL_INVALID_VALUE;
        auto* destination = static_cast<unsigned char**>(v)[0];
        if (destination != nullptr && !program->binary.empty())
          std::memcpy(destination, program->binary.data(), program->binary.size());
      }
      if (r != nullptr) *r = sizeof(unsigned char*);
      return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
      if (!program->executable) return CL_INVALID_PROGRAM_EXECUTABLE;
      return info_value(n, v, r, kernel_names(*program->executable).size());
    case CL_PROGRAM_KERNEL_NAMES: {
      if (!program->executable) return CL_INVALID_PROGRAM_EXECUTABLE;
      return info_string(n, v, r, fmt::format("{}", fmt::join(kernel_names(*program->executable), ";")));
    }
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program_handle,
                                                      cl_device_id device,
                                                      cl_program_build_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) {
  Program* program = live<Program>(program_handle);
  if (program == nullptr) return CL_INVALID_PROGRAM;
  if (!is_live(device, Kind::device)) return CL_INVALID_DEVICE;
  std::lock_guard guard(program->lock);
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
      return info_value(n, v, r, program->build_status);
    case CL_PROGRAM_BUILD_OPTIONS:
      return info_string(n, v, r, program->build_options);
    case CL_PROGRAM_BUILD_LOG:
      return info_string(n, v, r, program->build_log);
    case CL_PROGRAM_BINARY_TYPE:
      return info_value(n, v, r, program->binary_type);
    default:
      return CL_INVALID_VALUE;
  }
}

// ---- kernels ----

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program_handle,
                                                  const char* kernel_name, cl_int* errcode_ret) {
  Program* program = live<Program>(program_handle);
  if (program == nullptr) return set_error(errcode_ret, CL_INVALID_PROGRAM), nullptr;
  std::lock_guard guard(program->lock);
  if (!program->executable || program->build_status != CL_BUILD_SUCCESS)
    return set_error(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE), nullptr;
  if (kernel_name == nullptr) return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  if (program->executable->kernel_info(kernel_name) == nullptr)
    return set_error(errcode_ret, CL_INVALID_KERNEL_NAME), nullptr;
  try {
    Kernel* kernel = make_kernel(program, kernel_name);
    set_error(errcode_ret, CL_SUCCESS);
    return kernel->handle();
  } catch (const std::bad_alloc&) {
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program_handle,
                                                         cl_uint num_kernels, cl_kernel* kernels,
                                                         cl_uint* num_kernels_ret) {
  Program* program = live<Program>(program_handle);
  if (program == nullptr) return CL_INVALID_PROGRAM;
  std::lock_guard guard(program->lock);
  if (!program->executable || program->build_status != CL_BUILD_SUCCESS)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const std::vector<std::string> names = kernel_names(*program->executable);
  if (kernels != nullptr && num_kernels < names.size()) return CL_INVALID_VALUE;
  if (kernels != nullptr) {
    std::vector<Kernel*> made;
    try {
      for (const std::string& name : names) made.push_back(make_kernel(program, name));
    } catch (const std::bad_alloc&) {
      for (Kernel* k : made) release_handle(k->handle(), Kind::kernel, CL_INVALID_KERNEL);
      return CL_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < made.size(); ++i) kernels[i] = made[i]->handle();
  }
  if (num_kernels_ret != nullptr) *num_kernels_ret = static_cast<cl_uint>(names.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel_handle,
                                                 cl_int* errcode_ret) {
  Kernel* source_kernel = live<Kernel>(source_kernel_handle);
  if (source_kernel == nullptr) return set_error(errcode_ret, CL_INVALID_KERNEL), nullptr;
  Kernel* kernel = nullptr;
  try {
    kernel = make_kernel(source_kernel->program, source_kernel->info->name);
    std::lock_guard guard(source_kernel->lock);
    kernel->args = source_kernel->args;
  } catch (const std::bad_alloc&) {
    if (kernel != nullptr) release_handle(kernel->handle(), Kind::kernel, CL_INVALID_KERNEL);
    return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
  set_error(errcode_ret, CL_SUCCESS);
  return kernel->handle();
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retain_handle(kernel, Kind::kernel, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return release_handle(kernel, Kind::kernel, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel_handle, cl_uint arg_index,
                                               size_t arg_size, const void* arg_value) {
  Kernel* kernel = live<Kernel>(kernel_handle);
  if (kernel == nullptr) return CL_INVALID_KERNEL;
  // A refusal also tells the context's pfn_notify which argument and why.
  auto refuse = [&](cl_int code, const std::string& why) {
    kernel->program->context->notify_callback_only(
        fmt::format("clSetKernelArg of {}, argument {}: {}", kernel->info->name, arg_index, why));
    return code;
  };
  if (arg_index >= kernel->info->args.size())
    return refuse(CL_INVALID_ARG_INDEX,
                  fmt::format("the kernel has {} arguments", kernel->info->args.size()));
  const rt::KernelArgInfo& expected = kernel->info->args[arg_index];
  Kernel::Arg arg;
  if (expected.address_space == rt::AddressSpace::local) {
    if (arg_value != nullptr)
      return refuse(CL_INVALID_ARG_VALUE, "a __local argument takes a NULL value");
    // Any size: one too large for the device is refused at launch (CL_OUT_OF_RESOURCES), as
    // the specification has it.
    if (arg_size == 0) return refuse(CL_INVALID_ARG_SIZE, "a __local argument needs a size");
    arg.type = Kernel::Arg::Type::local;
    arg.local_bytes = arg_size;
  } else if (expected.address_space != rt::AddressSpace::private_) {
    if (arg_size != sizeof(cl_mem))
      return refuse(CL_INVALID_ARG_SIZE,
                    fmt::format("a {} pointer takes sizeof(cl_mem) = {} bytes, not {}",
                                rt::to_string(expected.address_space), sizeof(cl_mem), arg_size));
    arg.type = Kernel::Arg::Type::mem;
    // A NULL value or a NULL cl_mem passes a NULL pointer.
    arg.mem = arg_value ? *static_cast<const cl_mem*>(arg_value) : nullptr;
    if (arg.mem != nullptr && !is_live(arg.mem, Kind::mem))
      return refuse(CL_INVALID_MEM_OBJECT, "not a live buffer (released, or not a cl_mem)");
  } else {
    if (arg_size != expected.size)
      return refuse(CL_INVALID_ARG_SIZE,
                    fmt::format("{} `{}` takes {} bytes, not {}", expected.type, expected.name,
                                expected.size, arg_size));
    if (arg_value == nullptr) return refuse(CL_INVALID_ARG_VALUE, "a value argument needs a value");
    arg.type = Kernel::Arg::Type::value;
    const auto* bytes = static_cast<const uint8_t*>(arg_value);
    arg.bytes.assign(bytes, bytes + arg_size);
  }
  std::lock_guard guard(kernel->lock);
  kernel->args[arg_index] = std::move(arg);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel_handle, cl_kernel_info param_name,
                                                size_t param_value_size, void* param_value,
                                                size_t* param_value_size_ret) {
  Kernel* kernel = live<Kernel>(kernel_handle);
  if (kernel == nullptr) return CL_INVALID_KERNEL;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
      return info_string(n, v, r, kernel->info->name);
    case CL_KERNEL_NUM_ARGS:
      return info_value(n, v, r, static_cast<cl_uint>(kernel->info->args.size()));
    case CL_KERNEL_REFERENCE_COUNT: return info_value(n, v, r, reference_count(kernel));
    case CL_KERNEL_CONTEXT: return info_value(n, v, r, kernel->program->context->handle());
    case CL_KERNEL_PROGRAM: return info_value(n, v, r, kernel->program->handle());
    case CL_KERNEL_ATTRIBUTES: return info_string(n, v, r, kernel->info->attributes);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel_handle, cl_uint arg_index,
                                                   cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void* param_value,
                                                   size_t* param_value_size_ret) {
  Kernel* kernel = live<Kernel>(kernel_handle);
  if (kernel == nullptr) return CL_INVALID_KERNEL;
  if (arg_index >= kernel->info->args.size()) return CL_INVALID_ARG_INDEX;
  const rt::KernelArgInfo& a = kernel->info->args[arg_index];
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
      cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
      switch (a.address_space) {
        case rt::AddressSpace::global: q = CL_KERNEL_ARG_ADDRESS_GLOBAL; break;
        case rt::AddressSpace::constant: q = CL_KERNEL_ARG_ADDRESS_CONSTANT; break;
        case rt::AddressSpace::local: q = CL_KERNEL_ARG_ADDRESS_LOCAL; break;
        case rt::AddressSpace::private_: break;
      }
      return info_value(n, v, r, q);
    }
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
      return info_value(n, v, r, cl_kernel_arg_access_qualifier{CL_KERNEL_ARG_ACCESS_NONE});
    case CL_KERNEL_ARG_TYPE_NAME:
      return info_string(n, v, r, a.type);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: {
      cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
      if (a.qualifiers.find("const") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_CONST;
      if (a.qualifiers.find("restrict") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
      if (a.qualifiers.find("volatile") != std::string::npos) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
      return info_value(n, v, r, q);
    }
    case CL_KERNEL_ARG_NAME:
      return info_string(n, v, r, a.name);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel_handle,
                                                         cl_device_id device,
                                                         cl_kernel_work_group_info param_name,
                                                         size_t param_value_size, void* param_value,
                                                         size_t* param_value_size_ret) {
  Kernel* kernel = live<Kernel>(kernel_handle);
  if (kernel == nullptr) return CL_INVALID_KERNEL;
  if (device != nullptr && !is_live(device, Kind::device)) return CL_INVALID_DEVICE;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  std::lock_guard guard(kernel->lock);
  switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
      return info_value(n, v, r, kernel_max_work_group_size(*kernel));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      const uint32_t* reqd = kernel->info->reqd_work_group_size;
      return info_array(n, v, r, std::vector<size_t>{reqd[0], reqd[1], reqd[2]});
    }
    case CL_KERNEL_LOCAL_MEM_SIZE:
      return info_value(n, v, r, static_cast<cl_ulong>(kernel_local_memory(*kernel)));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return info_value(n, v, r, size_t{the_device()->config.max_threads_per_warp});
    case CL_KERNEL_PRIVATE_MEM_SIZE:
      return info_value(n, v, r, cl_ulong{kernel->info->private_bytes});
    default:
      return CL_INVALID_VALUE;
  }
}

// ---- launches ----

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue queue_handle, cl_kernel kernel_handle, cl_uint work_dim,
    const size_t* global_work_offset, const size_t* global_work_size, const size_t* local_work_size,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Kernel* kernel = live<Kernel>(kernel_handle);
  if (kernel == nullptr) return CL_INVALID_KERNEL;
  if (kernel->program->context != queue->context) return CL_INVALID_CONTEXT;
  // A launch refused for the kernel's needs also tells the context's pfn_notify why.
  auto refuse = [&](cl_int code, const std::string& why) {
    queue->context->notify_callback_only(
        fmt::format("clEnqueueNDRangeKernel of {}: {}", kernel->info->name, why));
    return code;
  };
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (global_work_size == nullptr) return CL_INVALID_GLOBAL_WORK_SIZE;
  constexpr uint64_t kDeviceSizeLimit = uint64_t{1} << 32;  // the device's size_t is 32-bit
  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {1, 1, 1};
  for (cl_uint d = 0; d < work_dim; ++d) {
    global[d] = global_work_size[d];
    if (global[d] == 0 || global[d] >= kDeviceSizeLimit) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (global_work_offset) offset[d] = global_work_offset[d];
    if (offset[d] >= kDeviceSizeLimit || offset[d] + uint64_t{global[d]} > kDeviceSizeLimit)
      return CL_INVALID_GLOBAL_OFFSET;
  }
  std::vector<rt::Arg> args;
  std::vector<Ref<Mem>> buffers;
  size_t kernel_limit = 0;
  std::string bad_argument;  // why an argument cannot be passed (reported once unlocked)
  {
    std::lock_guard guard(kernel->lock);
    for (size_t i = 0; i < kernel->args.size() && bad_argument.empty(); ++i) {
      const Kernel::Arg& a = kernel->args[i];
      switch (a.type) {
        case Kernel::Arg::Type::unset:
          bad_argument = fmt::format("argument {} is not set", i);
          break;
        case Kernel::Arg::Type::value: args.push_back(rt::Arg::bytes(a.bytes)); break;
        case Kernel::Arg::Type::local: args.push_back(rt::Arg::local(a.local_bytes)); break;
        case Kernel::Arg::Type::mem: {
          if (a.mem == nullptr) {
            args.push_back(rt::Arg::raw(0));
            break;
          }
          // The buffer may have been released since clSetKernelArg.
          Mem* mem = live<Mem>(a.mem);
          if (mem == nullptr || mem->context != queue->context) {
            bad_argument =
                fmt::format("argument {} is a released buffer or one of another context", i);
            break;
          }
          args.push_back(rt::Arg::raw(mem->address));
          buffers.emplace_back(mem);
          break;
        }
      }
    }
    if (local_work_size == nullptr) kernel_limit = kernel_max_work_group_size(*kernel);
  }
  if (!bad_argument.empty()) return refuse(CL_INVALID_KERNEL_ARGS, bad_argument);
  if (local_work_size != nullptr) {
    for (cl_uint d = 0; d < work_dim; ++d) {
      local[d] = local_work_size[d];
      // Past the device's 32-bit sizes: more than CL_DEVICE_MAX_WORK_ITEM_SIZES.
      if (local[d] >= kDeviceSizeLimit)
        return refuse(CL_INVALID_WORK_ITEM_SIZE,
                      fmt::format("local size {} in dimension {}", local[d], d));
    }
  } else if (kernel->info->reqd_work_group_size[0] != 0) {
    // reqd_work_group_size: OpenCL 1.2 wants exactly that local size, given explicitly.
    return refuse(CL_INVALID_WORK_GROUP_SIZE,
                  "the kernel has a reqd_work_group_size: the local size must be given");
  } else {
    choose_local_size(work_dim, global, std::max<size_t>(kernel_limit, 1), local);
  }
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;

  auto range = [&](const size_t* s) {
    const auto x = static_cast<uint32_t>(s[0]), y = static_cast<uint32_t>(s[1]), z = static_cast<uint32_t>(s[2]);
    return work_dim == 1 ? rt::Range(x) : work_dim == 2 ? rt::Range(x, y) : rt::Range(x, y, z);
  };
  rt::LaunchOptions options = launch_options();
  for (int d = 0; d < 3; ++d) options.global_offset[d] = static_cast<uint32_t>(offset[d]);
  options.cancel = queue->context->kernel_cancel_token();
  // The launch is planned and checked here, once: a refusal is this call's error code and
  // the context's notification says which limit and by how much.
  std::shared_ptr<const rt::LaunchPlan> plan;
  try {
    plan = std::make_shared<const rt::LaunchPlan>(
        rt::plan_launch(the_device()->config, *kernel->executable, kernel->info->name,
                        range(global), range(local), args, options));
  } catch (const ventus::sim::LaunchRefused& e) {
    return refuse(launch_error_code(e.error().limit), e.what());
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (const std::exception& e) {
    return refuse(CL_OUT_OF_RESOURCES, e.what());
  }
  return submit(
      queue, CL_COMMAND_NDRANGE_KERNEL, num_events_in_wait_list, event_wait_list, event, false,
      [executable = kernel->executable, plan = std::move(plan), buffers = std::move(buffers),
       context = Ref<Context>(queue->context),
       abandoned = options.cancel](Event& event) -> cl_int {
        for (const Ref<Mem>& b : buffers) pull_host_memory(b.get());
        _cl_device_id* device = the_device();
        try {
          std::lock_guard guard(device->lock);
          rt::execute(*device->runtime, *executable, *plan);
          if (const auto timing = device->runtime->last_timing()) {
            const cl_ulong ns = record_timed_launch(*device, plan->device.kernel_name, *timing);
            std::lock_guard event_guard(event.lock);
            event.device_duration_ns = ns;
          }
        } catch (const std::exception& e) {
          if (abandoned.stop_requested())
            context->notify_callback_only(e.what());
          else
            context->report(e.what());
          return CL_OUT_OF_RESOURCES;
        }
        for (const Ref<Mem>& b : buffers) push_host_memory(b.get());
        return CL_COMPLETE;
      });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
  const size_t one = 1;
  return clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                                event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue queue, void(CL_CALLBACK*)(void*),
                                                      void*, size_t, cl_uint, const cl_mem*,
                                                      const void**, cl_uint, const cl_event*, cl_event*) {
  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
  return is_live(queue, Kind::queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

}  // extern "C"
