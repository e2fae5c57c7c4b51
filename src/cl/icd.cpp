// The cl_khr_icd side of the library: the dispatch table every object starts with, the
// extension-function lookup the ICD loader uses, and the OpenCL 2.x entry points of
// features this OpenCL 1.2 device does not have.
#include <cstring>

#include "info.h"
#include "objects.h"

extern "C" CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);

// ---- OpenCL 2.x entry points of features the device does not have ----
// The platform is OpenCL 1.2; a loader may still route these calls here, so each returns
// the code the specification gives for an unsupported feature instead of crashing.

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  ventus::cl::set_error(errcode_ret, CL_INVALID_OPERATION);
  return nullptr;
}
CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) {
  return nullptr;
}
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context, void*) {}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue, cl_uint, void*[],
                                                 void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*),
                                                 void*, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue, cl_bool, void*, const void*, size_t,
                                                   cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue, void*, const void*, size_t, size_t,
                                                    cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue, cl_bool, cl_map_flags, void*, size_t,
                                                cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue, void*, cl_uint, const cl_event*,
                                                  cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue, cl_uint, const void**,
                                                       const size_t*, cl_mem_migration_flags, cl_uint,
                                                       const cl_event*, cl_event*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel, cl_uint, const void*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel, cl_kernel_exec_info, size_t, const void*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id, cl_kernel_sub_group_info,
                                                        size_t, const void*, size_t, void*, size_t*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id, cl_ulong*, cl_ulong*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id, cl_ulong*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context, cl_device_id, cl_command_queue) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program, void(CL_CALLBACK*)(cl_program, void*),
                                                            void*) {
  return CL_INVALID_OPERATION;
}
CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program, cl_uint, size_t, const void*) {
  return CL_INVALID_OPERATION;
}

// ---- extensions ----

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  // cl_khr_icd's entry point is the only extension function (the loader asks for it).
  if (func_name != nullptr && std::strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
  return nullptr;
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                         const char* func_name) {
  if (platform != ventus::cl::the_platform()) return nullptr;
  return clGetExtensionFunctionAddress(func_name);
}

}  // extern "C"

namespace ventus::cl {

// Field order is the header's (designated initializers must follow it). Window-system
// interop entries stay empty: the platform reports none of those extensions.
const cl_icd_dispatch kDispatch = {
    .clGetPlatformIDs = &clGetPlatformIDs,
    .clGetPlatformInfo = &clGetPlatformInfo,
    .clGetDeviceIDs = &clGetDeviceIDs,
    .clGetDeviceInfo = &clGetDeviceInfo,
    .clCreateContext = &clCreateContext,
    .clCreateContextFromType = &clCreateContextFromType,
    .clRetainContext = &clRetainContext,
    .clReleaseContext = &clReleaseContext,
    .clGetContextInfo = &clGetContextInfo,
    .clCreateCommandQueue = &clCreateCommandQueue,
    .clRetainCommandQueue = &clRetainCommandQueue,
    .clReleaseCommandQueue = &clReleaseCommandQueue,
    .clGetCommandQueueInfo = &clGetCommandQueueInfo,
    .clSetCommandQueueProperty = &clSetCommandQueueProperty,
    .clCreateBuffer = &clCreateBuffer,
    .clCreateImage2D = &clCreateImage2D,
    .clCreateImage3D = &clCreateImage3D,
    .clRetainMemObject = &clRetainMemObject,
    .clReleaseMemObject = &clReleaseMemObject,
    .clGetSupportedImageFormats = &clGetSupportedImageFormats,
    .clGetMemObjectInfo = &clGetMemObjectInfo,
    .clGetImageInfo = &clGetImageInfo,
    .clCreateSampler = &clCreateSampler,
    .clRetainSampler = &clRetainSampler,
    .clReleaseSampler = &clReleaseSampler,
    .clGetSamplerInfo = &clGetSamplerInfo,
    .clCreateProgramWithSource = &clCreateProgramWithSource,
    .clCreateProgramWithBinary = &clCreateProgramWithBinary,
    .clRetainProgram = &clRetainProgram,
    .clReleaseProgram = &clReleaseProgram,
    .clBuildProgram = &clBuildProgram,
    .clUnloadCompiler = &clUnloadCompiler,
    .clGetProgramInfo = &clGetProgramInfo,
    .clGetProgramBuildInfo = &clGetProgramBuildInfo,
    .clCreateKernel = &clCreateKernel,
    .clCreateKernelsInProgram = &clCreateKernelsInProgram,
    .clRetainKernel = &clRetainKernel,
    .clReleaseKernel = &clReleaseKernel,
    .clSetKernelArg = &clSetKernelArg,
    .clGetKernelInfo = &clGetKernelInfo,
    .clGetKernelWorkGroupInfo = &clGetKernelWorkGroupInfo,
    .clWaitForEvents = &clWaitForEvents,
    .clGetEventInfo = &clGetEventInfo,
    .clRetainEvent = &clRetainEvent,
    .clReleaseEvent = &clReleaseEvent,
    .clGetEventProfilingInfo = &clGetEventProfilingInfo,
    .clFlush = &clFlush,
    .clFinish = &clFinish,
    .clEnqueueReadBuffer = &clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = &clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = &clEnqueueCopyBuffer,
    .clEnqueueReadImage = &clEnqueueReadImage,
    .clEnqueueWriteImage = &clEnqueueWriteImage,
    .clEnqueueCopyImage = &clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = &clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = &clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = &clEnqueueMapBuffer,
    .clEnqueueMapImage = &clEnqueueMapImage,
    .clEnqueueUnmapMemObject = &clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = &clEnqueueNDRangeKernel,
    .clEnqueueTask = &clEnqueueTask,
    .clEnqueueNativeKernel = &clEnqueueNativeKernel,
    .clEnqueueMarker = &clEnqueueMarker,
    .clEnqueueWaitForEvents = &clEnqueueWaitForEvents,
    .clEnqueueBarrier = &clEnqueueBarrier,
    .clGetExtensionFunctionAddress = &clGetExtensionFunctionAddress,
    .clCreateFromGLBuffer = nullptr,
    .clCreateFromGLTexture2D = nullptr,
    .clCreateFromGLTexture3D = nullptr,
    .clCreateFromGLRenderbuffer = nullptr,
    .clGetGLObjectInfo = nullptr,
    .clGetGLTextureInfo = nullptr,
    .clEnqueueAcquireGLObjects = nullptr,
    .clEnqueueReleaseGLObjects = nullptr,
    .clGetGLContextInfoKHR = nullptr,
    .clGetDeviceIDsFromD3D10KHR = nullptr,
    .clCreateFromD3D10BufferKHR = nullptr,
    .clCreateFromD3D10Texture2DKHR = nullptr,
    .clCreateFromD3D10Texture3DKHR = nullptr,
    .clEnqueueAcquireD3D10ObjectsKHR = nullptr,
    .clEnqueueReleaseD3D10ObjectsKHR = nullptr,
    .clSetEventCallback = &clSetEventCallback,
    .clCreateSubBuffer = &clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = &clSetMemObjectDestructorCallback,
    .clCreateUserEvent = &clCreateUserEvent,
    .clSetUserEventStatus = &clSetUserEventStatus,
    .clEnqueueReadBufferRect = &clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = &clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = &clEnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = nullptr,
    .clRetainDeviceEXT = nullptr,
    .clReleaseDeviceEXT = nullptr,
    .clCreateEventFromGLsyncKHR = nullptr,
    .clCreateSubDevices = &clCreateSubDevices,
    .clRetainDevice = &clRetainDevice,
    .clReleaseDevice = &clReleaseDevice,
    .clCreateImage = &clCreateImage,
    .clCreateProgramWithBuiltInKernels = &clCreateProgramWithBuiltInKernels,
    .clCompileProgram = &clCompileProgram,
    .clLinkProgram = &clLinkProgram,
    .clUnloadPlatformCompiler = &clUnloadPlatformCompiler,
    .clGetKernelArgInfo = &clGetKernelArgInfo,
    .clEnqueueFillBuffer = &clEnqueueFillBuffer,
    .clEnqueueFillImage = &clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = &clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = &clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = &clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = &clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = nullptr,
    .clGetDeviceIDsFromD3D11KHR = nullptr,
    .clCreateFromD3D11BufferKHR = nullptr,
    .clCreateFromD3D11Texture2DKHR = nullptr,
    .clCreateFromD3D11Texture3DKHR = nullptr,
    .clCreateFromDX9MediaSurfaceKHR = nullptr,
    .clEnqueueAcquireD3D11ObjectsKHR = nullptr,
    .clEnqueueReleaseD3D11ObjectsKHR = nullptr,
    .clGetDeviceIDsFromDX9MediaAdapterKHR = nullptr,
    .clEnqueueAcquireDX9MediaSurfacesKHR = nullptr,
    .clEnqueueReleaseDX9MediaSurfacesKHR = nullptr,
    .clCreateFromEGLImageKHR = nullptr,
    .clEnqueueAcquireEGLObjectsKHR = nullptr,
    .clEnqueueReleaseEGLObjectsKHR = nullptr,
    .clCreateEventFromEGLSyncKHR = nullptr,
    .clCreateCommandQueueWithProperties = &clCreateCommandQueueWithProperties,
    .clCreatePipe = &clCreatePipe,
    .clGetPipeInfo = &clGetPipeInfo,
    .clSVMAlloc = &clSVMAlloc,
    .clSVMFree = &clSVMFree,
    .clEnqueueSVMFree = &clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = &clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = &clEnqueueSVMMemFill,
    .clEnqueueSVMMap = &clEnqueueSVMMap,
    .clEnqueueSVMUnmap = &clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = &clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = &clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = &clSetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = nullptr,
    .clCloneKernel = &clCloneKernel,
    .clCreateProgramWithIL = &clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = &clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = &clGetDeviceAndHostTimer,
    .clGetHostTimer = &clGetHostTimer,
    .clGetKernelSubGroupInfo = &clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = &clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = &clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = &clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = &clCreateBufferWithProperties,
    .clCreateImageWithProperties = &clCreateImageWithProperties,
    .clSetContextDestructorCallback = &clSetContextDestructorCallback,
};

}  // namespace ventus::cl
