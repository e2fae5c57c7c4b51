/* An ordinary OpenCL host program: y = a * x + y over n elements, checked on the host.
 * It names no vendor; scripts/example.sh runs it on the Ventus platform through the ICD
 * loader (OCL_ICD_VENDORS=build/ventus.icd). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int status_ = (call);                                                   \
    if (status_ != CL_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, status_); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const char* kSource =
    "kernel void saxpy(float a, global const float* x, global float* y, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

int main(void) {
  enum { n = 5000 };
  const float a = 2.5f;
  static float x[n], y[n], expected[n];
  for (int i = 0; i < n; ++i) {
    x[i] = (float)((i * 7919 + 13) % 16384 - 8192) / 1024;
    y[i] = (float)((i * 104729 + 7) % 16384 - 8192) / 1024;
    expected[i] = a * x[i] + y[i]; /* exact: multiples of 1/1024 */
  }

  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  char platform_name[64], device_name[128];
  CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL));
  printf("platform: %s\ndevice:   %s\n", platform_name, device_name);

  cl_int status;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
  CHECK(status);
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  CHECK(status);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &status);
  CHECK(status);
  if (clBuildProgram(program, 1, &device, "-O2", NULL, NULL) != CL_SUCCESS) {
    char log[4096];
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s", log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "saxpy", &status);
  CHECK(status);
  cl_mem x_buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &status);
  CHECK(status);
  cl_mem y_buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y, y, &status);
  CHECK(status);
  const cl_int count = n;
  CHECK(clSetKernelArg(kernel, 0, sizeof a, &a));
  CHECK(clSetKernelArg(kernel, 1, sizeof x_buffer, &x_buffer));
  CHECK(clSetKernelArg(kernel, 2, sizeof y_buffer, &y_buffer));
  CHECK(clSetKernelArg(kernel, 3, sizeof count, &count));
  const size_t global = 5120, local = 128;
  cl_event done;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, &done));
  CHECK(clEnqueueReadBuffer(queue, y_buffer, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
  cl_ulong start, end;
  CHECK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
  CHECK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));

  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != expected[i];
  printf("saxpy over %d elements: %d wrong, kernel %.2f ms\n", n, wrong, (end - start) / 1e6);

  clReleaseEvent(done);
  clReleaseMemObject(x_buffer);
  clReleaseMemObject(y_buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong == 0 ? 0 : 1;
}
