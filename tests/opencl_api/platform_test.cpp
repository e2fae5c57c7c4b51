// Platform, device, context and command-queue queries against the OpenCL 1.2 specification.
#include <cstdlib>
#include <cstring>
#include <regex>

#include "common.h"

namespace clapi {
namespace {

// ctest runs this suite on Ventus; on another platform (a developer's check against pocl) the
// Ventus identity tests are skipped, and this test says which platform ran.
TEST(Platform, IsVentusUnderCtest) {
  std::string name = platform_string(platform(), CL_PLATFORM_NAME);
  if (std::getenv("VENTUS_OPENCL_API_REFERENCE") == nullptr)
    EXPECT_EQ(name, "Ventus") << "set VENTUS_OPENCL_API_REFERENCE=1 to run on another platform";
  else
    std::printf("platform under test: %s\n", name.c_str());
}

TEST(Platform, GetPlatformIdsArguments) {
  cl_platform_id p = nullptr;
  cl_uint n = 0;
  // num_entries 0 with a platforms array, and nothing to return into.
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformIDs(0, &p, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformIDs(0, &p, &n));
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformIDs(1, nullptr, nullptr));
  ASSERT_OK(clGetPlatformIDs(0, nullptr, &n));
  EXPECT_EQ(n, 1u) << "OCL_ICD_VENDORS names one platform";
  std::vector<cl_platform_id> all(n + 2, nullptr);
  cl_uint n2 = 0;
  ASSERT_OK(clGetPlatformIDs(n + 2, all.data(), &n2));
  EXPECT_EQ(n2, n);
  EXPECT_NE(all[0], nullptr);
  EXPECT_EQ(all[0], platform());
}

TEST(Platform, Info) {
  cl_platform_id p = platform();
  if (is_ventus()) {
    EXPECT_EQ(platform_string(p, CL_PLATFORM_NAME), "Ventus");
  }
  EXPECT_FALSE(platform_string(p, CL_PLATFORM_NAME).empty());
  EXPECT_FALSE(platform_string(p, CL_PLATFORM_VENDOR).empty());
  std::string profile = platform_string(p, CL_PLATFORM_PROFILE);
  EXPECT_TRUE(profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE") << profile;
  // "OpenCL<space><major.minor><space><platform-specific information>"
  std::string version = platform_string(p, CL_PLATFORM_VERSION);
  EXPECT_TRUE(std::regex_search(version, std::regex("^OpenCL [0-9]+\\.[0-9]+ "))) << version;
  if (is_ventus()) {
    EXPECT_EQ(version.rfind("OpenCL 1.2 ", 0), 0u) << version;
  }
  std::string ext = platform_string(p, CL_PLATFORM_EXTENSIONS);
  EXPECT_NE(ext.find("cl_khr_icd"), std::string::npos) << ext;
  EXPECT_FALSE(platform_string(p, CL_PLATFORM_ICD_SUFFIX_KHR).empty());
  // A hint; the compiler comes back when needed (the program tests build after this in
  // other processes, Program.* after it in this one).
  EXPECT_OK(clUnloadPlatformCompiler(p));
}

TEST(Platform, InfoSizes) {
  cl_platform_id p = platform();
  const cl_platform_info params[] = {CL_PLATFORM_PROFILE,    CL_PLATFORM_VERSION,
                                     CL_PLATFORM_NAME,       CL_PLATFORM_VENDOR,
                                     CL_PLATFORM_EXTENSIONS, CL_PLATFORM_ICD_SUFFIX_KHR};
  for (cl_platform_info what : params) {
    SCOPED_TRACE(what);
    size_t size = 0;
    ASSERT_OK(clGetPlatformInfo(p, what, 0, nullptr, &size));
    ASSERT_GT(size, 0u);
    // The size counts the terminating NUL of the string returned.
    std::vector<char> buf(size + 8, 'x');
    size_t size2 = 0;
    ASSERT_OK(clGetPlatformInfo(p, what, buf.size(), buf.data(), &size2));
    EXPECT_EQ(size2, size);
    EXPECT_EQ(buf[size - 1], '\0');
    EXPECT_EQ(std::strlen(buf.data()), size - 1);
    // Too small a buffer for the value.
    EXPECT_CL(CL_INVALID_VALUE, clGetPlatformInfo(p, what, size - 1, buf.data(), nullptr));
  }
  char c = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformInfo(p, 0x7777, sizeof c, &c, nullptr));
}

TEST(Device, GetDeviceIdsByType) {
  cl_platform_id p = platform();
  cl_device_type type = device_value<cl_device_type>(device(), CL_DEVICE_TYPE);
  if (is_ventus()) {
    EXPECT_EQ(type, static_cast<cl_device_type>(CL_DEVICE_TYPE_GPU));
  }
  cl_uint n = 0;
  cl_device_id d = nullptr;
  ASSERT_OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n));
  EXPECT_EQ(n, 1u);
  ASSERT_OK(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &d, &n));
  EXPECT_EQ(d, device());
  for (cl_device_type t : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
    SCOPED_TRACE(t);
    d = nullptr;
    n = 77;
    if (t == type) {
      ASSERT_OK(clGetDeviceIDs(p, t, 1, &d, &n));
      EXPECT_EQ(n, 1u);
      EXPECT_EQ(d, device());
    } else {
      EXPECT_CL(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(p, t, 1, &d, &n));
    }
  }
  EXPECT_CL(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(p, CL_DEVICE_TYPE_CUSTOM, 1, &d, &n));
  // pocl 3.1: CL_DEVICE_NOT_FOUND.
  EXPECT_CL(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(p, cl_device_type{1} << 40, 1, &d, &n));
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, &n));
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr));
}

// Every clGetDeviceInfo parameter of OpenCL 1.2 with its value's size (0: an array or a
// string, whose size the test checks separately).
struct DeviceParam {
  cl_device_info name;
  const char* text;
  size_t size;
};
#define P(name, type) \
  { name, #name, sizeof(type) }
#define ARRAY(name) \
  { name, #name, 0 }
const DeviceParam kDeviceParams[] = {
    P(CL_DEVICE_TYPE, cl_device_type),
    P(CL_DEVICE_VENDOR_ID, cl_uint),
    P(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
    P(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
    ARRAY(CL_DEVICE_MAX_WORK_ITEM_SIZES),
    P(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
    P(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
    P(CL_DEVICE_ADDRESS_BITS, cl_uint),
    P(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
    P(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
    P(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
    P(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
    P(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
    P(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
    P(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
    P(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
    P(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
    P(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
    P(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
    P(CL_DEVICE_MAX_SAMPLERS, cl_uint),
    P(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
    P(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
    P(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
    P(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
    P(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
    P(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
    P(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
    P(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
    P(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
    P(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
    P(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
    P(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
    P(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
    P(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
    P(CL_DEVICE_AVAILABLE, cl_bool),
    P(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
    P(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
    P(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
    P(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
    ARRAY(CL_DEVICE_BUILT_IN_KERNELS),
    P(CL_DEVICE_PLATFORM, cl_platform_id),
    ARRAY(CL_DEVICE_NAME),
    ARRAY(CL_DEVICE_VENDOR),
    ARRAY(CL_DRIVER_VERSION),
    ARRAY(CL_DEVICE_PROFILE),
    ARRAY(CL_DEVICE_VERSION),
    ARRAY(CL_DEVICE_OPENCL_C_VERSION),
    ARRAY(CL_DEVICE_EXTENSIONS),
    P(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
    P(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
    P(CL_DEVICE_PARENT_DEVICE, cl_device_id),
    P(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
    ARRAY(CL_DEVICE_PARTITION_PROPERTIES),
    P(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
    ARRAY(CL_DEVICE_PARTITION_TYPE),
    P(CL_DEVICE_REFERENCE_COUNT, cl_uint),
};
#undef P
#undef ARRAY

const std::vector<cl_device_info> kStringParams = {
    CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_NAME,      CL_DEVICE_VENDOR,
    CL_DRIVER_VERSION,          CL_DEVICE_PROFILE,   CL_DEVICE_VERSION,
    CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_EXTENSIONS};

bool is_string_param(cl_device_info p) {
  for (cl_device_info s : kStringParams)
    if (s == p) return true;
  return false;
}

TEST(Device, EveryParameterAnswers) {
  cl_device_id d = device();
  cl_uint dims = device_value<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  for (const DeviceParam& param : kDeviceParams) {
    SCOPED_TRACE(param.text);
    size_t size = 12345;
    ASSERT_OK(clGetDeviceInfo(d, param.name, 0, nullptr, &size));
    if (param.size) {
      EXPECT_EQ(size, param.size);
    } else if (param.name == CL_DEVICE_MAX_WORK_ITEM_SIZES) {
      EXPECT_EQ(size, dims * sizeof(size_t));
    } else if (param.name == CL_DEVICE_PARTITION_PROPERTIES ||
               param.name == CL_DEVICE_PARTITION_TYPE) {
      // A list of cl_device_partition_property; for a root device that cannot be partitioned
      // the spec allows an empty answer or a single 0.
      EXPECT_EQ(size % sizeof(cl_device_partition_property), 0u);
    } else {
      EXPECT_GE(size, 1u);
    }
    std::vector<unsigned char> value(size + 16, 0xab);
    size_t size2 = 0;
    ASSERT_OK(clGetDeviceInfo(d, param.name, value.size(), value.data(), &size2));
    EXPECT_EQ(size2, size);
    // Nothing written past the value's size.
    for (size_t i = size; i < value.size(); ++i) ASSERT_EQ(value[i], 0xab) << "byte " << i;
    if (is_string_param(param.name)) {
      ASSERT_GE(size, 1u);
      EXPECT_EQ(value[size - 1], '\0');
      EXPECT_EQ(std::strlen(reinterpret_cast<char*>(value.data())), size - 1);
    }
    // A buffer one byte too small is an error (the size of a non-empty value).
    if (size > 0) {
      EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(d, param.name, size - 1, value.data(), nullptr));
    }
  }
  size_t size = 0;
  cl_uint v = 0;
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(d, 0x7777, sizeof v, &v, &size));
}

TEST(Device, ValuesAreConsistent) {
  cl_device_id d = device();
  EXPECT_EQ(device_value<cl_platform_id>(d, CL_DEVICE_PLATFORM), platform());
  EXPECT_GE(device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  cl_uint dims = device_value<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dims, 3u);
  std::vector<size_t> sizes(dims);
  ASSERT_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes.data(),
                            nullptr));
  size_t max_wg = device_max_work_group_size();
  EXPECT_GE(max_wg, 1u);
  for (size_t s : sizes) {
    EXPECT_GE(s, 1u);
    EXPECT_LE(s, max_wg);
  }
  cl_ulong global = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong alloc = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GE(alloc, global / 4);
  EXPECT_LE(alloc, global);
  std::string profile = device_string(d, CL_DEVICE_PROFILE);
  bool full = profile == "FULL_PROFILE";
  EXPECT_TRUE(full || profile == "EMBEDDED_PROFILE") << profile;
  EXPECT_GE(device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_NE(device_value<cl_device_local_mem_type>(d, CL_DEVICE_LOCAL_MEM_TYPE),
            static_cast<cl_device_local_mem_type>(CL_NONE));
  EXPECT_GE(device_value<cl_ulong>(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE),
            full ? 64u * 1024 : 1024u);
  EXPECT_GE(device_value<cl_uint>(d, CL_DEVICE_MAX_CONSTANT_ARGS), full ? 8u : 4u);
  EXPECT_GE(device_value<size_t>(d, CL_DEVICE_MAX_PARAMETER_SIZE), full ? 1024u : 256u);
  cl_uint bits = device_value<cl_uint>(d, CL_DEVICE_ADDRESS_BITS);
  EXPECT_TRUE(bits == 32 || bits == 64) << bits;
  // In bits: at least the largest built-in type (long16, 128 bytes; int16 embedded).
  EXPECT_GE(device_value<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN), full ? 1024u : 512u);
  cl_device_fp_config fp = device_value<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG);
  if (full)
    EXPECT_EQ(fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN),
              static_cast<cl_device_fp_config>(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
  else
    EXPECT_NE(fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO), 0u);
  EXPECT_TRUE(device_value<cl_bool>(d, CL_DEVICE_AVAILABLE));
  EXPECT_TRUE(device_value<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE));
  EXPECT_TRUE(device_value<cl_bool>(d, CL_DEVICE_LINKER_AVAILABLE));
  EXPECT_NE(device_value<cl_device_exec_capabilities>(d, CL_DEVICE_EXECUTION_CAPABILITIES) &
                CL_EXEC_KERNEL,
            0u);
  // Profiling is mandatory; out-of-order execution is optional.
  EXPECT_NE(device_value<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_PROPERTIES) &
                CL_QUEUE_PROFILING_ENABLE,
            0u);
  EXPECT_GE(device_value<size_t>(d, CL_DEVICE_PRINTF_BUFFER_SIZE), full ? 1024u * 1024 : 1024u);
  EXPECT_EQ(device_value<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE), nullptr);
  // Root devices are not reference counted: always 1.
  EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_OK(clRetainDevice(d));
  EXPECT_OK(clReleaseDevice(d));
  EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);

  std::string version = device_string(d, CL_DEVICE_VERSION);
  EXPECT_TRUE(std::regex_search(version, std::regex("^OpenCL [0-9]+\\.[0-9]+ "))) << version;
  if (is_ventus()) {
    EXPECT_EQ(version.rfind("OpenCL 1.2 ", 0), 0u) << version;
  }
  std::string c_version = device_string(d, CL_DEVICE_OPENCL_C_VERSION);
  EXPECT_EQ(c_version.rfind("OpenCL C 1.2 ", 0), 0u) << c_version;
  EXPECT_TRUE(std::regex_search(device_string(d, CL_DRIVER_VERSION), std::regex("^[0-9]+\\.")))
      << "<major_number>.<minor_number>: " << device_string(d, CL_DRIVER_VERSION);
  std::string ext = " " + device_string(d, CL_DEVICE_EXTENSIONS) + " ";
  for (const char* e : {"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
                        "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
                        "cl_khr_byte_addressable_store"})
    EXPECT_NE(ext.find(std::string(" ") + e + " "), std::string::npos) << e << " in" << ext;
  // cl_khr_fp64 is reported exactly when double precision is.
  bool fp64 = ext.find(" cl_khr_fp64 ") != std::string::npos;
  EXPECT_EQ(fp64, device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0);
  if (fp64) {
    // OpenCL 1.2 s4.2: the minimum double precision capability, and a vector width.
    const cl_device_fp_config minimum = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                        CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
    EXPECT_EQ(device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) & minimum, minimum);
    EXPECT_NE(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
    EXPECT_NE(device_value<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE), 0u);
  } else {
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
  }
  if (is_ventus()) {
    EXPECT_TRUE(fp64) << "Ventus has cl_khr_fp64 (docs/opencl.md)";
  }
  // cl_khr_fp16 is reported exactly when half precision is (OpenCL 1.2 s9.5: round to
  // zero or to nearest, and infinities and NaNs, at the least).
  bool fp16 = ext.find(" cl_khr_fp16 ") != std::string::npos;
  const cl_device_fp_config half_config =
      device_value<cl_device_fp_config>(d, CL_DEVICE_HALF_FP_CONFIG);
  EXPECT_EQ(fp16, half_config != 0);
  if (fp16) {
    EXPECT_NE(half_config & (CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_NEAREST), 0u);
    EXPECT_NE(half_config & CL_FP_INF_NAN, 0u);
    EXPECT_NE(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
    EXPECT_NE(device_value<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
  } else {
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
  }
  if (is_ventus()) {
    EXPECT_TRUE(fp16) << "Ventus has cl_khr_fp16 (docs/opencl.md)";
    // Only what is true: arithmetic rounds to nearest even (no other mode in a kernel).
    EXPECT_EQ(half_config, CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM);
  }
  bool images = device_value<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT);
  if (images) {
    EXPECT_GE(device_value<size_t>(d, CL_DEVICE_IMAGE2D_MAX_WIDTH), 2048u);
  }
}

void CL_CALLBACK no_op_notify(const char*, const void*, size_t, void*) {}

TEST(Context, CreateArguments) {
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  cl_context_properties good[] = {CL_CONTEXT_PLATFORM,
                                  reinterpret_cast<cl_context_properties>(platform()), 0};
  // A platform handle that is not one: the ICD loader or the platform answers.
  cl_context_properties bad_platform[] = {CL_CONTEXT_PLATFORM,
                                          reinterpret_cast<cl_context_properties>(d), 0};
  EXPECT_EQ(clCreateContext(bad_platform, 1, &d, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_PLATFORM, e);
  cl_context_properties unknown[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform()), 0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(unknown, 1, &d, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, e);
  cl_context_properties twice[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform()), CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(platform()), 0};
  EXPECT_EQ(clCreateContext(twice, 1, &d, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, e);
  EXPECT_EQ(clCreateContext(good, 1, nullptr, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  EXPECT_EQ(clCreateContext(good, 0, &d, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  int user_data = 0;
  EXPECT_EQ(clCreateContext(good, 1, &d, nullptr, &user_data, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  cl_device_id two[] = {d, nullptr};
  EXPECT_EQ(clCreateContext(good, 2, two, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, e);

  cl_context c = clCreateContext(good, 1, &d, no_op_notify, &user_data, &e);
  ASSERT_OK(e);
  ASSERT_NE(c, nullptr);
  EXPECT_OK(clReleaseContext(c));
  // properties may be NULL: the platform is then implementation-defined (here, the only one).
  c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseContext(c));
}

TEST(Context, CreateFromType) {
  cl_int e = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform()), 0};
  cl_device_type type = device_value<cl_device_type>(device(), CL_DEVICE_TYPE);
  // pocl 3.1 creates a context for any type, even an invalid one.
  for (cl_device_type t : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
    SCOPED_TRACE(t);
    cl_context c = clCreateContextFromType(props, t, nullptr, nullptr, &e);
    if (t == type) {
      ASSERT_OK(e);
      cl_device_id d = nullptr;
      EXPECT_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, nullptr));
      EXPECT_EQ(d, device());
      EXPECT_OK(clReleaseContext(c));
    } else {
      EXPECT_EQ(c, nullptr);
      EXPECT_CL(CL_DEVICE_NOT_FOUND, e);
    }
  }
  cl_context c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseContext(c));
  int user_data = 0;
  EXPECT_EQ(clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, &user_data, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  EXPECT_EQ(clCreateContextFromType(props, cl_device_type{1} << 40, nullptr, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE_TYPE, e);
}

TEST(Context, InfoAndReferenceCounts) {
  cl_device_id d = device();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform()), 0};
  cl_int e = CL_SUCCESS;
  cl_context c = clCreateContext(props, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  EXPECT_EQ(reference_count(c), 1u);
  EXPECT_OK(clRetainContext(c));
  EXPECT_OK(clRetainContext(c));
  EXPECT_EQ(reference_count(c), 3u);
  EXPECT_OK(clReleaseContext(c));
  EXPECT_EQ(reference_count(c), 2u);
  cl_uint n = 0;
  size_t size = 0;
  ASSERT_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, &size));
  EXPECT_EQ(size, sizeof(cl_uint));
  EXPECT_EQ(n, 1u);
  cl_device_id got = nullptr;
  ASSERT_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof got, &got, &size));
  EXPECT_EQ(size, sizeof(cl_device_id));
  EXPECT_EQ(got, d);
  cl_context_properties back[8] = {};
  ASSERT_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof back, back, &size));
  EXPECT_EQ(size, sizeof props);
  EXPECT_EQ(0, std::memcmp(back, props, sizeof props));
  EXPECT_CL(CL_INVALID_VALUE, clGetContextInfo(c, CL_CONTEXT_DEVICES, 1, &got, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetContextInfo(c, 0x7777, sizeof n, &n, nullptr));
  EXPECT_OK(clReleaseContext(c));
  // A command queue holds its context.
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseContext(c));
  cl_context of_queue = nullptr;
  EXPECT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof of_queue, &of_queue, nullptr));
  EXPECT_EQ(of_queue, c);
  EXPECT_OK(clReleaseCommandQueue(q));
}

// CL_CONTEXT_REFERENCE_COUNT exists to find leaks: every object created in a context and
// released again (after its commands completed) gives back the reference it held.
TEST(Context, ObjectsGiveBackTheirReferences) {
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  auto back_to_one = [&](const char* what) {
    // An implementation may drop its internal references a little later (worker threads).
    EXPECT_TRUE(wait_until([&] { return reference_count(c) == 1; }, std::chrono::seconds(2)))
        << what << ": the context's reference count stays " << reference_count(c);
  };
  cl_mem m = clCreateBuffer(c, 0, 4096, nullptr, &e);
  ASSERT_OK(e);
  cl_buffer_region r{0, 128};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseMemObject(sub));
  EXPECT_OK(clReleaseMemObject(m));
  back_to_one("a buffer and a sub-buffer");
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseCommandQueue(q));
  back_to_one("a command queue");
  cl_event u = clCreateUserEvent(c, &e);
  ASSERT_OK(e);
  EXPECT_OK(clSetUserEventStatus(u, CL_COMPLETE));
  EXPECT_OK(clReleaseEvent(u));
  back_to_one("a user event");
  const char* src = kSimpleKernels;
  cl_program p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(e);
  EXPECT_OK(clReleaseProgram(p));
  back_to_one("a program (not built)");
  p = clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  ASSERT_OK(clBuildProgram(p, 1, &d, nullptr, nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "add_one", &e);
  ASSERT_OK(e);
  m = clCreateBuffer(c, 0, 64, nullptr, &e);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof m, &m));
  q = clCreateCommandQueue(c, d, 0, &e);
  size_t n = 16;
  cl_event run = nullptr;
  ASSERT_OK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, &run));
  ASSERT_OK(clWaitForEvents(1, &run));
  EXPECT_OK(clFinish(q));
  EXPECT_OK(clReleaseEvent(run));
  EXPECT_OK(clReleaseKernel(k));
  EXPECT_OK(clReleaseProgram(p));
  EXPECT_OK(clReleaseMemObject(m));
  EXPECT_OK(clReleaseCommandQueue(q));
  back_to_one("a built program, a kernel, a launch and its event");
  EXPECT_OK(clReleaseContext(c));
}

TEST(Queue, CreateAndInfo) {
  cl_device_id d = device();
  cl_int e = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  // A bit that names no queue property.
  EXPECT_EQ(clCreateCommandQueue(c, d, cl_command_queue_properties{1} << 40, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  EXPECT_EQ(clCreateCommandQueue(c, nullptr, 0, &e), nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, e);

  auto supported = device_value<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_PROPERTIES);
  cl_command_queue_properties all =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  cl_command_queue q = clCreateCommandQueue(c, d, all, &e);
  if ((supported & all) == all) {
    ASSERT_OK(e);
  } else {
    EXPECT_CL(CL_INVALID_QUEUE_PROPERTIES, e);
    q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &e);
    ASSERT_OK(e);
  }
  if (is_ventus()) {
    EXPECT_EQ(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
              static_cast<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  }
  cl_command_queue_properties got = 0;
  size_t size = 0;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got, &size));
  EXPECT_EQ(size, sizeof got);
  EXPECT_EQ(got, (supported & all) == all ? all : CL_QUEUE_PROFILING_ENABLE);
  cl_device_id qd = nullptr;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, &size));
  EXPECT_EQ(size, sizeof qd);
  EXPECT_EQ(qd, d);
  cl_context qc = nullptr;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, nullptr));
  EXPECT_EQ(qc, c);
  cl_uint refs = 0;
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  EXPECT_EQ(refs, 1u);
  EXPECT_OK(clRetainCommandQueue(q));
  ASSERT_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  EXPECT_EQ(refs, 2u);
  EXPECT_OK(clReleaseCommandQueue(q));
  EXPECT_CL(CL_INVALID_VALUE, clGetCommandQueueInfo(q, 0x7777, sizeof refs, &refs, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, 1, &qd, nullptr));
  EXPECT_OK(clFlush(q));
  EXPECT_OK(clFinish(q));
  EXPECT_OK(clReleaseCommandQueue(q));
  EXPECT_OK(clReleaseContext(c));
}

}  // namespace
}  // namespace clapi
