// Sub-buffers: one parent buffer split into regions with clCreateSubBuffer; kernels work on
// the regions as if they were whole buffers (index 0 = the region's origin), reads and
// writes through a sub-buffer land in the parent, and the parts outside the regions stay
// untouched. Origins are multiples of 4 KiB, which must satisfy the device's
// CL_DEVICE_MEM_BASE_ADDR_ALIGN (checked).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cl_int err_ = (call);                                                             \
    if (err_ != CL_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call, err_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static const char *kSource =
    "__kernel void scale_add(__global int *v, int mul, int add) {\n"
    "  size_t i = get_global_id(0);\n"
    "  v[i] = v[i] * mul + add + (int)i;\n"
    "}\n"
    "__kernel void sum_into(__global const int *a, __global const int *b, __global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
  enum { N = 4096, REGION = 1024, R0 = 1024, R1 = 2048, R2 = 3072 };  // in ints
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  cl_uint align_bits = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits,
                        NULL));
  if (align_bits == 0 || (4096 * 8) % align_bits != 0) {
    fprintf(stderr, "sub-buffer origins of 4 KiB are not aligned for this device (%u bits)\n",
            align_bits);
    return 1;
  }
  printf("4 KiB origins satisfy CL_DEVICE_MEM_BASE_ADDR_ALIGN: yes\n");
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
    return 1;
  }
  cl_kernel kscale = clCreateKernel(program, "scale_add", &err);
  CHECK(err);
  cl_kernel ksum = clCreateKernel(program, "sum_into", &err);
  CHECK(err);

  static cl_int host[N], ref[N];
  for (int i = 0; i < N; ++i) host[i] = ref[i] = (i * 37) % 1000 - 500;
  cl_mem parent =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host), host, &err);
  CHECK(err);
  cl_mem sub[3];
  const int origin[3] = {R0, R1, R2};
  for (int s = 0; s < 3; ++s) {
    cl_buffer_region r = {origin[s] * sizeof(cl_int), REGION * sizeof(cl_int)};
    sub[s] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK(err);
  }
  // Only the first half of region 2 is used: the kernel writes it and reads region 0, 1.
  cl_mem half;
  cl_buffer_region hr = {R2 * sizeof(cl_int), REGION / 2 * sizeof(cl_int)};
  half = clCreateSubBuffer(parent, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &hr, &err);
  CHECK(err);

  size_t global = REGION, local = 64;
  // Region 0: v = v * 2 + 5 + i ; region 1: v = v * -1 + 0 + i.
  cl_int mul = 2, add = 5;
  CHECK(clSetKernelArg(kscale, 0, sizeof(cl_mem), &sub[0]));
  CHECK(clSetKernelArg(kscale, 1, sizeof(cl_int), &mul));
  CHECK(clSetKernelArg(kscale, 2, sizeof(cl_int), &add));
  CHECK(clEnqueueNDRangeKernel(q, kscale, 1, NULL, &global, &local, 0, NULL, NULL));
  for (int i = 0; i < REGION; ++i) ref[R0 + i] = ref[R0 + i] * 2 + 5 + i;
  mul = -1;
  add = 0;
  CHECK(clSetKernelArg(kscale, 0, sizeof(cl_mem), &sub[1]));
  CHECK(clSetKernelArg(kscale, 1, sizeof(cl_int), &mul));
  CHECK(clSetKernelArg(kscale, 2, sizeof(cl_int), &add));
  CHECK(clEnqueueNDRangeKernel(q, kscale, 1, NULL, &global, &local, 0, NULL, NULL));
  for (int i = 0; i < REGION; ++i) ref[R1 + i] = -ref[R1 + i] + i;
  // half = region0 + region1 (first REGION/2 elements).
  size_t hglobal = REGION / 2;
  CHECK(clSetKernelArg(ksum, 0, sizeof(cl_mem), &sub[0]));
  CHECK(clSetKernelArg(ksum, 1, sizeof(cl_mem), &sub[1]));
  CHECK(clSetKernelArg(ksum, 2, sizeof(cl_mem), &half));
  CHECK(clEnqueueNDRangeKernel(q, ksum, 1, NULL, &hglobal, &local, 0, NULL, NULL));
  for (int i = 0; i < REGION / 2; ++i) ref[R2 + i] = ref[R0 + i] + ref[R1 + i];

  // Write through sub-buffer 2 at an offset inside it: elements 600..609 of region 2.
  cl_int ten[10];
  for (int i = 0; i < 10; ++i) ten[i] = 424242 + i;
  CHECK(clEnqueueWriteBuffer(q, sub[2], CL_TRUE, 600 * sizeof(cl_int), sizeof(ten), ten, 0, NULL,
                             NULL));
  for (int i = 0; i < 10; ++i) ref[R2 + 600 + i] = ten[i];

  // Read a sub-buffer directly, then the whole parent.
  cl_int first[8];
  CHECK(clEnqueueReadBuffer(q, sub[1], CL_TRUE, 0, sizeof(first), first, 0, NULL, NULL));
  static cl_int result[N];
  CHECK(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, sizeof(result), result, 0, NULL, NULL));

  int bad = 0, bad_first = 0;
  cl_uint hash = 0;
  for (int i = 0; i < N; ++i) {
    bad += result[i] != ref[i];
    hash = hash * 31u + (cl_uint)result[i];
  }
  for (int i = 0; i < 8; ++i) bad_first += first[i] != ref[R1 + i];

  // Queries: the parent and the offset of each sub-buffer.
  int ok_info = 1;
  for (int s = 0; s < 3; ++s) {
    cl_mem assoc = NULL;
    size_t off = 0, size = 0;
    CHECK(clGetMemObjectInfo(sub[s], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
    CHECK(clGetMemObjectInfo(sub[s], CL_MEM_OFFSET, sizeof(off), &off, NULL));
    CHECK(clGetMemObjectInfo(sub[s], CL_MEM_SIZE, sizeof(size), &size, NULL));
    ok_info &=
        assoc == parent && off == origin[s] * sizeof(cl_int) && size == REGION * sizeof(cl_int);
  }

  printf("sub_buffers: parent of %d ints, regions at %d, %d, %d\n", N, R0, R1, R2);
  printf("parent[0]=%d parent[%d]=%d parent[%d]=%d parent[%d]=%d parent[%d]=%d\n", result[0], R0,
         result[R0], R1 + 5, result[R1 + 5], R2 + 100, result[R2 + 100], R2 + 605,
         result[R2 + 605]);
  printf("hash=%u\n", hash);
  printf("parent contents: %s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
  printf("read through sub-buffer: %s\n", bad_first ? "FAIL" : "PASS");
  printf("sub-buffer info: %s\n", ok_info ? "PASS" : "FAIL");
  int ok = !bad && !bad_first && ok_info;
  printf("%s\n", ok ? "PASS" : "FAIL");

  for (int s = 0; s < 3; ++s) CHECK(clReleaseMemObject(sub[s]));
  CHECK(clReleaseMemObject(half));
  CHECK(clReleaseMemObject(parent));
  CHECK(clReleaseKernel(kscale));
  CHECK(clReleaseKernel(ksum));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return ok ? 0 : 1;
}
