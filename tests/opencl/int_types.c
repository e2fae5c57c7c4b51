// Integer types: char, short, uint and long (and their unsigned forms through the
// built-ins) with wrap-around arithmetic, division and remainder, shifts (OpenCL takes the
// shift count modulo the width), saturating and half-add built-ins, mul_hi, rotate, clz,
// popcount, mul24/mad24, upsample and saturating conversions. The host computes every
// result with the OpenCL definitions; each operation prints PASS or FAIL.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
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
    "#define KC 12\n"
    "__kernel void t_char(__global const char *a, __global const char *b, __global char *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  char x = a[i], y = b[i];\n"
    "  __global char *o = r + i * KC;\n"
    "  o[0] = x + y;\n"
    "  o[1] = x * y;\n"
    "  o[2] = y ? x / y : 0;\n"
    "  o[3] = y ? x % y : 0;\n"
    "  o[4] = x >> (y & 7);\n"
    "  o[5] = add_sat(x, y);\n"
    "  o[6] = sub_sat(x, y);\n"
    "  o[7] = (char)abs_diff(x, y);\n"
    "  o[8] = hadd(x, y);\n"
    "  o[9] = rhadd(x, y);\n"
    "  o[10] = mul_hi(x, y);\n"
    "  o[11] = (char)(clz(x) * 16 + popcount(x));\n"
    "}\n"
    "#define KS 10\n"
    "__kernel void t_short(__global const short *a, __global const short *b, __global short *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  short x = a[i], y = b[i];\n"
    "  __global short *o = r + i * KS;\n"
    "  o[0] = x - y;\n"
    "  o[1] = x * y;\n"
    "  o[2] = y ? x / y : 0;\n"
    "  o[3] = y ? x % y : 0;\n"
    "  o[4] = (ushort)x >> (y & 15);\n"
    "  o[5] = add_sat(x, y);\n"
    "  o[6] = mul_hi(x, y);\n"
    "  o[7] = rotate(x, y);\n"
    "  o[8] = (short)(clz(x) + 100 * popcount(x));\n"
    "  o[9] = max(x, y) - min(x, y) / 2;\n"
    "}\n"
    "#define KU 12\n"
    "__kernel void t_uint(__global const uint *a, __global const uint *b, __global uint *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint x = a[i], y = b[i];\n"
    "  __global uint *o = r + i * KU;\n"
    "  o[0] = x * y + 7u;\n"
    "  o[1] = y ? x / y : 0u;\n"
    "  o[2] = y ? x % y : 0u;\n"
    "  o[3] = x << y;  // count modulo 32\n"
    "  o[4] = x >> y;\n"
    "  o[5] = mul_hi(x, y);\n"
    "  o[6] = rotate(x, y);\n"
    "  o[7] = clz(x) * 64u + popcount(x);\n"
    "  o[8] = mad24(x & 0xffffffu, y & 0xffffffu, x);\n"
    "  o[9] = upsample((ushort)(x >> 3), (ushort)y);\n"
    "  o[10] = add_sat(x, y) ^ sub_sat(x, y);\n"
    "  o[11] = abs_diff((int)x, (int)y) + (uint)((int)x >> (y & 31));\n"
    "}\n"
    "#define KL 13\n"
    "__kernel void t_long(__global const long *a, __global const long *b, __global long *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  long x = a[i], y = b[i];\n"
    "  ulong ux = (ulong)x, uy = (ulong)y;\n"
    "  __global long *o = r + i * KL;\n"
    "  o[0] = x + y;\n"
    "  o[1] = x * y;\n"
    "  o[2] = y ? x / y : 0;\n"
    "  o[3] = y ? x % y : 0;\n"
    "  o[4] = uy ? (long)(ux / uy) : 0;\n"
    "  o[5] = uy ? (long)(ux % uy) : 0;\n"
    "  o[6] = (x >> y) ^ (long)(ux << y);  // counts modulo 64\n"
    "  o[7] = mul_hi(x, y);\n"
    "  o[8] = (long)mul_hi(ux, uy);\n"
    "  o[9] = rotate(x, y);\n"
    "  o[10] = clz(x) * 128 + popcount(y);\n"
    "  o[11] = upsample((int)(x >> 40), (uint)y) + (long)(int)x;\n"
    "  o[12] = (long)convert_int_sat(x) + (long)convert_uchar_sat(y) * 3;\n"
    "}\n";

enum { N = 2048, KC = 12, KS = 10, KU = 12, KL = 13 };

static cl_ulong rng_state = 0x9e3779b97f4a7c15ull;
static cl_ulong next64(void) {  // splitmix64
  cl_ulong z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int clz_n(uint64_t v, int bits) {
  int n = 0;
  for (int b = bits - 1; b >= 0 && !((v >> b) & 1); --b) ++n;
  return n;
}
static int popcount_n(uint64_t v, int bits) {
  int n = 0;
  for (int b = 0; b < bits; ++b) n += (v >> b) & 1;
  return n;
}
static int sat(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static int failures;
static void report(const char *type, int op, int bad, int total) {
  if (bad) printf("%s op %d: FAIL (%d of %d)\n", type, op, bad, total);
  failures += bad != 0;
}

static cl_program build(cl_context ctx, cl_device_id dev) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  err = clBuildProgram(p, 1, &dev, NULL, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
    exit(1);
  }
  return p;
}

static cl_context ctx;
static cl_command_queue q;
static cl_program program;

// Runs kernel `name` on inputs a, b (elem bytes each, N elements); r gets k results each.
static void run(const char *name, const void *a, const void *b, void *r, size_t elem, int k) {
  cl_int err;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  CHECK(err);
  cl_mem da =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * elem, (void *)a, &err);
  CHECK(err);
  cl_mem db =
      clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * elem, (void *)b, &err);
  CHECK(err);
  cl_mem dr = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * elem * k, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
  CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
  CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dr));
  size_t global = N, local = 64;
  CHECK(clEnqueueNDRangeKernel(q, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dr, CL_TRUE, 0, N * elem * k, r, 0, NULL, NULL));
  CHECK(clReleaseMemObject(da));
  CHECK(clReleaseMemObject(db));
  CHECK(clReleaseMemObject(dr));
  CHECK(clReleaseKernel(kernel));
}

static cl_uint fold(const void *p, size_t bytes) {
  const unsigned char *c = p;
  cl_uint h = 2166136261u;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 16777619u;
  return h;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, device, 0, &err);
  CHECK(err);
  program = build(ctx, device);

  // Inputs: random bits, with the edge values at the front.
  static cl_char ca[N], cb[N], cr[N * KC];
  static cl_short sa[N], sb[N], sr[N * KS];
  static cl_uint ua[N], ub[N], ur[N * KU];
  static cl_long la[N], lb[N], lr[N * KL];
  for (int i = 0; i < N; ++i) {
    cl_ulong v = next64(), w = next64();
    ca[i] = (cl_char)v;
    cb[i] = (cl_char)(v >> 8);
    sa[i] = (cl_short)(v >> 16);
    sb[i] = (cl_short)(v >> 32);
    ua[i] = (cl_uint)w;
    ub[i] = (cl_uint)(w >> 32);
    la[i] = (cl_long)next64();
    lb[i] = (cl_long)next64();
    if (i % 5 == 1) lb[i] >>= 40;  // small divisors too
    if (i % 7 == 2) ub[i] &= 0xff;
  }
  const cl_char cedge[][2] = {{-128, -1}, {127, 1}, {-128, 127}, {0, -128}, {-1, -1}, {100, 100}};
  for (int i = 0; i < 6; ++i) {
    ca[i] = cedge[i][0];
    cb[i] = cedge[i][1];
  }
  sa[0] = -32768, sb[0] = -1, sa[1] = 32767, sb[1] = 32767, sa[2] = 0, sb[2] = 17;
  ua[0] = 0xffffffffu, ub[0] = 0xffffffffu, ua[1] = 0, ub[1] = 33, ua[2] = 1u << 31, ub[2] = 64;
  la[0] = INT64_MIN, lb[0] = 1, la[1] = INT64_MAX, lb[1] = -1, la[2] = -1, lb[2] = 65;
  la[3] = 123456789012345ll, lb[3] = 0;

  run("t_char", ca, cb, cr, 1, KC);
  run("t_short", sa, sb, sr, 2, KS);
  run("t_uint", ua, ub, ur, 4, KU);
  run("t_long", la, lb, lr, 8, KL);

  // char
  int bad[16] = {0};
  for (int i = 0; i < N; ++i) {
    int x = ca[i], y = cb[i];
    int e[KC];
    e[0] = (cl_char)(x + y);
    e[1] = (cl_char)(x * y);
    e[2] = y ? (cl_char)(x / y) : 0;
    e[3] = y ? (cl_char)(x % y) : 0;
    e[4] = (cl_char)(x >> (y & 7));
    e[5] = sat(x + y, -128, 127);
    e[6] = sat(x - y, -128, 127);
    e[7] = (cl_char)(cl_uchar)abs(x - y);
    e[8] = (x + y) >> 1;
    e[9] = (x + y + 1) >> 1;
    e[10] = (cl_char)((x * y) >> 8);
    e[11] = (cl_char)(clz_n((cl_uchar)x, 8) * 16 + popcount_n((cl_uchar)x, 8));
    for (int k = 0; k < KC; ++k) bad[k] += cr[i * KC + k] != e[k];
  }
  for (int k = 0; k < KC; ++k) report("char", k, bad[k], N);
  printf("char:  %d operations, hash=%u\n", KC, fold(cr, sizeof(cr)));

  // short
  for (int k = 0; k < 16; ++k) bad[k] = 0;
  for (int i = 0; i < N; ++i) {
    int x = sa[i], y = sb[i];
    int e[KS];
    e[0] = (cl_short)(x - y);
    e[1] = (cl_short)(x * y);
    e[2] = y ? (cl_short)(x / y) : 0;
    e[3] = y ? (cl_short)(x % y) : 0;
    e[4] = (cl_short)((cl_ushort)x >> (y & 15));
    e[5] = sat(x + y, -32768, 32767);
    e[6] = (cl_short)((x * y) >> 16);
    int r = y & 15;
    cl_ushort ux = (cl_ushort)x;
    e[7] = (cl_short)(cl_ushort)(r ? (ux << r) | (ux >> (16 - r)) : ux);
    e[8] = (cl_short)(clz_n(ux, 16) + 100 * popcount_n(ux, 16));
    int mx = x > y ? x : y, mn = x < y ? x : y;
    e[9] = (cl_short)(mx - mn / 2);
    for (int k = 0; k < KS; ++k) bad[k] += sr[i * KS + k] != e[k];
  }
  for (int k = 0; k < KS; ++k) report("short", k, bad[k], N);
  printf("short: %d operations, hash=%u\n", KS, fold(sr, sizeof(sr)));

  // uint
  for (int k = 0; k < 16; ++k) bad[k] = 0;
  for (int i = 0; i < N; ++i) {
    cl_uint x = ua[i], y = ub[i], e[KU];
    e[0] = x * y + 7u;
    e[1] = y ? x / y : 0u;
    e[2] = y ? x % y : 0u;
    e[3] = x << (y & 31);
    e[4] = x >> (y & 31);
    e[5] = (cl_uint)(((cl_ulong)x * y) >> 32);
    cl_uint r = y & 31;
    e[6] = r ? (x << r) | (x >> (32 - r)) : x;
    e[7] = (cl_uint)(clz_n(x, 32) * 64 + popcount_n(x, 32));
    e[8] = (x & 0xffffffu) * (y & 0xffffffu) + x;
    e[9] = ((cl_uint)(cl_ushort)(x >> 3) << 16) | (cl_ushort)y;
    cl_uint as = x + y < x ? 0xffffffffu : x + y, ss = x < y ? 0u : x - y;
    e[10] = as ^ ss;
    int64_t d = (int64_t)(cl_int)x - (int64_t)(cl_int)y;
    e[11] = (cl_uint)(d < 0 ? -d : d) + (cl_uint)((cl_int)x >> (y & 31));
    for (int k = 0; k < KU; ++k) bad[k] += ur[i * KU + k] != e[k];
  }
  for (int k = 0; k < KU; ++k) report("uint", k, bad[k], N);
  printf("uint:  %d operations, hash=%u\n", KU, fold(ur, sizeof(ur)));

  // long
  for (int k = 0; k < 16; ++k) bad[k] = 0;
  for (int i = 0; i < N; ++i) {
    int64_t x = la[i], y = lb[i];
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    int64_t e[KL];
    e[0] = (int64_t)(ux + uy);
    e[1] = (int64_t)(ux * uy);
    // INT64_MIN / -1 overflows (undefined in OpenCL C too): the inputs avoid it.
    e[2] = y ? x / y : 0;
    e[3] = y ? x % y : 0;
    e[4] = uy ? (int64_t)(ux / uy) : 0;
    e[5] = uy ? (int64_t)(ux % uy) : 0;
    e[6] = (x >> (y & 63)) ^ (int64_t)(ux << (y & 63));
    e[7] = (int64_t)(((__int128)x * y) >> 64);
    e[8] = (int64_t)(uint64_t)(((unsigned __int128)ux * uy) >> 64);
    int r = (int)(y & 63);
    e[9] = (int64_t)(r ? (ux << r) | (ux >> (64 - r)) : ux);
    e[10] = clz_n(ux, 64) * 128 + popcount_n(uy, 64);
    e[11] = (int64_t)(((uint64_t)(uint32_t)(int32_t)(x >> 40) << 32) | (uint32_t)y) +
            (int64_t)(int32_t)x;
    int64_t cs = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
    int64_t cu = y > 255 ? 255 : y < 0 ? 0 : y;
    e[12] = cs + cu * 3;
    for (int k = 0; k < KL; ++k) bad[k] += lr[i * KL + k] != e[k];
  }
  for (int k = 0; k < KL; ++k) report("long", k, bad[k], N);
  printf("long:  %d operations, hash=%u\n", KL, fold(lr, sizeof(lr)));
  printf(
      "long: INT64_MIN+1=%lld, INT64_MAX*-1=%lld, (-1>>65)^(-1<<65)=%lld, 123456789012345/0 "
      "guarded=%lld\n",
      (long long)lr[0 * KL + 0], (long long)lr[1 * KL + 1], (long long)(lr[2 * KL + 6]),
      (long long)lr[3 * KL + 2]);

  printf("%s\n", failures ? "FAIL" : "PASS");
  CHECK(clReleaseProgram(program));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return failures ? 1 : 0;
}
