// Platform, device and context entry points, and what the device reports about itself.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "commands.h"
#include "info.h"

namespace ventus::cl {
namespace {

constexpr char kPlatformName[] = "Ventus";
constexpr char kVendor[] = "Ventus open-source project";
constexpr char kIcdSuffix[] = "VT";
constexpr char kPlatformExtensions[] = "cl_khr_icd";
// The OpenCL C extensions `ventus cc` compiles (src/compiler/CMakeLists.txt).
constexpr char kDeviceExtensions[] =
    "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
    "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "
    "cl_khr_byte_addressable_store cl_khr_fp64 cl_khr_fp16 cl_khr_icd";

// An unsigned decimal number from the environment, or `fallback` when the variable is unset
// or empty. Parsing is strict (digits only: no sign, blanks, suffix or wrap-around, so "-1"
// is not 2^64-1); a bad or out-of-range value is reported on stderr and the default used:
// the library cannot refuse to load, and the application's calls must keep working.
uint64_t env_number(const char* name, uint64_t fallback, uint64_t lowest, uint64_t highest) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  const char* end = text + std::strlen(text);
  uint64_t value = 0;
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error == std::errc{} && stop == end && value >= lowest && value <= highest) return value;
  const bool is_number =
      stop == end && (error == std::errc{} || error == std::errc::result_out_of_range);
  std::fprintf(stderr,
               "Ventus OpenCL: ignoring %s=%s: %s (expected a decimal number in %llu..%llu); "
               "using the default %llu\n",
               name, text, is_number ? "out of range" : "not a decimal number",
               static_cast<unsigned long long>(lowest), static_cast<unsigned long long>(highest),
               static_cast<unsigned long long>(fallback));
  return fallback;
}

}  // namespace

_cl_platform_id* the_platform() {
  static _cl_platform_id* platform = [] {
    auto* p = new _cl_platform_id;
    publish_static(p, Kind::platform);
    return p;
  }();
  return platform;
}

_cl_device_id* the_device() {
  static _cl_device_id* device = [] {
    auto* d = new _cl_device_id;
    sim::DeviceConfig config;
    config.num_sms = static_cast<uint32_t>(env_number("VENTUS_SMS", config.num_sms, 1, 256));
    // Warp instructions a launch may run before it counts as hung (0: no limit).
    config.instruction_budget =
        env_number("VENTUS_INSTRUCTION_BUDGET", config.instruction_budget, 0, UINT64_MAX);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    // Host threads run workgroup slots, so even a 2-SM device uses every core.
    config.host_threads =
        static_cast<unsigned>(env_number("VENTUS_HOST_THREADS", cores, 1, 256));
    d->config = config;
    d->runtime = std::make_unique<rt::Device>(config);
    configure_timing(*d);
    // Every access of every launch checked against the buffers (docs/opencl.md, "Memory
    // checking"); a launch with an invalid access fails with the list of them.
    d->runtime->set_memcheck(env_number("VENTUS_MEMCHECK", 0, 0, 1) != 0);
    // Long launches are otherwise silent: every N seconds a line on stderr, as `ventus run
    // --progress` prints it.
    if (const uint64_t seconds = env_number("VENTUS_PROGRESS", 0, 0, 86400); seconds != 0)
      d->runtime->set_progress_handler(
          [](const sim::LaunchProgress& p) {
            const std::string line = "[Ventus OpenCL] " + sim::describe(p) + "\n";
            std::fwrite(line.data(), 1, line.size(), stderr);
          },
          static_cast<double>(seconds));
    publish_static(d, Kind::device);
    return d;
  }();
  return device;
}

// Work-items a workgroup can hold: the warps an SM holds (at most 32, the width of the
// barrier masks) times the lanes of a warp.
size_t device_max_work_group_size() {
  const sim::DeviceConfig& c = the_device()->config;
  return size_t{c.max_warps_per_workgroup()} * c.max_threads_per_warp;
}

// Local memory every workgroup size can use: an SM's local memory less the 1 KiB stacks
// of the largest workgroup's warps (smaller workgroups get more, see
// CL_KERNEL_LOCAL_MEM_SIZE and docs/opencl.md).
cl_ulong device_local_memory() {
  const sim::DeviceConfig& c = the_device()->config;
  return c.lds_bytes_per_sm - kWarpStackBytes * c.max_warps_per_workgroup();
}

// Buffers live in [kBufferBase, 4 GiB) of the device's 32-bit address space.
cl_ulong device_global_memory() {
  return (1ull << 32) - sim::kBufferBase;
}
cl_ulong device_max_allocation() {
  return device_global_memory() / 4;
}

}  // namespace ventus::cl

using namespace ventus::cl;

// ---- platform ----

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  if ((num_entries == 0 && platforms != nullptr) || (platforms == nullptr && num_platforms == nullptr))
    return CL_INVALID_VALUE;
  if (platforms != nullptr) platforms[0] = the_platform();
  if (num_platforms != nullptr) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) {
  return clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  if (platform != nullptr && platform != the_platform()) return CL_INVALID_PLATFORM;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_PLATFORM_PROFILE:
      return info_string(n, v, r, "FULL_PROFILE");
    case CL_PLATFORM_VERSION:
      return info_string(n, v, r, "OpenCL 1.2 Ventus " VENTUS_VERSION);
    case CL_PLATFORM_NAME:
      return info_string(n, v, r, kPlatformName);
    case CL_PLATFORM_VENDOR:
      return info_string(n, v, r, kVendor);
    case CL_PLATFORM_EXTENSIONS:
      return info_string(n, v, r, kPlatformExtensions);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      return info_string(n, v, r, kIcdSuffix);
    default:
      return CL_INVALID_VALUE;
  }
}

// ---- devices ----

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id* devices,
                                               cl_uint* num_devices) {
  if (platform != nullptr && platform != the_platform()) return CL_INVALID_PLATFORM;
  constexpr cl_device_type kKnown = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                    CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM |
                                    CL_DEVICE_TYPE_DEFAULT;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kKnown) != 0) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices != nullptr) || (devices == nullptr && num_devices == nullptr))
    return CL_INVALID_VALUE;
  const bool matches = (device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)) != 0;
  if (!matches) {
    if (num_devices != nullptr) *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices != nullptr) devices[0] = the_device();
  if (num_devices != nullptr) *num_devices = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void* param_value,
                                                size_t* param_value_size_ret) {
  if (!is_live(device, Kind::device)) return CL_INVALID_DEVICE;
  const ventus::sim::DeviceConfig& c = device->config;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  const size_t max_group = device_max_work_group_size();
  auto u32 = [&](cl_uint x) { return info_value(n, v, r, x); };
  auto u64 = [&](cl_ulong x) { return info_value(n, v, r, x); };
  auto size = [&](size_t x) { return info_value(n, v, r, x); };
  auto boolean = [&](bool x) { return info_value(n, v, r, static_cast<cl_bool>(x ? CL_TRUE : CL_FALSE)); };
  auto text = [&](std::string_view x) { return info_string(n, v, r, x); };
  switch (param_name) {
    case CL_DEVICE_TYPE:
      return info_value(n, v, r, cl_device_type{CL_DEVICE_TYPE_GPU});
    case CL_DEVICE_VENDOR_ID:
      return u32(0);  // no PCI vendor
    case CL_DEVICE_MAX_COMPUTE_UNITS:
      return u32(c.num_sms);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
      return u32(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      return info_array(n, v, r, std::vector<size_t>{max_group, max_group, max_group});
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
      return size(max_group);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
      return u32(1);  // work-items are the vector lanes; a vector type is a register group
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
      // The cycle model's clock (VENTUS_TIMING); without it the simulator has no clock.
      return u32(the_device()->timing ? the_device()->timing->clock_mhz : 0);
    case CL_DEVICE_ADDRESS_BITS:
      return u32(32);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
      return u64(device_max_allocation());
    case CL_DEVICE_IMAGE_SUPPORT:
      return boolean(false);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_SAMPLERS:
      return u32(0);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
      return size(0);
    case CL_DEVICE_MAX_PARAMETER_SIZE:
      return size(1024);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
      return u32(1024);  // bits: a long16
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
      return u32(128);
    case CL_DEVICE_SINGLE_FP_CONFIG:
      return info_value(n, v, r,
                        cl_device_fp_config{CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                            CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT});
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      // cl_khr_fp64 (docs/opencl.md): the pair instructions compute binary64 with
      // subnormals, infinities and NaNs, a fused multiply-add, and round in frm's mode
      // (nearest even in a kernel; the conversions' soft-float rounds in all four).
      return info_value(
          n, v, r,
          cl_device_fp_config{CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                              CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM});
    case CL_DEVICE_HALF_FP_CONFIG:
      // cl_khr_fp16 (docs/opencl.md): half arithmetic is computed in float and rounded
      // once to nearest even (correctly rounded, subnormals, infinities and NaNs kept);
      // fma is correctly rounded through double.
      return info_value(
          n, v, r,
          cl_device_fp_config{CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM});
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      return info_value(n, v, r, cl_device_mem_cache_type{CL_NONE});
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
      return u32(0);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
      return u64(0);
    case CL_DEVICE_GLOBAL_MEM_SIZE:
      return u64(device_global_memory());
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      return u64(device_max_allocation());  // __constant data is global memory
    case CL_DEVICE_MAX_CONSTANT_ARGS:
      return u32(64);
    case CL_DEVICE_LOCAL_MEM_TYPE:
      return info_value(n, v, r, cl_device_local_mem_type{CL_LOCAL});
    case CL_DEVICE_LOCAL_MEM_SIZE:
      return u64(device_local_memory());
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
      return boolean(false);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      return size(1);
    case CL_DEVICE_AVAILABLE:
      return boolean(the_device()->timing_error.empty());
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
      return boolean(true);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      return info_value(n, v, r, cl_device_exec_capabilities{CL_EXEC_KERNEL});
    case CL_DEVICE_QUEUE_PROPERTIES:
      return info_value(n, v, r,
                        cl_command_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                    CL_QUEUE_PROFILING_ENABLE});
    case CL_DEVICE_BUILT_IN_KERNELS:
      return text("");
    case CL_DEVICE_PLATFORM:
      return info_value(n, v, r, static_cast<cl_platform_id>(the_platform()));
    case CL_DEVICE_NAME:
      return text(fmt::format("Ventus GPGPU ({} SMs x {} warps x {} threads, simulated)", c.num_sms,
                              c.max_warps_per_workgroup(), c.max_threads_per_warp));
    case CL_DEVICE_VENDOR:
      return text(kVendor);
    case CL_DRIVER_VERSION:
      return text(VENTUS_VERSION);
    case CL_DEVICE_PROFILE:
      return text("FULL_PROFILE");
    case CL_DEVICE_VERSION:
      return text("OpenCL 1.2 Ventus");
    case CL_DEVICE_OPENCL_C_VERSION:
      return text("OpenCL C 1.2 Ventus");
    case CL_DEVICE_EXTENSIONS:
      return text(kDeviceExtensions);
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
      return size(1 << 20);
    case CL_DEVICE_PARENT_DEVICE:
      return info_value(n, v, r, cl_device_id{nullptr});
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
      return u32(0);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE:
      return info_value(n, v, r, cl_device_partition_property{0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      return info_value(n, v, r, cl_device_affinity_domain{0});
    case CL_DEVICE_REFERENCE_COUNT:
      return u32(1);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                   const cl_device_partition_property* properties,
                                                   cl_uint, cl_device_id*, cl_uint*) {
  if (!is_live(in_device, Kind::device)) return CL_INVALID_DEVICE;
  // The device cannot be partitioned (CL_DEVICE_PARTITION_PROPERTIES is empty).
  (void)properties;
  return CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return is_live(device, Kind::device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return is_live(device, Kind::device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

// ---- contexts ----

namespace {

cl_int parse_context_properties(const cl_context_properties* properties,
                                std::vector<cl_context_properties>& out) {
  out.clear();
  if (properties == nullptr) return CL_SUCCESS;
  bool have_platform = false, have_sync = false;
  for (const cl_context_properties* p = properties; *p != 0; p += 2) {
    switch (p[0]) {
      case CL_CONTEXT_PLATFORM:
        if (have_platform) return CL_INVALID_PROPERTY;
        have_platform = true;
        if (reinterpret_cast<cl_platform_id>(p[1]) != the_platform()) return CL_INVALID_PLATFORM;
        break;
      case CL_CONTEXT_INTEROP_USER_SYNC:
        if (have_sync) return CL_INVALID_PROPERTY;
        have_sync = true;
        break;
      default:
        return CL_INVALID_PROPERTY;
    }
    out.push_back(p[0]);
    out.push_back(p[1]);
  }
  out.push_back(0);
  return CL_SUCCESS;
}

cl_context make_context(const std::vector<cl_context_properties>& properties,
                        void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                        void* user_data, cl_int* errcode_ret) {
  try {
    // The simulator starts with the first context.
    if (const std::string& why = the_device()->timing_error; !why.empty()) {
      if (notify != nullptr) notify(why.c_str(), nullptr, 0, user_data);
      set_error(errcode_ret, CL_DEVICE_NOT_AVAILABLE);
      return nullptr;
    }
    auto* context = new Context;
    context->properties = properties;
    context->notify = notify;
    context->notify_data = user_data;
    publish(context);
    set_error(errcode_ret, CL_SUCCESS);
    return context->handle();
  } catch (const std::bad_alloc&) {
    set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return nullptr;
  }
}

}  // namespace

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                const cl_device_id* devices,
                void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                void* user_data, cl_int* errcode_ret) {
  std::vector<cl_context_properties> props;
  if (cl_int status = parse_context_properties(properties, props); status != CL_SUCCESS) {
    set_error(errcode_ret, status);
    return nullptr;
  }
  if (num_devices == 0 || devices == nullptr || (pfn_notify == nullptr && user_data != nullptr)) {
    set_error(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!is_live(devices[i], Kind::device)) {
      set_error(errcode_ret, CL_INVALID_DEVICE);
      return nullptr;
    }
  return make_context(props, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties* properties, cl_device_type device_type,
                        void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                        void* user_data, cl_int* errcode_ret) {
  std::vector<cl_context_properties> props;
  if (cl_int status = parse_context_properties(properties, props); status != CL_SUCCESS) {
    set_error(errcode_ret, status);
    return nullptr;
  }
  if (pfn_notify == nullptr && user_data != nullptr) {
    set_error(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  cl_uint count = 0;
  cl_device_id device = nullptr;
  if (cl_int status = clGetDeviceIDs(nullptr, device_type, 1, &device, &count);
      status != CL_SUCCESS) {
    set_error(errcode_ret, status);
    return nullptr;
  }
  return make_context(props, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retain_handle(context, Kind::context, CL_INVALID_CONTEXT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return release_handle(context, Kind::context, CL_INVALID_CONTEXT);
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context_handle,
                                                 cl_context_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return CL_INVALID_CONTEXT;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT: return info_value(n, v, r, reference_count(context));
    case CL_CONTEXT_NUM_DEVICES:
      return info_value(n, v, r, cl_uint{1});
    case CL_CONTEXT_DEVICES:
      return info_value(n, v, r, static_cast<cl_device_id>(the_device()));
    case CL_CONTEXT_PROPERTIES:
      return info_array(n, v, r, context->properties);
    default:
      return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context context_handle, void(CL_CALLBACK* pfn_notify)(cl_context, void*), void* user_data) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return CL_INVALID_CONTEXT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  std::lock_guard guard(context->destructor_lock);
  context->destructor_callbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
}

}  // extern "C"
