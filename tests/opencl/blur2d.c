// Image processing on a 2-D NDRange: a grayscale image (uchar, 160x120) in a plain buffer,
// a 5x5 Gaussian blur (integer weights 1 4 6 4 1, clamp-to-edge borders, rounded) and a
// Sobel edge magnitude on the blurred image. Each work-item computes one pixel; the
// work-group is 16x8 and the image is a whole number of groups.
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
    "__constant int w5[5] = {1, 4, 6, 4, 1};\n"
    "\n"
    "uchar at(__global const uchar *img, int x, int y, int w, int h) {\n"
    "  x = clamp(x, 0, w - 1);\n"
    "  y = clamp(y, 0, h - 1);\n"
    "  return img[y * w + x];\n"
    "}\n"
    "\n"
    "__kernel void gauss5(__global const uchar *src, __global uchar *dst) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int w = get_global_size(0), h = get_global_size(1);\n"
    "  int sum = 0;\n"
    "  for (int dy = -2; dy <= 2; ++dy)\n"
    "    for (int dx = -2; dx <= 2; ++dx)\n"
    "      sum += w5[dy + 2] * w5[dx + 2] * at(src, x + dx, y + dy, w, h);\n"
    "  dst[y * w + x] = (uchar)((sum + 128) >> 8);\n"
    "}\n"
    "\n"
    "__kernel void sobel(__global const uchar *src, __global uchar *dst) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int w = get_global_size(0), h = get_global_size(1);\n"
    "  int gx = -at(src, x - 1, y - 1, w, h) - 2 * at(src, x - 1, y, w, h) - at(src, x - 1, y + 1, "
    "w, h)\n"
    "           + at(src, x + 1, y - 1, w, h) + 2 * at(src, x + 1, y, w, h) + at(src, x + 1, y + "
    "1, w, h);\n"
    "  int gy = -at(src, x - 1, y - 1, w, h) - 2 * at(src, x, y - 1, w, h) - at(src, x + 1, y - 1, "
    "w, h)\n"
    "           + at(src, x - 1, y + 1, w, h) + 2 * at(src, x, y + 1, w, h) + at(src, x + 1, y + "
    "1, w, h);\n"
    "  dst[y * w + x] = convert_uchar_sat(abs(gx) + abs(gy));\n"
    "}\n";

enum { W = 160, H = 120 };

static int clampi(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static int px(const unsigned char *img, int x, int y) {
  return img[clampi(y, 0, H - 1) * W + clampi(x, 0, W - 1)];
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
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
  cl_kernel kgauss = clCreateKernel(program, "gauss5", &err);
  CHECK(err);
  cl_kernel ksobel = clCreateKernel(program, "sobel", &err);
  CHECK(err);

  // A synthetic picture: a bright disc, a ramp, a checkerboard corner, a little noise.
  static unsigned char img[W * H], blur[W * H], edges[W * H];
  static unsigned char ref_blur[W * H], ref_edges[W * H];
  cl_uint seed = 99u;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int v = x;  // ramp
      int dx = x - 100, dy = y - 50;
      if (dx * dx + dy * dy < 30 * 30) v = 230;
      if (x < 40 && y < 40 && ((x / 8 + y / 8) & 1)) v = 20;
      seed = seed * 1664525u + 1013904223u;
      v += (int)(seed >> 29) - 4;
      img[y * W + x] = (unsigned char)clampi(v, 0, 255);
    }
  static const int w5[5] = {1, 4, 6, 4, 1};
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int sum = 0;
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) sum += w5[dy + 2] * w5[dx + 2] * px(img, x + dx, y + dy);
      ref_blur[y * W + x] = (unsigned char)((sum + 128) >> 8);
    }
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const unsigned char *s = ref_blur;
      int gx = -px(s, x - 1, y - 1) - 2 * px(s, x - 1, y) - px(s, x - 1, y + 1) +
               px(s, x + 1, y - 1) + 2 * px(s, x + 1, y) + px(s, x + 1, y + 1);
      int gy = -px(s, x - 1, y - 1) - 2 * px(s, x, y - 1) - px(s, x + 1, y - 1) +
               px(s, x - 1, y + 1) + 2 * px(s, x, y + 1) + px(s, x + 1, y + 1);
      ref_edges[y * W + x] = (unsigned char)clampi(abs(gx) + abs(gy), 0, 255);
    }

  cl_mem dimg =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(img), img, &err);
  CHECK(err);
  cl_mem dblur = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(img), NULL, &err);
  CHECK(err);
  cl_mem dedges = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(img), NULL, &err);
  CHECK(err);
  size_t global[2] = {W, H}, local[2] = {16, 8};
  CHECK(clSetKernelArg(kgauss, 0, sizeof(cl_mem), &dimg));
  CHECK(clSetKernelArg(kgauss, 1, sizeof(cl_mem), &dblur));
  CHECK(clEnqueueNDRangeKernel(queue, kgauss, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clSetKernelArg(ksobel, 0, sizeof(cl_mem), &dblur));
  CHECK(clSetKernelArg(ksobel, 1, sizeof(cl_mem), &dedges));
  CHECK(clEnqueueNDRangeKernel(queue, ksobel, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dblur, CL_TRUE, 0, sizeof(blur), blur, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, dedges, CL_TRUE, 0, sizeof(edges), edges, 0, NULL, NULL));

  int bad_blur = 0, bad_edges = 0;
  cl_uint sum_blur = 0, sum_edges = 0;
  for (int i = 0; i < W * H; ++i) {
    bad_blur += blur[i] != ref_blur[i];
    bad_edges += edges[i] != ref_edges[i];
    sum_blur += blur[i] * (cl_uint)(i % 251 + 1);
    sum_edges += edges[i] * (cl_uint)(i % 241 + 1);
  }
  printf("blur2d: %dx%d image, 2-D NDRange, work-group 16x8\n", W, H);
  printf("blurred checksum=%u edges checksum=%u\n", sum_blur, sum_edges);
  // A coarse picture of the edge map: one character per 10x10 block (its maximum).
  for (int by = 0; by < H; by += 10) {
    char line[W / 10 + 1];
    for (int bx = 0; bx < W; bx += 10) {
      int m = 0;
      for (int y = by; y < by + 10; ++y)
        for (int x = bx; x < bx + 10; ++x)
          if (edges[y * W + x] > m) m = edges[y * W + x];
      line[bx / 10] = " .:-=+*#%@"[m * 10 / 256];
    }
    line[W / 10] = '\0';
    printf("|%s|\n", line);
  }
  printf("gauss5: %s (%d mismatches)\n", bad_blur ? "FAIL" : "PASS", bad_blur);
  printf("sobel: %s (%d mismatches)\n", bad_edges ? "FAIL" : "PASS", bad_edges);
  printf("%s\n", bad_blur + bad_edges == 0 ? "PASS" : "FAIL");

  CHECK(clReleaseMemObject(dimg));
  CHECK(clReleaseMemObject(dblur));
  CHECK(clReleaseMemObject(dedges));
  CHECK(clReleaseKernel(kgauss));
  CHECK(clReleaseKernel(ksobel));
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(ctx));
  return bad_blur + bad_edges == 0 ? 0 : 1;
}
