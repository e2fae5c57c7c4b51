// The builtin library's integer, relational, conversion, vector load/store (half included),
// shuffle, common/geometric and atomic functions on pocl, against host reference code:
// exhaustive over 8-bit (and 16-bit unary) inputs, random with edge values for wider
// ones; scalar and vector forms (the vector wrappers are generated, so widths 3 and 16
// exercise every path: elements, and halves down to 2).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>

#include "library_test_util.h"

namespace ventus::libtest {
namespace {

using i128 = __int128;

// ---- integer types ----
struct IntType {
  const char* name;   // OpenCL type
  const char* uname;  // its unsigned type
  int bits;
  bool is_signed;
  i128 min() const { return is_signed ? -(i128(1) << (bits - 1)) : 0; }
  i128 max() const { return is_signed ? (i128(1) << (bits - 1)) - 1 : (i128(1) << bits) - 1; }
  // The value of raw bits (low `bits` of u) as this type.
  i128 value(uint64_t u) const {
    u = bits == 64 ? u : (u & ((uint64_t(1) << bits) - 1));
    if (is_signed && bits < 64 && (u >> (bits - 1)) & 1) return i128(u) - (i128(1) << bits);
    if (is_signed && bits == 64) return i128(int64_t(u));
    return i128(u);
  }
  uint64_t bits_of(i128 v) const {
    uint64_t u = uint64_t(v);
    return bits == 64 ? u : (u & ((uint64_t(1) << bits) - 1));
  }
  size_t size() const { return size_t(bits / 8); }
};

const IntType kInts[] = {{"char", "uchar", 8, true},    {"uchar", "uchar", 8, false},
                         {"short", "ushort", 16, true}, {"ushort", "ushort", 16, false},
                         {"int", "uint", 32, true},     {"uint", "uint", 32, false},
                         {"long", "ulong", 64, true},   {"ulong", "ulong", 64, false}};

// Host arrays of any element size as raw bytes.
struct Raw {
  size_t elem;
  std::vector<uint8_t> bytes;
  Raw(size_t e, size_t n) : elem(e), bytes(e * n) {}
  size_t size() const { return bytes.size() / elem; }
  uint64_t get(size_t i) const {
    uint64_t u = 0;
    std::memcpy(&u, &bytes[i * elem], elem);
    return u;
  }
  void set(size_t i, uint64_t u) { std::memcpy(&bytes[i * elem], &u, elem); }
};

std::string load(int n, const char* p) {
  return n == 1 ? std::string(p) + "[i]" : "vload" + std::to_string(n) + "(i, " + p + ")";
}
std::string vec(const std::string& t, int n) {
  return n == 1 ? t : t + std::to_string(n);
}
std::string store(int n, const std::string& v, const char* p) {
  return n == 1 ? std::string(p) + "[i] = " + v
                : "vstore" + std::to_string(n) + "(" + v + ", i, " + p + ")";
}

// ---- integer functions: ids shared by the kernel generator and the reference ----
enum IntFn {
  kAbs,
  kAbsDiff,
  kAddSat,
  kSubSat,
  kHadd,
  kRhadd,
  kMax,
  kMin,
  kMulHi,
  kRotate,
  kClz,
  kCtz,
  kPopcount,
  kClamp,
  kMadHi,
  kMadSat,
  kMaxS,
  kMinS,
  kClampS,
  kMul24,
  kMad24,
  kIntFnCount
};
const char* const kIntFnNames[] = {"abs",      "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd",
                                   "max",      "min",      "mul_hi",  "rotate",  "clz",  "ctz",
                                   "popcount", "clamp",    "mad_hi",  "mad_sat", "max",  "min",
                                   "clamp",    "mul24",    "mad24"};

// Vector widths checked per type: 4 everywhere (4 -> 2 -> scalar), 3 and 16 on some.
std::vector<int> int_widths(const IntType& t) {
  if (std::string(t.name) == "int") return {1, 3, 4, 16};
  if (std::string(t.name) == "char") return {1, 3, 4};
  return {1, 4};
}

std::string int_kernel(const IntType& t, int n) {
  std::string T = vec(t.name, n), UT = vec(t.uname, n);
  std::string name = std::string("ki_") + t.name + "_" + std::to_string(n);
  std::string s = "kernel void " + name + "(global const " + t.name + "* x, global const " +
                  t.name + "* y, global const " + t.name + "* z, global " + t.uname +
                  "* r, int fn) {\n  size_t i = get_global_id(0);\n  " + T +
                  " a = " + load(n, "x") + ", b = " + load(n, "y") + ", c = " + load(n, "z") +
                  ";\n  " + UT + " v = 0;\n";
  std::string bs = n == 1 ? "b" : "b.s0", cs = n == 1 ? "c" : "c.s0";
  s += "  switch (fn) {\n";
  auto as_u = [&](const std::string& e) { return "as_" + UT + "(" + e + ")"; };
  for (int f = 0; f < kIntFnCount; ++f) {
    std::string call = std::string("VT_CL(") + kIntFnNames[f] + ")";
    std::string e;
    switch (f) {
      case kAbs: e = call + "(a)"; break;
      case kAbsDiff: e = call + "(a, b)"; break;
      case kClz:
      case kCtz:
      case kPopcount: e = as_u(call + "(a)"); break;
      case kClamp:
      case kMadHi:
      case kMadSat: e = as_u(call + "(a, b, c)"); break;
      case kMaxS:
      case kMinS:
        if (n == 1) continue;
        e = as_u(call + "(a, " + bs + ")");
        break;
      case kClampS:
        if (n == 1) continue;
        e = as_u(call + "(a, " + bs + ", " + cs + ")");
        break;
      case kMul24:
      case kMad24:
        if (t.bits != 32) continue;
        e = as_u(call + (f == kMul24 ? "(a, b)" : "(a, b, c)"));
        break;
      default: e = as_u(call + "(a, b)");
    }
    s += "    case " + std::to_string(f) + ": v = " + e + "; break;\n";
  }
  s += "  }\n  " + store(n, "v", "r") + ";\n}\n";
  return s;
}

i128 sat(const IntType& t, i128 v) {
  return std::clamp(v, t.min(), t.max());
}
i128 wrap(const IntType& t, i128 v) {
  return t.value(uint64_t(v));
}
int count_clz(const IntType& t, uint64_t u) {
  int n = 0;
  for (int b = t.bits - 1; b >= 0 && !((u >> b) & 1); --b) ++n;
  return n;
}
int count_ctz(const IntType& t, uint64_t u) {
  int n = 0;
  for (int b = 0; b < t.bits && !((u >> b) & 1); ++b) ++n;
  return n;
}
i128 mul_hi_ref(const IntType& t, i128 a, i128 b) {
  i128 p;
  if (t.bits == 64 && !t.is_signed) {
    unsigned __int128 q = (unsigned __int128)a * (unsigned __int128)b;
    return i128(q >> 64);
  }
  p = a * b;
  return p >> t.bits;  // arithmetic shift: floor, as the high half is
}

// Expected raw result bits (the unsigned type's width).
uint64_t int_ref(const IntType& t, int f, i128 a, i128 b, i128 c, i128 bs, i128 cs) {
  uint64_t ua = t.bits_of(a);
  switch (f) {
    case kAbs: return t.bits_of(a < 0 ? -a : a);
    case kAbsDiff: return t.bits_of(a > b ? a - b : b - a);
    case kAddSat: return t.bits_of(sat(t, a + b));
    case kSubSat: return t.bits_of(sat(t, a - b));
    case kHadd: return t.bits_of((a + b) >> 1);
    case kRhadd: return t.bits_of((a + b + 1) >> 1);
    case kMax: return t.bits_of(std::max(a, b));
    case kMin: return t.bits_of(std::min(a, b));
    case kMulHi: return t.bits_of(mul_hi_ref(t, a, b));
    case kRotate: {
      int n = int(t.bits_of(b) % t.bits);
      uint64_t r = n == 0 ? ua : (ua << n) | (ua >> (t.bits - n));
      return t.bits_of(i128(r));
    }
    case kClz: return uint64_t(count_clz(t, ua));
    case kCtz: return uint64_t(count_ctz(t, ua));
    case kPopcount: return uint64_t(__builtin_popcountll(ua));
    case kClamp: return t.bits_of(std::min(std::max(a, b), c));
    case kMadHi: return t.bits_of(wrap(t, mul_hi_ref(t, a, b) + c));
    case kMadSat: {
      if (t.bits == 64 && !t.is_signed) {
        unsigned __int128 q = (unsigned __int128)a * (unsigned __int128)b + (unsigned __int128)c;
        return q > (unsigned __int128)t.max() ? ~uint64_t(0) : uint64_t(q);
      }
      return t.bits_of(sat(t, a * b + c));
    }
    case kMaxS: return t.bits_of(std::max(a, bs));
    case kMinS: return t.bits_of(std::min(a, bs));
    case kClampS: return t.bits_of(std::min(std::max(a, bs), cs));
    case kMul24: return t.bits_of(a * b);
    case kMad24: return t.bits_of(a * b + c);
  }
  return 0;
}

// ---- relational ----
const char* const kRelFloat[] = {"isequal",     "isnotequal",  "isgreater",     "isgreaterequal",
                                 "isless",      "islessequal", "islessgreater", "isordered",
                                 "isunordered", "isfinite",    "isinf",         "isnan",
                                 "isnormal",    "signbit"};
constexpr int kRelBinary = 9;  // the first nine take (x, y)

bool rel_ref(int f, float x, float y) {
  switch (f) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
    case 6: return x < y || x > y;
    case 7: return !std::isnan(x) && !std::isnan(y);
    case 8: return std::isnan(x) || std::isnan(y);
    case 9: return std::isfinite(x);
    case 10: return std::isinf(x);
    case 11: return std::isnan(x);
    case 12: return std::isnormal(x);
    case 13: return std::signbit(x);
  }
  return false;
}

std::string rel_kernel(int n) {
  std::string F = vec("float", n), I = vec("int", n);
  std::string s = "kernel void kr_" + std::to_string(n) +
                  "(global const float* x, global const float* y, global int* r, int fn) {\n"
                  "  size_t i = get_global_id(0);\n  " +
                  F + " a = " + load(n, "x") + ", b = " + load(n, "y") + ";\n  " + I +
                  " v = 0;\n  switch (fn) {\n";
  for (int f = 0; f < 14; ++f)
    s += "    case " + std::to_string(f) + ": v = VT_CL(" + kRelFloat[f] + ")(a" +
         (f < kRelBinary ? ", b" : "") + "); break;\n";
  s += "  }\n  " + store(n, "v", "r") + ";\n}\n";
  return s;
}

// select/bitselect/any/all are checked on a signed and an unsigned type of each width
// class (the definitions are one macro per type).
bool selection_type(const IntType& t) {
  std::string n = t.name;
  return n == "char" || n == "ushort" || n == "int" || n == "ulong" || n == "long" || n == "uint";
}

// any/all/select/bitselect on one integer type and width: r = any, all (int), select
// with a signed and an unsigned mask, bitselect.
std::string sel_kernel(const IntType& t, int n) {
  std::string T = vec(t.name, n), U = vec(t.uname, n);
  std::string S = vec(t.is_signed ? t.name : (std::string(t.name).substr(1)), n);  // signed
  std::string name = std::string("ks_") + t.name + "_" + std::to_string(n);
  std::string s = "kernel void " + name + "(global const " + t.name + "* x, global const " +
                  t.name + "* y, global const " + t.name + "* z, global int* anyall, global " +
                  t.name + "* r1, global " + t.name + "* r2, global " + t.name +
                  "* r3) {\n  size_t i = get_global_id(0);\n  " + T + " a = " + load(n, "x") +
                  ", b = " + load(n, "y") + ", c = " + load(n, "z") + ";\n";
  if (t.is_signed) s += "  anyall[2 * i] = VT_CL(any)(c);\n  anyall[2 * i + 1] = VT_CL(all)(c);\n";
  s += "  " + store(n, "VT_CL(select)(a, b, as_" + S + "(c))", "r1") + ";\n";
  s += "  " + store(n, "VT_CL(select)(a, b, as_" + U + "(c))", "r2") + ";\n";
  s += "  " + store(n, "VT_CL(bitselect)(a, b, c)", "r3") + ";\n}\n";
  return s;
}

// ---- conversions ----
struct CvType {
  const char* name;
  int int_index;  // index in kInts, -1 for float
};
const CvType kCv[] = {{"char", 0}, {"uchar", 1}, {"short", 2}, {"ushort", 3}, {"int", 4},
                      {"uint", 5}, {"long", 6},  {"ulong", 7}, {"float", -1}};
const char* const kRounding[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

// Case index: D * 10 + sat * 5 + rounding. The vector forms are one generated wrapper
// per name; they are checked on a few (sat, rounding) cases, the scalars on all.
bool cvt_case_in_vector_subset(int sat, int rm) {
  return (sat == 0 && rm == 0) || (sat == 1 && rm == 1) || (sat == 1 && rm == 4) ||
         (sat == 0 && rm == 3);
}
std::string cvt_kernel(const CvType& s, int n) {
  std::string S = vec(s.name, n);
  std::string str = "kernel void kc_" + std::string(s.name) + "_" + std::to_string(n) +
                    "(global const " + s.name +
                    "* x, global ulong* r, int fn) {\n"
                    "  size_t i = get_global_id(0);\n  " +
                    S + " a = " + load(n, "x") + ";\n  " + vec("ulong", n) +
                    " v = 0;\n  switch (fn) {\n";
  for (int d = 0; d < 9; ++d)
    for (int sat = 0; sat < 2; ++sat)
      for (int rm = 0; rm < 5; ++rm) {
        const CvType& D = kCv[d];
        if (sat && D.int_index < 0) continue;
        if (n > 1 && !cvt_case_in_vector_subset(sat, rm)) continue;
        std::string fn = std::string("convert_") + D.name + (n == 1 ? "" : std::to_string(n)) +
                         (sat ? "_sat" : "") + kRounding[rm];
        std::string u = D.int_index < 0 ? "uint" : kInts[D.int_index].uname;
        std::string e =
            "convert_" + vec("ulong", n) + "(as_" + vec(u, n) + "(VT_CL(" + fn + ")(a)))";
        str += "    case " + std::to_string(d * 10 + sat * 5 + rm) + ": v = " + e + "; break;\n";
      }
  str += "  }\n  " + store(n, "v", "r") + ";\n}\n";
  return str;
}

float f_bits(uint32_t u) {
  return from_bits(u);
}

std::string fmt_hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%llx", (unsigned long long)v);
  return b;
}

// Expected result bits, or false when OpenCL leaves it undefined (non-saturated
// out-of-range float -> integer).
bool cvt_ref(const CvType& S, const CvType& D, bool sat, int rm, uint64_t raw, uint64_t* out) {
  if (S.int_index >= 0) {
    const IntType& st = kInts[S.int_index];
    i128 v = st.value(raw);
    if (D.int_index >= 0) {
      const IntType& dt = kInts[D.int_index];
      *out = dt.bits_of(sat ? std::clamp(v, dt.min(), dt.max()) : v);
      return true;
    }
    // integer -> float: nearest even, then one step when the mode disagrees.
    long double exact = st.is_signed ? (long double)int64_t(v) : (long double)uint64_t(v);
    float f = st.is_signed ? (float)int64_t(v) : (float)uint64_t(v);
    long double lf = f;
    int dir = rm == 3 ? 1 : rm == 4 ? -1 : rm == 2 ? (exact < 0 ? 1 : -1) : 0;
    if (dir > 0 && lf < exact) f = std::nextafter(f, INFINITY);
    if (dir < 0 && lf > exact) f = std::nextafter(f, -INFINITY);
    *out = bits(f);
    return true;
  }
  float x = f_bits(uint32_t(raw));
  if (D.int_index < 0) {
    *out = bits(x);
    return true;
  }
  const IntType& dt = kInts[D.int_index];
  double r = x;
  switch (rm) {
    case 0:
    case 2: r = std::trunc(r); break;
    case 1: r = std::nearbyint(r); break;
    case 3: r = std::ceil(r); break;
    case 4: r = std::floor(r); break;
  }
  if (std::isnan(x)) {
    if (!sat) return false;
    *out = 0;
    return true;
  }
  double end = std::ldexp(1.0, dt.is_signed ? dt.bits - 1 : dt.bits);  // max + 1, exact
  if (r < (double)dt.min() || r >= end) {
    if (!sat) return false;
    *out = dt.bits_of(r < 0 ? dt.min() : dt.max());
    return true;
  }
  *out = dt.bits_of(i128(r));
  return true;
}

// ---- half ----
// binary16 -> double by definition.
double half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0    ? std::ldexp(m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
// float -> binary16 bits in a rounding mode (0 rte, 1 rtz, 2 rtp, 3 rtn), by search over
// the finite half values.
uint16_t half_ref(float f, int mode) {
  if (std::isnan(f)) return 0x7e00;
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs((double)f);
  if (std::isinf(f)) return sign | 0x7c00;
  // Largest h with value(h) <= a (0 .. 0x7bff), then the next one up (0x7c00 = inf).
  int lo = 0, hi = 0x7bff;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (half_value(uint16_t(mid)) <= a)
      lo = mid;
    else
      hi = mid - 1;
  }
  uint16_t down = uint16_t(lo), up = uint16_t(lo + 1);
  double vd = half_value(down);
  if (vd == a) return sign | down;
  double vu = up == 0x7c00 ? 65536.0 : half_value(up);  // rounding point above the max
  bool neg = sign != 0;
  uint16_t pick;
  switch (mode) {
    case 1: pick = down; break;
    case 2: pick = neg ? down : up; break;
    case 3: pick = neg ? up : down; break;
    default: {
      double mid = (vd + vu) / 2;
      pick = a < mid ? down : a > mid ? up : ((down & 1) ? up : down);
    }
  }
  return sign | pick;
}

// ---- the program ----

std::string families_source() {
  std::string s = library_source({"integer.cl", "relational.cl", "convert.cl", "common.cl",
                                  "vload.cl", "shuffle.cl", "atomic.cl", "async.cl"});
  for (const IntType& t : kInts) {
    for (int n : int_widths(t)) s += int_kernel(t, n);
    if (selection_type(t)) {
      s += sel_kernel(t, 1);
      s += sel_kernel(t, 4);
    }
  }
  for (int n : {1, 3, 4, 16}) s += rel_kernel(n);
  for (const CvType& c : kCv) {
    s += cvt_kernel(c, 1);
    s += cvt_kernel(c, 16);
  }
  s += cvt_kernel(kCv[8], 3);
  s += R"(
kernel void kh_load(global const ushort* h, global float* f, global float* f3) {
  size_t i = get_global_id(0);
  f[i] = VT_CL(vload_half)(i, (global const half*)h);
  if (i < 1000) vstore3(VT_CL(vloada_half3)(i, (global const half*)h), i, f3);
}
kernel void kh_store(global const float* f, global ushort* h, int mode) {
  size_t i = get_global_id(0);
  global half* p = (global half*)h;
  switch (mode) {
    case 0: VT_CL(vstore_half)(f[i], i, p); break;
    case 1: VT_CL(vstore_half_rtz)(f[i], i, p); break;
    case 2: VT_CL(vstore_half_rtp)(f[i], i, p); break;
    case 3: VT_CL(vstore_half_rtn)(f[i], i, p); break;
    case 4: VT_CL(vstore_half_rte)(f[i], i, p); break;
    case 5: if (i % 4 == 0) VT_CL(vstore_half4_rtz)(vload4(i / 4, f), i / 4, p); break;
    case 6: if (i % 16 == 0) VT_CL(vstorea_half16_rtp)(vload16(i / 16, f), i / 16, p); break;
  }
}
// vloadn/vstoren through private and local memory as well.
kernel void kv(global const int* x, global int* y, global float* fy) {
  size_t i = get_global_id(0);
  local int tile[64 * 16];
  size_t l = get_local_id(0);
  int16 v = VT_CL(vload16)(i, x);
  VT_CL(vstore16)(v, l, tile);
  barrier(CLK_LOCAL_MEM_FENCE);
  int p[3];
  VT_CL(vstore3)(VT_CL(vload3)(l * 16 / 3, tile), 0, p);
  int3 w = VT_CL(vload3)(0, p);
  int8 u = VT_CL(vload8)(2 * l + 1, tile);
  VT_CL(vstore16)((int16)(u, w, (int4)(0), (int)i), i, y);
  float4 f = VT_CL(vload4)(i, (global const float*)x);
  VT_CL(vstore4)(f, i, fy);
}
// shuffle and shuffle2 on 8-element int and 16-element uchar vectors.
kernel void ksh(global const int* x, global const uint* m, global int* r,
                global const uchar* cx, global const uchar* cm, global uchar* cr) {
  size_t i = get_global_id(0);
  int8 a = vload8(i, x), b = vload8(i + 1, x);
  uint4 mask = vload4(i, m);
  vstore4(VT_CL(shuffle)(a, mask), 2 * i, r);
  vstore4(VT_CL(shuffle2)(a, b, mask), 2 * i + 1, r);
  uchar16 c = vload16(i, cx), d = vload16(i + 1, cx);
  uchar2 cmask = vload2(i, cm);
  vstore2(VT_CL(shuffle)(c, cmask), 2 * i, cr);
  vstore2(VT_CL(shuffle2)(c, d, cmask), 2 * i + 1, cr);
}
kernel void kup(global const uint* a, global const uint* b, global ulong* r) {
  size_t i = get_global_id(0);
  r[4 * i] = as_ushort(VT_CL(upsample)((char)a[i], (uchar)b[i]));
  r[4 * i + 1] = VT_CL(upsample)((uchar)a[i], (uchar)b[i]);
  // through the vector form: element i % 4 of a 4-vector
  int4 v = VT_CL(upsample)((short4)((short)a[i]), (ushort4)((ushort)b[i]));
  r[4 * i + 2] = as_uint(v.s2);
  r[4 * i + 3] = as_ulong(VT_CL(upsample)((int)a[i], b[i]));
}
// Atomics: every work-item adds, increments, maxes, exchanges; a local counter too.
kernel void ka(global int* g, global uint* u, global int* out) {
  size_t i = get_global_id(0);
  local int cnt;
  if (get_local_id(0) == 0) cnt = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int li = (int)i;
  VT_CL(atomic_add)(&g[0], li);
  VT_CL(atomic_inc)(&g[1]);
  VT_CL(atomic_dec)(&g[2]);
  VT_CL(atomic_max)(&g[3], li * 7 - 1000);
  VT_CL(atomic_min)(&g[4], 1000 - li * 3);
  VT_CL(atom_or)(&u[0], 1u << (i % 32));
  VT_CL(atomic_and)(&u[1], ~(1u << (i % 16)));
  VT_CL(atomic_xor)(&u[2], (uint)i);
  VT_CL(atomic_sub)(&g[5], 2);
  VT_CL(atom_max)(&u[3], (uint)i);
  VT_CL(atomic_min)(&u[4], (uint)(1000000 - i));
  out[i] = VT_CL(atomic_xchg)(&g[6], li);
  int old = VT_CL(atomic_cmpxchg)(&g[7], 0, li + 1);
  out[get_global_size(0) + i] = old;
  VT_CL(atomic_add)(&cnt, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) VT_CL(atomic_add)(&g[8], cnt);
}
// async copies: global -> local (contiguous and strided), local -> global (strided).
kernel void kas(global const int* src, global int* dst, global const float4* fsrc,
                global float4* fdst) {
  local int tile[256];
  local float4 ft[64];
  size_t g = get_group_id(0), l = get_local_id(0);
  VT_CL(prefetch)(src + g * 256, 256);
  event_t e = VT_CL(async_work_group_copy)(tile, src + g * 256, 256, 0);
  event_t e2 = VT_CL(async_work_group_strided_copy)(ft, fsrc + g, 64, 3, 0);
  VT_CL(wait_group_events)(1, &e);
  VT_CL(wait_group_events)(1, &e2);
  for (int k = 0; k < 4; ++k) tile[l * 4 + k] += (int)l;
  ft[l] *= 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e3 = VT_CL(async_work_group_strided_copy)(dst + g * 512, tile, 256, 2, 0);
  event_t e4 = VT_CL(async_work_group_copy)(fdst + g * 64, ft, 64, e3);
  VT_CL(wait_group_events)(1, &e4);
}
// common and geometric functions.
kernel void kg(global const float* x, global const float* y, global const float* z,
               global float* r) {
  size_t i = get_global_id(0);
  float a = x[i], b = y[i], c = z[i];
  float4 p = vload4(i, x), q = vload4(i, y);
  size_t o = i * 16;
  r[o + 0] = VT_CL(clamp)(a, -1.0f, 2.0f);
  r[o + 1] = VT_CL(degrees)(a);
  r[o + 2] = VT_CL(radians)(a);
  r[o + 3] = VT_CL(mix)(a, b, c);
  r[o + 4] = VT_CL(step)(b, a);
  r[o + 5] = VT_CL(smoothstep)(-1.0f, 3.0f, a);
  r[o + 6] = VT_CL(sign)(a);
  r[o + 7] = VT_CL(dot)(p, q);
  r[o + 8] = VT_CL(length)(p);
  r[o + 9] = VT_CL(distance)(p, q);
  float4 n = VT_CL(normalize)(p);
  r[o + 10] = n.x; r[o + 11] = n.y; r[o + 12] = n.z; r[o + 13] = n.w;
  float3 cr = VT_CL(cross)(p.xyz, q.xyz);
  r[o + 14] = cr.x;
  r[o + 15] = VT_CL(fast_length)(p);
}
)";
  return s;
}

class FamiliesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { pocl_ = new Pocl(families_source()); }
  static void TearDownTestSuite() { delete pocl_; }
  void SetUp() override {
    if (!pocl_->skip.empty()) GTEST_SKIP() << pocl_->skip;
    ASSERT_TRUE(pocl_->build_error.empty()) << pocl_->build_error;
  }
  static Pocl* pocl_;
};
Pocl* FamiliesTest::pocl_ = nullptr;

size_t pad64(size_t n) {
  return (n + 63) / 64 * 64;
}

// Edge values of a type plus uniform random bits.
std::vector<uint64_t> int_inputs(const IntType& t, std::mt19937_64& rng, size_t n) {
  std::vector<uint64_t> v;
  for (i128 e : {t.min(), t.min() + 1, i128(-1), i128(0), i128(1), i128(2), t.max() - 1, t.max(),
                 t.max() / 2, t.min() / 2, i128(0x7fffff), i128(-0x800000), i128(0xffffff)})
    v.push_back(t.bits_of(e));
  while (v.size() < n) v.push_back(rng());
  return v;
}

TEST_F(FamiliesTest, IntegerFunctions) {
  std::mt19937_64 rng(7);
  size_t bad = 0;
  std::string first;
  for (const IntType& t : kInts) {
    for (int n : int_widths(t)) {
      // 8-bit scalars: every (x, y) pair; others: edges crossed with randoms.
      std::vector<uint64_t> xs, ys, zs;
      if (t.bits == 8 && n == 1) {
        for (int a = 0; a < 256; ++a)
          for (int b = 0; b < 256; ++b) {
            xs.push_back(a);
            ys.push_back(b);
            zs.push_back(rng());
          }
      } else if (t.bits == 16 && n == 1) {
        for (int a = 0; a < 65536; ++a) {  // every x, with random y and z
          xs.push_back(a);
          ys.push_back(rng());
          zs.push_back(rng());
        }
        auto e = int_inputs(t, rng, 16);
        for (auto a : e)
          for (auto b : e) {
            xs.push_back(a);
            ys.push_back(b);
            zs.push_back(e[(a + b) % 16]);
          }
      } else {
        auto e = int_inputs(t, rng, 16);
        for (auto a : e)
          for (auto b : e)
            for (auto c : {e[0], e[3], e[7]}) {
              xs.push_back(a);
              ys.push_back(b);
              zs.push_back(c);
            }
        size_t target = n == 1 ? (1u << 16) : (1u << 14);
        while (xs.size() < target) {
          xs.push_back(rng());
          ys.push_back(rng());
          zs.push_back(rng());
        }
      }
      size_t items = pad64((xs.size() + n - 1) / n);
      size_t count = items * n + (n == 3 ? 1 : 0);
      Raw x(t.size(), count), y(t.size(), count), z(t.size(), count), r(t.size(), count);
      for (size_t i = 0; i < count; ++i) {
        x.set(i, i < xs.size() ? xs[i] : 1);
        y.set(i, i < ys.size() ? ys[i] : 1);
        z.set(i, i < zs.size() ? zs[i] : 1);
      }
      std::string kernel = std::string("ki_") + t.name + "_" + std::to_string(n);
      for (int f = 0; f < kIntFnCount; ++f) {
        if (n == 1 && (f == kMaxS || f == kMinS || f == kClampS)) continue;
        if ((f == kMul24 || f == kMad24) && t.bits != 32) continue;
        pocl_->run(kernel, items,
                   {Pocl::in(x.bytes), Pocl::in(y.bytes), Pocl::in(z.bytes), Pocl::out(r.bytes),
                    Pocl::scalar(f)});
        for (size_t i = 0; i < items * n; ++i) {
          size_t v0 = i / n * n;  // the vector's first element (scalar operands)
          uint64_t want = int_ref(t, f, t.value(x.get(i)), t.value(y.get(i)), t.value(z.get(i)),
                                  t.value(y.get(v0)), t.value(z.get(v0)));
          if (r.get(i) != t.bits_of(i128(want))) {
            if (bad++ == 0)
              first = std::string(kIntFnNames[f]) + " on " + t.name + std::to_string(n) + " (" +
                      std::to_string(x.get(i)) + ", " + std::to_string(y.get(i)) + ", " +
                      std::to_string(z.get(i)) + ") = " + std::to_string(r.get(i)) + ", want " +
                      std::to_string(t.bits_of(i128(want)));
          }
        }
      }
    }
  }
  EXPECT_EQ(bad, 0u) << "first: " << first;
}

TEST_F(FamiliesTest, Upsample) {
  std::mt19937_64 rng(31);
  size_t items = 4096;
  std::vector<uint32_t> a(items), b(items);
  for (size_t i = 0; i < items; ++i) {
    a[i] = uint32_t(rng());
    b[i] = uint32_t(rng());
  }
  std::vector<uint64_t> r(items * 4);
  pocl_->run("kup", items, {Pocl::in(a), Pocl::in(b), Pocl::out(r)});
  size_t bad = 0;
  for (size_t i = 0; i < items; ++i) {
    uint64_t s8 = uint16_t(int16_t(int8_t(a[i])) * 256 + uint8_t(b[i]));
    uint64_t u8 = uint16_t((uint8_t(a[i]) << 8) | uint8_t(b[i]));
    uint64_t s16 = uint32_t((uint32_t(uint16_t(a[i])) << 16) | uint16_t(b[i]));
    uint64_t s32 = (uint64_t(a[i]) << 32) | b[i];
    bad += r[i * 4] != s8;
    bad += r[i * 4 + 1] != u8;
    bad += r[i * 4 + 2] != s16;
    bad += r[i * 4 + 3] != s32;
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(FamiliesTest, RelationalFloat) {
  std::mt19937_64 rng(11);
  std::vector<float> sp = {0.0f,
                           -0.0f,
                           1.0f,
                           -1.0f,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           FLT_MIN,
                           -FLT_MIN,
                           from_bits(1),
                           from_bits(0x807fffff),
                           FLT_MAX,
                           -FLT_MAX,
                           from_bits(0x7f800001),
                           from_bits(0xffc00000),
                           2.5f};
  std::vector<float> x, y;
  for (float a : sp)
    for (float b : sp) {
      x.push_back(a);
      y.push_back(b);
    }
  while (x.size() < 8192) {
    x.push_back(from_bits(uint32_t(rng())));
    y.push_back(rng() % 4 == 0 ? x.back() : from_bits(uint32_t(rng())));
  }
  size_t bad = 0;
  std::string first;
  for (int n : {1, 3, 4, 16}) {
    size_t items = pad64(x.size() / n);
    std::vector<float> xx(items * n + 1, 0.0f), yy(items * n + 1, 0.0f);
    std::copy_n(x.begin(), std::min(x.size(), xx.size()), xx.begin());
    std::copy_n(y.begin(), std::min(y.size(), yy.size()), yy.begin());
    std::vector<int32_t> r(xx.size());
    for (int f = 0; f < 14; ++f) {
      pocl_->run("kr_" + std::to_string(n), items,
                 {Pocl::in(xx), Pocl::in(yy), Pocl::out(r), Pocl::scalar(f)});
      for (size_t i = 0; i < items * n; ++i) {
        int want = rel_ref(f, xx[i], yy[i]) ? (n == 1 ? 1 : -1) : 0;
        if (r[i] != want && bad++ == 0)
          first = std::string(kRelFloat[f]) + std::to_string(n) + "(" + std::to_string(xx[i]) +
                  ", " + std::to_string(yy[i]) + ") = " + std::to_string(r[i]);
      }
    }
  }
  EXPECT_EQ(bad, 0u) << "first: " << first;
}

TEST_F(FamiliesTest, AnyAllSelectBitselect) {
  std::mt19937_64 rng(13);
  size_t bad = 0;
  std::string first;
  for (const IntType& t : kInts) {
    if (!selection_type(t)) continue;
    for (int n : {1, 4}) {
      size_t items = 256, count = items * n;
      Raw x(t.size(), count), y(t.size(), count), z(t.size(), count);
      for (size_t i = 0; i < count; ++i) {
        x.set(i, rng());
        y.set(i, rng());
        // Masks: mostly all-zero or all-one elements, sometimes random (MSB decides).
        uint64_t m = rng() % 3 == 0 ? rng() : (rng() & 1 ? ~uint64_t(0) : 0);
        z.set(i, m);
      }
      std::vector<int32_t> anyall(2 * items);
      Raw r1(t.size(), count), r2(t.size(), count), r3(t.size(), count);
      pocl_->run(std::string("ks_") + t.name + "_" + std::to_string(n), items,
                 {Pocl::in(x.bytes), Pocl::in(y.bytes), Pocl::in(z.bytes), Pocl::out(anyall),
                  Pocl::out(r1.bytes), Pocl::out(r2.bytes), Pocl::out(r3.bytes)});
      for (size_t i = 0; i < items; ++i) {
        bool any = false, all = true;
        for (int k = 0; k < n; ++k) {
          bool msb = (z.get(i * n + k) >> (t.bits - 1)) & 1;
          any |= msb;
          all &= msb;
        }
        if (t.is_signed && (anyall[2 * i] != int(any) || anyall[2 * i + 1] != int(all)) &&
            bad++ == 0)
          first = std::string("any/all on ") + t.name + std::to_string(n);
        for (int k = 0; k < n; ++k) {
          size_t e = i * n + k;
          uint64_t c = z.get(e);
          bool take_b = n == 1 ? c != 0 : ((c >> (t.bits - 1)) & 1);
          uint64_t sel = take_b ? y.get(e) : x.get(e);
          uint64_t bs = (x.get(e) & ~c) | (y.get(e) & c);
          uint64_t mask = t.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << t.bits) - 1;
          if ((r1.get(e) != sel || r2.get(e) != sel || r3.get(e) != (bs & mask)) && bad++ == 0)
            first = std::string("select/bitselect on ") + t.name + std::to_string(n);
        }
      }
    }
  }
  EXPECT_EQ(bad, 0u) << "first: " << first;
}

TEST_F(FamiliesTest, Conversions) {
  std::mt19937_64 rng(17);
  size_t bad = 0, checked = 0;
  std::string first;
  for (const CvType& S : kCv) {
    // Inputs as raw bits of S.
    std::vector<uint64_t> in;
    if (S.int_index >= 0) {
      const IntType& st = kInts[S.int_index];
      if (st.bits <= 16) {
        for (uint64_t v = 0; v < (uint64_t(1) << st.bits); ++v) in.push_back(v);
      } else {
        for (const IntType& d : kInts)
          for (i128 e : {d.min(), d.max()})
            for (i128 k = -3; k <= 3; ++k) in.push_back(st.bits_of(e + k));
        // Around powers of two (float rounding decisions) and random.
        for (int b = 20; b < st.bits; ++b)
          for (i128 k : {-65, -64, -63, -1, 0, 1, 63, 64, 65, 127, 128, 129})
            in.push_back(st.bits_of((i128(1) << b) + k));
        while (in.size() < (1u << 15)) in.push_back(rng());
      }
    } else {
      for (float f : {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, INFINITY, -INFINITY,
                      NAN, FLT_MAX, -FLT_MAX, from_bits(1)})
        in.push_back(bits(f));
      for (const IntType& d : kInts)  // the floats next to each range's ends
        for (i128 e : {d.min(), d.max() + 1})
          for (int k = -4; k <= 4; ++k) {
            float v = (float)e;
            in.push_back(v == 0 ? uint32_t(std::abs(k)) : bits(v) + k);
          }
      for (const IntType& d : kInts)
        for (i128 e : {d.min(), d.max()})
          for (double off : {-1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5})
            in.push_back(bits(float((double)e + off)));
      for (int k = -600; k <= 600; ++k) in.push_back(bits(k * 0.25f));
      while (in.size() < (1u << 15)) in.push_back(uint32_t(rng()));
    }
    size_t es = S.int_index >= 0 ? kInts[S.int_index].size() : 4;
    for (int n : {1, 3, 16}) {
      if (n == 3 && S.int_index >= 0) continue;
      size_t items = pad64(in.size() / n + 1);
      Raw x(es, items * n + 1);
      for (size_t i = 0; i < x.size(); ++i) x.set(i, i < in.size() ? in[i] : 0);
      std::vector<uint64_t> r(items * n + 1);
      for (int d = 0; d < 9; ++d)
        for (int sat = 0; sat < 2; ++sat)
          for (int rm = 0; rm < 5; ++rm) {
            const CvType& D = kCv[d];
            if (sat && D.int_index < 0) continue;
            if (n > 1 && !cvt_case_in_vector_subset(sat, rm)) continue;
            pocl_->run("kc_" + std::string(S.name) + "_" + std::to_string(n), items,
                       {Pocl::in(x.bytes), Pocl::out(r), Pocl::scalar(d * 10 + sat * 5 + rm)});
            for (size_t i = 0; i < items * n; ++i) {
              uint64_t want;
              if (!cvt_ref(S, D, sat, rm, x.get(i), &want)) continue;
              ++checked;
              if (r[i] != want && bad++ < 1)
                first = std::string("convert_") + D.name + (n > 1 ? std::to_string(n) : "") +
                        (sat ? "_sat" : "") + kRounding[rm] + "(" + S.name + " bits 0x" +
                        fmt_hex(x.get(i)) + ") = 0x" + fmt_hex(r[i]) + ", want 0x" + fmt_hex(want);
            }
          }
    }
  }
  std::printf("[ cvt ] %zu conversions checked\n", checked);
  EXPECT_EQ(bad, 0u) << bad << " wrong; first: " << first;
}

TEST_F(FamiliesTest, HalfLoadStore) {
  // vload_half: every binary16 value.
  std::vector<uint16_t> h(65536);
  for (int i = 0; i < 65536; ++i) h[i] = uint16_t(i);
  std::vector<float> f(65536), f3(4 * 1000);
  pocl_->run("kh_load", 65536, {Pocl::in(h), Pocl::out(f), Pocl::out(f3)});
  size_t bad = 0;
  std::string first;
  for (int i = 0; i < 65536; ++i) {
    double want = half_value(uint16_t(i));
    bool ok = std::isnan(want) ? std::isnan(f[i])
                               : (f[i] == want && std::signbit(f[i]) == std::signbit(want));
    if (!ok && bad++ == 0) first = "vload_half of 0x" + fmt_hex(i);
  }
  for (int i = 0; i < 1000; ++i)  // vloada_half3: stride 4
    for (int k = 0; k < 3; ++k) {
      double want = half_value(uint16_t(i * 4 + k));
      float got = f3[i * 3 + k];
      if (!(std::isnan(want) ? std::isnan(got) : got == want) && bad++ == 0)
        first = "vloada_half3 element " + std::to_string(i * 3 + k);
    }
  // vstore_half in each mode: floats near every half value, random floats, specials.
  std::mt19937_64 rng(19);
  std::vector<float> in;
  for (int i = 0; i < 0x7c00; i += 3) {
    float v = (float)half_value(uint16_t(i));
    in.push_back(v);
    in.push_back(-std::nextafter(v, INFINITY));
    in.push_back(std::nextafter(v, 0.0f));
    double next = half_value(uint16_t(i + 1));
    in.push_back(float((v + next) / 2));  // ties
  }
  for (float v : {65504.0f, 65519.99f, 65520.0f, 65536.0f, 1e9f, INFINITY, -INFINITY, NAN,
                  from_bits(1), 0x1p-25f, 0x1.8p-25f, 0x1p-24f, -0x1p-26f})
    in.push_back(v);
  while (in.size() % 64 || in.size() < (1u << 16)) in.push_back(from_bits(uint32_t(rng())));
  std::vector<uint16_t> out(in.size());
  const int modes[] = {0, 1, 2, 3, 0, 1, 2};  // kernel modes 4..6: rte, vector rtz, vector rtp
  for (int m = 0; m < 7; ++m) {
    pocl_->run("kh_store", in.size(), {Pocl::in(in), Pocl::out(out), Pocl::scalar(m)});
    for (size_t i = 0; i < in.size(); ++i) {
      uint16_t want = half_ref(in[i], modes[m]);
      bool ok =
          std::isnan(in[i]) ? ((out[i] & 0x7c00) == 0x7c00 && (out[i] & 0x3ff)) : out[i] == want;
      if (!ok && bad++ == 0)
        first = "vstore_half mode " + std::to_string(m) + " of " + std::to_string(in[i]) + " = 0x" +
                fmt_hex(out[i]) + ", want 0x" + fmt_hex(want);
    }
  }
  EXPECT_EQ(bad, 0u) << bad << " wrong; first: " << first;
}

TEST_F(FamiliesTest, VloadVstoreShuffle) {
  size_t items = 128;
  std::vector<int32_t> x(items * 16 + 32), y(items * 16);
  std::mt19937_64 rng(23);
  for (auto& v : x) v = int32_t(rng());
  std::vector<float> fy(items * 4);
  pocl_->run("kv", items, {Pocl::in(x), Pocl::out(y), Pocl::out(fy)});
  size_t bad = 0;
  for (size_t i = 0; i < items; ++i) {
    size_t l = i % 64, base = i - l;  // the work-group's first item: its tile
    auto tile = [&](size_t k) { return x[(base + k / 16) * 16 + k % 16]; };
    for (int k = 0; k < 8; ++k) bad += y[i * 16 + k] != tile((2 * l + 1) * 8 + k);
    for (int k = 0; k < 3; ++k) bad += y[i * 16 + 8 + k] != tile(l * 16 / 3 * 3 + k);
    bad += y[i * 16 + 15] != int32_t(i);
    for (int k = 0; k < 4; ++k) bad += bits(fy[i * 4 + k]) != uint32_t(x[i * 4 + k]);
  }
  EXPECT_EQ(bad, 0u) << "vload/vstore";
  // shuffle, shuffle2
  std::vector<uint32_t> m(items * 4 + 4);
  for (auto& v : m) v = uint32_t(rng());
  std::vector<int32_t> r(items * 8);
  std::vector<uint8_t> cx(items * 16 + 16), cm(items * 2 + 2), cr(items * 4);
  for (auto& v : cx) v = uint8_t(rng());
  for (auto& v : cm) v = uint8_t(rng());
  pocl_->run("ksh", items,
             {Pocl::in(x), Pocl::in(m), Pocl::out(r), Pocl::in(cx), Pocl::in(cm), Pocl::out(cr)});
  bad = 0;
  for (size_t i = 0; i < items; ++i) {
    for (int k = 0; k < 4; ++k) {
      uint32_t mk = m[i * 4 + k];
      bad += r[i * 8 + k] != x[i * 8 + (mk % 8)];
      uint32_t j = mk % 16;
      bad += r[i * 8 + 4 + k] != (j < 8 ? x[i * 8 + j] : x[(i + 1) * 8 + j - 8]);
    }
    for (int k = 0; k < 2; ++k) {
      uint8_t mk = cm[i * 2 + k];
      bad += cr[i * 4 + k] != cx[i * 16 + mk % 16];
      uint32_t j = mk % 32;
      bad += cr[i * 4 + 2 + k] != (j < 16 ? cx[i * 16 + j] : cx[(i + 1) * 16 + j - 16]);
    }
  }
  EXPECT_EQ(bad, 0u) << "shuffle";
}

TEST_F(FamiliesTest, Atomics) {
  size_t n = 256;
  std::vector<int32_t> g = {0, 0, 0, INT32_MIN, INT32_MAX, 0, -1, 0, 0};
  std::vector<uint32_t> u = {0, 0xffffffffu, 0, 0, 0xffffffffu};
  std::vector<int32_t> out(2 * n);
  pocl_->run("ka", n, {Pocl::out(g), Pocl::out(u), Pocl::out(out)});
  EXPECT_EQ(g[0], int32_t(n * (n - 1) / 2));
  EXPECT_EQ(g[1], int32_t(n));
  EXPECT_EQ(g[2], -int32_t(n));
  EXPECT_EQ(g[3], int32_t((n - 1) * 7 - 1000));
  EXPECT_EQ(g[4], int32_t(1000 - (n - 1) * 3));
  EXPECT_EQ(g[5], -2 * int32_t(n));
  EXPECT_EQ(g[8], int32_t(n));
  EXPECT_EQ(u[0], 0xffffffffu);
  EXPECT_EQ(u[1], 0xffff0000u);
  uint32_t x = 0;
  for (uint32_t i = 0; i < n; ++i) x ^= i;
  EXPECT_EQ(u[2], x);
  EXPECT_EQ(u[3], uint32_t(n - 1));
  EXPECT_EQ(u[4], uint32_t(1000000 - (n - 1)));
  // xchg: the old values are -1 and every id but the last one stored, each once.
  std::vector<int32_t> olds(out.begin(), out.begin() + n);
  olds.push_back(g[6]);
  std::sort(olds.begin(), olds.end());
  for (size_t i = 0; i <= n; ++i) EXPECT_EQ(olds[i], int32_t(i) - 1);
  // cmpxchg: exactly one work-item saw 0 and installed its id + 1.
  int zeros = 0;
  for (size_t i = 0; i < n; ++i) {
    zeros += out[n + i] == 0;
    if (out[n + i] != 0) {
      EXPECT_EQ(out[n + i], g[7]);
    }
  }
  EXPECT_EQ(zeros, 1);
}

TEST_F(FamiliesTest, AsyncCopies) {
  const size_t groups = 4;
  std::vector<int32_t> src(groups * 256), dst(groups * 512, -7);
  std::vector<float> fsrc((groups + 3 * 64) * 4), fdst(groups * 64 * 4);
  for (size_t i = 0; i < src.size(); ++i) src[i] = int32_t(i * 2654435761u);
  for (size_t i = 0; i < fsrc.size(); ++i) fsrc[i] = float(i) * 0.5f;
  pocl_->run("kas", groups * 64, {Pocl::in(src), Pocl::out(dst), Pocl::in(fsrc), Pocl::out(fdst)});
  size_t bad = 0;
  for (size_t g = 0; g < groups; ++g) {
    for (size_t i = 0; i < 256; ++i) {
      bad += dst[g * 512 + 2 * i] != src[g * 256 + i] + int32_t(i / 4);
      bad += dst[g * 512 + 2 * i + 1] != -7;  // the stride's gaps stay untouched
    }
    for (size_t i = 0; i < 64; ++i)
      for (int c = 0; c < 4; ++c)
        bad += fdst[(g * 64 + i) * 4 + c] != 2 * fsrc[(g + 3 * i) * 4 + c];
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(FamiliesTest, CommonAndGeometric) {
  size_t items = 1024;
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<float> d(-4, 4);
  std::vector<float> x(items * 4), y(items * 4), z(items * 4), r(items * 16);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = d(rng);
    y[i] = d(rng);
    z[i] = d(rng) / 4;
  }
  // Specials: zero, huge, tiny and infinite vectors for length/normalize.
  auto put = [&](size_t i, float a, float b, float c, float e) {
    x[i * 4] = a;
    x[i * 4 + 1] = b;
    x[i * 4 + 2] = c;
    x[i * 4 + 3] = e;
  };
  put(0, 0, 0, 0, 0);
  put(1, 3e38f, 3e38f, 0, 0);
  put(2, 3e-39f, 4e-39f, 0, 0);
  put(3, INFINITY, -INFINITY, 1, 0);
  put(4, NAN, 1, 2, 3);
  x[5 * 4] = -0.0f;
  pocl_->run("kg", items, {Pocl::in(x), Pocl::in(y), Pocl::in(z), Pocl::out(r)});
  size_t bad = 0;
  std::string first;
  // tol_ulp ulps of the result, or (abs > 0) an absolute tolerance.
  auto check = [&](size_t i, int k, double want, double tol_ulp, double abs = 0) {
    float got = r[i * 16 + k];
    bool ok;
    if (abs > 0)
      ok = std::fabs(got - want) <= abs;
    else if (std::isnan(want))
      ok = std::isnan(got);
    else if (tol_ulp == 0 || std::isinf((float)want))
      ok = got == (float)want && std::signbit(got) == std::signbit((float)want);
    else
      ok = std::fabs(got - want) <=
               tol_ulp * std::ldexp(1.0, std::max(std::ilogb(want), -126) - 23) ||
           got == want;
    if (!ok && bad++ == 0)
      first = "item " + std::to_string(i) + " result " + std::to_string(k) + " = " +
              std::to_string(got) + ", want " + std::to_string(want);
  };
  for (size_t i = 0; i < items; ++i) {
    float a = x[i], b = y[i], c = z[i];
    const float* p = &x[i * 4];
    const float* q = &y[i * 4];
    check(i, 0, std::fmin(std::fmax(a, -1.0f), 2.0f), 0);
    check(i, 1, a * (float)(180 / M_PI), 0);
    check(i, 2, a * (float)(M_PI / 180), 0);
    check(i, 3, std::fma(b - a, c, a), 0);  // mix as defined: x + (y - x) * a, fused
    check(i, 4, a < b ? 0.0 : 1.0, 0);
    double t = std::clamp(((double)a + 1) / 4, 0.0, 1.0);
    if (!std::isnan(a)) check(i, 5, t * t * (3 - 2 * t), 4);  // undefined for NaN
    check(i, 6, std::isnan(a) ? 0.0 : a > 0 ? 1.0 : a < 0 ? -1.0 : (double)a, 0);
    double dot = 0, dot_abs = 0, len2 = 0, dist2 = 0, m = 0;
    bool has_nan = false, has_inf = false;
    for (int k = 0; k < 4; ++k) {
      dot += (double)p[k] * q[k];
      dot_abs += std::fabs((double)p[k] * q[k]);
      len2 += (double)p[k] * p[k];
      dist2 += ((double)p[k] - q[k]) * ((double)p[k] - q[k]);
      m = std::max(m, std::fabs((double)p[k]));
      has_nan |= std::isnan(p[k]);
      has_inf |= std::isinf(p[k]);
    }
    // dot: a chain of fmas, each rounding by at most half an ulp of a partial sum.
    if (i >= 6) check(i, 7, dot, 0, 0x1p-22 * dot_abs);
    check(i, 8, has_nan ? NAN : has_inf ? INFINITY : std::sqrt(len2), 2);
    if (i >= 6) check(i, 9, std::sqrt(dist2), 3);
    for (int k = 0; k < 4; ++k) {
      double want;
      if (has_nan)
        want = NAN;
      else if (m == 0)
        want = p[k];
      else if (has_inf) {
        double inf_count = 0;
        for (int j = 0; j < 4; ++j) inf_count += std::isinf(p[j]);
        want = std::isinf(p[k]) ? std::copysign(1.0, p[k]) / std::sqrt(inf_count) : 0.0 * p[k];
      } else {
        want = p[k] / std::sqrt(len2);
      }
      check(i, 10 + k, want, 3);
    }
    // cross: fma(a, b, -c d) rounds c d first: an error of an ulp of the larger product.
    double c1 = (double)p[1] * q[2], c2 = (double)p[2] * q[1];
    if (i >= 6) check(i, 14, c1 - c2, 0, 0x1p-23 * (std::fabs(c1) + std::fabs(c2)));
  }
  EXPECT_EQ(bad, 0u) << bad << " wrong; first: " << first;
}

}  // namespace
}  // namespace ventus::libtest
