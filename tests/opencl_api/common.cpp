// Shared helpers of the OpenCL API conformance tests.
#include "common.h"

#include <cstdlib>
#include <cstring>

namespace clapi {
namespace {

// Before any OpenCL call (the platform reads its settings when it creates the device): a
// small instruction budget, so that the endless-kernel test stops within a second or two
// (the default, 2e9 warp instructions, takes 20 s). The tests' kernels need far less.
// An explicit setting in the environment wins.
[[maybe_unused]] const bool kEnvironmentSet = [] {
  setenv("VENTUS_INSTRUCTION_BUDGET", "20000000", 0);
  return true;
}();

}  // namespace

const char* error_name(cl_int code) {
  switch (code) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_IMAGE_FORMAT_MISMATCH: return "CL_IMAGE_FORMAT_MISMATCH";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED: return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
      return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_COMPILE_PROGRAM_FAILURE: return "CL_COMPILE_PROGRAM_FAILURE";
    case CL_LINKER_NOT_AVAILABLE: return "CL_LINKER_NOT_AVAILABLE";
    case CL_LINK_PROGRAM_FAILURE: return "CL_LINK_PROGRAM_FAILURE";
    case CL_DEVICE_PARTITION_FAILED: return "CL_DEVICE_PARTITION_FAILED";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_QUEUE_PROPERTIES: return "CL_INVALID_QUEUE_PROPERTIES";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case CL_INVALID_IMAGE_SIZE: return "CL_INVALID_IMAGE_SIZE";
    case CL_INVALID_SAMPLER: return "CL_INVALID_SAMPLER";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_DEFINITION: return "CL_INVALID_KERNEL_DEFINITION";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_GL_OBJECT: return "CL_INVALID_GL_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_MIP_LEVEL: return "CL_INVALID_MIP_LEVEL";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case CL_INVALID_IMAGE_DESCRIPTOR: return "CL_INVALID_IMAGE_DESCRIPTOR";
    case CL_INVALID_COMPILER_OPTIONS: return "CL_INVALID_COMPILER_OPTIONS";
    case CL_INVALID_LINKER_OPTIONS: return "CL_INVALID_LINKER_OPTIONS";
    case CL_INVALID_DEVICE_PARTITION_COUNT: return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return code > 0 ? "a positive value" : "an unknown error";
  }
}

cl_platform_id platform() {
  static cl_platform_id p = [] {
    cl_platform_id first = nullptr;
    cl_uint n = 0;
    cl_int e = clGetPlatformIDs(1, &first, &n);
    if (e != CL_SUCCESS || n == 0) {
      ADD_FAILURE() << "no OpenCL platform (" << error_name(e)
                    << "): is OCL_ICD_VENDORS set to the Ventus .icd file?";
      return static_cast<cl_platform_id>(nullptr);
    }
    return first;
  }();
  return p;
}

cl_device_id device() {
  static cl_device_id d = [] {
    cl_device_id first = nullptr;
    cl_uint n = 0;
    cl_int e = clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 1, &first, &n);
    if (e != CL_SUCCESS) ADD_FAILURE() << "no device: " << error_name(e);
    return first;
  }();
  return d;
}

bool is_ventus() {
  return platform_string(platform(), CL_PLATFORM_NAME) == "Ventus";
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

size_t device_max_work_group_size() {
  return device_value<size_t>(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
}

cl_uint device_base_addr_align_bytes() {
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits.
  return device_value<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
}

void CL_CALLBACK record_notification(const char* errinfo, const void*, size_t, void* user_data) {
  auto* n = static_cast<Notifications*>(user_data);
  std::lock_guard lock(n->mutex);
  n->messages.emplace_back(errinfo ? errinfo : "");
}

cl_int event_status(cl_event e) {
  cl_int status = 1234;
  EXPECT_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
  return status;
}

cl_uint reference_count(cl_context c) {
  cl_uint n = 0;
  EXPECT_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr));
  return n;
}

cl_uint reference_count(cl_mem m) {
  cl_uint n = 0;
  EXPECT_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr));
  return n;
}

void ClTest::SetUp() {
  ASSERT_NE(platform(), nullptr);
  ASSERT_NE(device(), nullptr);
  cl_device_id d = device();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform()), 0};
  cl_int e = CL_SUCCESS;
  context_ = clCreateContext(props, 1, &d, record_notification, &notes_, &e);
  ASSERT_OK(e);
  queue_ = clCreateCommandQueue(context_, d, 0, &e);
  ASSERT_OK(e);
}

void ClTest::TearDown() {
  if (queue_) {
    EXPECT_OK(clFinish(queue_));
  }
  for (cl_kernel k : kernels_) EXPECT_OK(clReleaseKernel(k));
  for (cl_program p : programs_) EXPECT_OK(clReleaseProgram(p));
  for (cl_mem m : mems_) EXPECT_OK(clReleaseMemObject(m));
  if (queue_) {
    EXPECT_OK(clReleaseCommandQueue(queue_));
  }
  if (context_) {
    EXPECT_OK(clReleaseContext(context_));
  }
}

cl_program ClTest::build(const std::string& source, const char* options) {
  const char* text = source.c_str();
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_, 1, &text, nullptr, &e);
  EXPECT_OK(e);
  if (!p) return nullptr;
  programs_.push_back(p);
  cl_device_id d = device();
  e = clBuildProgram(p, 1, &d, options, nullptr, nullptr);
  EXPECT_OK(e) << build_log(p);
  return p;
}

cl_kernel ClTest::kernel(cl_program program, const char* name) {
  cl_int e = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, name, &e);
  EXPECT_OK(e) << name;
  if (k) kernels_.push_back(k);
  return k;
}

cl_mem ClTest::buffer(cl_mem_flags flags, size_t size, void* host_ptr) {
  cl_int e = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, flags, size, host_ptr, &e);
  EXPECT_OK(e);
  if (m) mems_.push_back(m);
  return m;
}

std::vector<cl_int> ClTest::read_ints(cl_mem buf, size_t count, cl_command_queue q) {
  std::vector<cl_int> v(count, -7777);
  EXPECT_OK(clEnqueueReadBuffer(q ? q : queue_, buf, CL_TRUE, 0, count * sizeof(cl_int), v.data(),
                                0, nullptr, nullptr));
  return v;
}

void ClTest::write_ints(cl_mem buf, const std::vector<cl_int>& values) {
  EXPECT_OK(clEnqueueWriteBuffer(queue_, buf, CL_TRUE, 0, values.size() * sizeof(cl_int),
                                 values.data(), 0, nullptr, nullptr));
}

std::string ClTest::build_log(cl_program program) {
  size_t size = 0;
  cl_device_id d = device();
  if (clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return "(no build log)";
  std::string s(size, '\0');
  clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_LOG, size, s.data(), nullptr);
  s.resize(std::strlen(s.c_str()));
  return s;
}

const char* const kSimpleKernels = R"CLC(
__kernel void add_one(__global int *a) {
  size_t i = get_global_id(0);
  a[i] = a[i] + 1;
}
__kernel void ids(__global int *out, int bias) {
  out[get_global_id(0)] = (int)get_global_id(0) + bias;
}
)CLC";

}  // namespace clapi
