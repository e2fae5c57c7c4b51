// A 3-D NDRange with a global work offset over a sub-box of a 3-D array: every work-item
// records what the work-item functions tell it (global id, local id, group id, sizes,
// offset, work_dim) and the host checks each element against the definition in the
// OpenCL spec. Elements outside the sub-box must keep their initial value.
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
    "__kernel void where(__global int4 *ids, __global int4 *groups, __global int *misc,\n"
    "                    int nx, int ny) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  int i = (z * ny + y) * nx + x;\n"
    "  ids[i] = (int4)(x, y, z, (int)(get_local_id(0) + 10 * get_local_id(1)\n"
    "                                + 100 * get_local_id(2)));\n"
    "  groups[i] = (int4)(get_group_id(0), get_group_id(1), get_group_id(2),\n"
    "                     (int)(get_num_groups(0) * 10000 + get_num_groups(1) * 100\n"
    "                           + get_num_groups(2)));\n"
    "  misc[i] = (int)(get_work_dim() * 1000000 + get_global_offset(0) * 10000\n"
    "                  + get_global_offset(1) * 100 + get_global_offset(2))\n"
    "            + (int)(get_global_size(0) + get_global_size(1) + get_global_size(2)\n"
    "                    + get_local_size(0) + get_local_size(1) + get_local_size(2)) * 7;\n"
    "}\n";

int main(void) {
  enum { NX = 24, NY = 20, NZ = 12, TOTAL = NX * NY * NZ };
  const size_t offset[3] = {4, 2, 3}, global[3] = {16, 12, 8}, local[3] = {4, 4, 2};
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  cl_uint dims = 0;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(dims), &dims, NULL));
  if (dims < 3) {
    fprintf(stderr, "device has %u work-item dimensions\n", dims);
    return 1;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
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
  cl_kernel kernel = clCreateKernel(program, "where", &err);
  CHECK(err);

  // Initial contents: -7 everywhere, so untouched elements are recognizable.
  cl_mem dids = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL * sizeof(cl_int4), NULL, &err);
  CHECK(err);
  cl_mem dgroups = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL * sizeof(cl_int4), NULL, &err);
  CHECK(err);
  cl_mem dmisc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL * sizeof(cl_int), NULL, &err);
  CHECK(err);
  cl_int fill = -7;
  CHECK(clEnqueueFillBuffer(queue, dids, &fill, sizeof(fill), 0, TOTAL * sizeof(cl_int4), 0, NULL,
                            NULL));
  CHECK(clEnqueueFillBuffer(queue, dgroups, &fill, sizeof(fill), 0, TOTAL * sizeof(cl_int4), 0,
                            NULL, NULL));
  CHECK(clEnqueueFillBuffer(queue, dmisc, &fill, sizeof(fill), 0, TOTAL * sizeof(cl_int), 0, NULL,
                            NULL));

  cl_int nx = NX, ny = NY;
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dids));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dgroups));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dmisc));
  CHECK(clSetKernelArg(kernel, 3, sizeof(cl_int), &nx));
  CHECK(clSetKernelArg(kernel, 4, sizeof(cl_int), &ny));
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 3, offset, global, local, 0, NULL, NULL));

  static cl_int4 ids[TOTAL], groups[TOTAL];
  static cl_int misc[TOTAL];
  CHECK(clEnqueueReadBuffer(queue, dids, CL_TRUE, 0, sizeof(ids), ids, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dgroups, CL_TRUE, 0, sizeof(groups), groups, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dmisc, CL_TRUE, 0, sizeof(misc), misc, 0, NULL, NULL));

  int written = 0, untouched = 0, bad = 0;
  long long hash = 0;
  const int misc_expect = 3 * 1000000 + 4 * 10000 + 2 * 100 + 3 + (16 + 12 + 8 + 4 + 4 + 2) * 7;
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        int i = (z * NY + y) * NX + x;
        int inside = x >= 4 && x < 20 && y >= 2 && y < 14 && z >= 3 && z < 11;
        const cl_int *id = ids[i].s, *g = groups[i].s;
        if (!inside) {
          int keep = id[0] == -7 && id[3] == -7 && g[0] == -7 && g[3] == -7 && misc[i] == -7;
          untouched += keep;
          bad += !keep;
          continue;
        }
        ++written;
        // The spec: group id = (global id - offset) / local size, local id the remainder.
        int gx = (x - 4) / 4, gy = (y - 2) / 4, gz = (z - 3) / 2;
        int lid = (x - 4) % 4 + 10 * ((y - 2) % 4) + 100 * ((z - 3) % 2);
        int ok = id[0] == x && id[1] == y && id[2] == z && id[3] == lid && g[0] == gx &&
                 g[1] == gy && g[2] == gz && g[3] == 4 * 10000 + 3 * 100 + 4 &&
                 misc[i] == misc_expect;
        if (!ok && bad < 3)
          printf("mismatch at (%d,%d,%d): ids (%d,%d,%d,%d) groups (%d,%d,%d,%d) misc %d\n", x, y,
                 z, id[0], id[1], id[2], id[3], g[0], g[1], g[2], g[3], misc[i]);
        bad += !ok;
        hash = hash * 31 + id[3] + 7 * g[0] + 11 * g[1] + 13 * g[2];
        hash %= 1000000007;
      }
  printf("ndrange3d_offset: %dx%dx%d array, offset (4,2,3), global (16,12,8), local (4,4,2)\n", NX,
         NY, NZ);
  printf("written=%d untouched=%d hash=%lld\n", written, untouched, hash);
  printf("element (4,2,3): ids (%d,%d,%d,%d) groups (%d,%d,%d,%d) misc %d\n",
         ids[(3 * NY + 2) * NX + 4].s[0], ids[(3 * NY + 2) * NX + 4].s[1],
         ids[(3 * NY + 2) * NX + 4].s[2], ids[(3 * NY + 2) * NX + 4].s[3],
         groups[(3 * NY + 2) * NX + 4].s[0], groups[(3 * NY + 2) * NX + 4].s[1],
         groups[(3 * NY + 2) * NX + 4].s[2], groups[(3 * NY + 2) * NX + 4].s[3],
         misc[(3 * NY + 2) * NX + 4]);
  int last = (10 * NY + 13) * NX + 19;
  printf("element (19,13,10): ids (%d,%d,%d,%d) groups (%d,%d,%d,%d)\n", ids[last].s[0],
         ids[last].s[1], ids[last].s[2], ids[last].s[3], groups[last].s[0], groups[last].s[1],
         groups[last].s[2], groups[last].s[3]);
  printf("mismatches=%d\n%s\n", bad, bad == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(dids));
  CHECK(clReleaseMemObject(dgroups));
  CHECK(clReleaseMemObject(dmisc));
  CHECK(clReleaseKernel(kernel));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return bad == 0 ? 0 : 1;
}
