// Separate compilation (OpenCL 1.2): a header given to clCompileProgram as an in-memory
// program, two sources compiled to objects, one linked into a library with
// -create-library, then the kernel object and the library linked into an executable.
// The program binary types are checked at each step, and the linked kernel is run.
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

static const char *kHeader =
    "#define WEIGHT 3\n"
    "int weigh(int v);\n"
    "int clamp_to(int v, int hi);\n";
static const char *kLibrary =
    "#include \"mathlib/weights.h\"\n"
    "int weigh(int v) { return v * WEIGHT + 1; }\n"
    "int clamp_to(int v, int hi) { return v > hi ? hi : v; }\n";
static const char *kKernels =
    "#include \"mathlib/weights.h\"\n"
    "__kernel void apply(__global const int *in, __global int *out, int hi) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = clamp_to(weigh(in[i]), hi) + LOCAL_BIAS;\n"
    "}\n";

static void print_log(cl_program p, cl_device_id dev, const char *what, cl_int err) {
  size_t len = 0;
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
  char *log = malloc(len + 1);
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
  log[len] = '\0';
  fprintf(stderr, "%s failed (%d):\n%s\n", what, err, log);
  free(log);
}

static const char *type_name(cl_program p, cl_device_id dev) {
  cl_program_binary_type t = 0;
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof(t), &t, NULL));
  switch (t) {
    case CL_PROGRAM_BINARY_TYPE_NONE: return "NONE";
    case CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT: return "COMPILED_OBJECT";
    case CL_PROGRAM_BINARY_TYPE_LIBRARY: return "LIBRARY";
    case CL_PROGRAM_BINARY_TYPE_EXECUTABLE: return "EXECUTABLE";
    default: return "?";
  }
}

// Runs `apply` of a linked program on 1000 values; returns 1 on a wrong result.
static int run(cl_context ctx, cl_command_queue q, cl_program exe, cl_device_id device) {
  cl_int err;
  cl_build_status status;
  CHECK(clGetProgramBuildInfo(exe, device, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, NULL));
  printf("  build status: %s\n", status == CL_BUILD_SUCCESS ? "CL_BUILD_SUCCESS" : "other");
  cl_kernel k = clCreateKernel(exe, "apply", &err);
  CHECK(err);
  enum { N = 1000 };
  cl_int in[N], out[N];
  for (int i = 0; i < N; ++i) in[i] = i - 300;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err);
  CHECK(err);
  cl_int hi = 1500;
  CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
  CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &dout));
  CHECK(clSetKernelArg(k, 2, sizeof(cl_int), &hi));
  size_t global = N, local = 40;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
  int bad = 0;
  long long sum = 0;
  for (int i = 0; i < N; ++i) {
    int w = in[i] * 3 + 1;
    bad += out[i] != (w > hi ? hi : w) + 1000;
    sum += out[i];
  }
  printf("  out[0]=%d out[500]=%d out[999]=%d sum=%lld %s\n", out[0], out[500], out[999], sum,
         bad ? "FAIL" : "PASS");
  CHECK(clReleaseMemObject(din));
  CHECK(clReleaseMemObject(dout));
  CHECK(clReleaseKernel(k));
  return bad != 0;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
  cl_bool linker = CL_FALSE;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_LINKER_AVAILABLE, sizeof(linker), &linker, NULL));
  printf("linker available: %s\n", linker ? "yes" : "no");
  if (!linker) return 1;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);

  cl_program header = clCreateProgramWithSource(ctx, 1, &kHeader, NULL, &err);
  CHECK(err);
  const char *header_name = "mathlib/weights.h";
  cl_program lib_src = clCreateProgramWithSource(ctx, 1, &kLibrary, NULL, &err);
  CHECK(err);
  cl_program kern_src = clCreateProgramWithSource(ctx, 1, &kKernels, NULL, &err);
  CHECK(err);
  printf("before compiling: %s\n", type_name(lib_src, device));

  err = clCompileProgram(lib_src, 1, &device, "", 1, &header, &header_name, NULL, NULL);
  if (err != CL_SUCCESS) {
    print_log(lib_src, device, "clCompileProgram(library)", err);
    return 1;
  }
  err = clCompileProgram(kern_src, 1, &device, "-DLOCAL_BIAS=1000", 1, &header, &header_name, NULL,
                         NULL);
  if (err != CL_SUCCESS) {
    print_log(kern_src, device, "clCompileProgram(kernels)", err);
    return 1;
  }
  printf("compiled: %s, %s\n", type_name(lib_src, device), type_name(kern_src, device));

  // 1. The two objects linked directly into an executable.
  cl_program objects[2] = {kern_src, lib_src};
  cl_program exe1 = clLinkProgram(ctx, 1, &device, "", 2, objects, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    if (exe1)
      print_log(exe1, device, "clLinkProgram(objects)", err);
    else
      fprintf(stderr, "clLinkProgram(objects) failed (%d)\n", err);
    return 1;
  }
  printf("objects linked: %s\n", type_name(exe1, device));
  int failures = run(ctx, q, exe1, device);

  // 2. The library object made into a library, linked with the kernel object.
  cl_program library =
      clLinkProgram(ctx, 1, &device, "-create-library", 1, &lib_src, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clLinkProgram(-create-library) failed (%d)\n", err);
    return 1;
  }
  printf("library: %s\n", type_name(library, device));
  cl_program inputs[2] = {kern_src, library};
  cl_program exe2 = clLinkProgram(ctx, 1, &device, "", 2, inputs, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    if (exe2)
      print_log(exe2, device, "clLinkProgram(object, library)", err);
    else
      fprintf(stderr, "clLinkProgram(object, library) failed (%d)\n", err);
    return 1;
  }
  printf("object and library linked: %s\n", type_name(exe2, device));
  failures += run(ctx, q, exe2, device);
  printf("%s\n", failures ? "FAIL" : "PASS");

  cl_program ps[] = {header, lib_src, kern_src, exe1, library, exe2};
  for (int i = 0; i < 6; ++i) CHECK(clReleaseProgram(ps[i]));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
