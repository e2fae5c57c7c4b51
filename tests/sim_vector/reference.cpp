#include "reference.h"

#include <algorithm>
#include <stdexcept>

#include "fp16.h"
#include "fp32.h"

namespace ventus::test {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

uint64_t low_mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
int64_t sign_extend(uint64_t v, unsigned bits) {
  const uint64_t m = low_mask(bits);
  v &= m;
  return bits < 64 && (v >> (bits - 1)) & 1 ? static_cast<int64_t>(v | ~m)
                                            : static_cast<int64_t>(v);
}

// RVV 1.0 roundoff: v / 2^d rounded by vxrm, computed from the exact quotient and remainder.
i128 roundoff(i128 v, unsigned d, uint32_t vxrm) {
  if (d == 0) return v;
  const i128 scale = i128{1} << d;
  i128 q = v / scale, rem = v % scale;
  if (rem < 0) {  // floor division
    q -= 1;
    rem += scale;
  }
  const i128 half = scale / 2;
  switch (vxrm) {
    case 0: return q + (rem >= half ? 1 : 0);                                    // rnu
    case 1: return q + ((rem > half || (rem == half && (q & 1) != 0)) ? 1 : 0);  // rne
    case 2: return q;                                                            // rdn
    default: return rem != 0 ? (q | 1) : q;                                      // rod (jam)
  }
}

i128 clamp(i128 v, i128 lo, i128 hi, bool& sat) {
  if (v < lo) {
    sat = true;
    return lo;
  }
  if (v > hi) {
    sat = true;
    return hi;
  }
  return v;
}

// The lanes the row acts on, from first principles.
uint32_t active_lanes(const sim::Warp& w, bool use_v0) {
  uint32_t m = 0;
  for (unsigned i = 0; i < w.lanes; ++i) {
    const bool on = ((w.mask >> i) & 1) && i < w.vcfg.vl && (!use_v0 || (w.v[0][i] & 1));
    m |= uint32_t{on} << i;
  }
  return m;
}
bool lane_on(uint32_t m, unsigned i) {
  return (m >> i) & 1;
}

uint64_t int_binary(const std::string& b, uint64_t a, uint64_t c, unsigned sew) {
  const int64_t sa = sign_extend(a, sew), sc = sign_extend(c, sew);
  const int64_t min = -(int64_t{1} << (sew - 1));
  if (b == "vadd") return a + c;
  if (b == "vsub") return a - c;
  if (b == "vrsub") return c - a;
  if (b == "vminu") return std::min(a, c);
  if (b == "vmaxu") return std::max(a, c);
  if (b == "vmin") return static_cast<uint64_t>(std::min(sa, sc));
  if (b == "vmax") return static_cast<uint64_t>(std::max(sa, sc));
  if (b == "vand") return a & c;
  if (b == "vor") return a | c;
  if (b == "vxor") return a ^ c;
  if (b == "vmseq") return a == c;
  if (b == "vmsne") return a != c;
  if (b == "vmsltu") return a < c;
  if (b == "vmslt") return sa < sc;
  if (b == "vmsleu") return a <= c;
  if (b == "vmsle") return sa <= sc;
  if (b == "vmsgtu") return a > c;
  if (b == "vmsgt") return sa > sc;
  if (b == "vsll") return a << (c % sew);
  if (b == "vsrl") return a >> (c % sew);
  if (b == "vsra") return static_cast<uint64_t>(sa >> (c % sew));
  if (b == "vmul") return static_cast<uint64_t>(static_cast<u128>(a) * c);
  if (b == "vmulh") return static_cast<uint64_t>((i128{sa} * sc) >> sew);
  if (b == "vmulhu") return static_cast<uint64_t>((u128{a} * c) >> sew);
  if (b == "vmulhsu") return static_cast<uint64_t>((i128{sa} * static_cast<i128>(c)) >> sew);
  if (b == "vdivu") return c == 0 ? ~uint64_t{0} : a / c;
  if (b == "vremu") return c == 0 ? a : a % c;
  if (b == "vdiv") {
    if (sc == 0) return ~uint64_t{0};
    if (sa == min && sc == -1) return static_cast<uint64_t>(min);
    return static_cast<uint64_t>(sa / sc);
  }
  if (b == "vrem") {
    if (sc == 0) return a;
    if (sa == min && sc == -1) return 0;
    return static_cast<uint64_t>(sa % sc);
  }
  throw std::logic_error("no integer reference for " + b);
}

uint64_t fixed_point(const std::string& b, uint64_t a, uint64_t c, unsigned sew, uint32_t vxrm,
                     bool& sat) {
  const i128 sa = sign_extend(a, sew), sc = sign_extend(c, sew);
  const i128 ua = a, uc = c;
  const i128 smin = -(i128{1} << (sew - 1)), smax = (i128{1} << (sew - 1)) - 1;
  const i128 umax = (i128{1} << sew) - 1;
  i128 r;
  if (b == "vsaddu")
    r = clamp(ua + uc, 0, umax, sat);
  else if (b == "vsadd")
    r = clamp(sa + sc, smin, smax, sat);
  else if (b == "vssubu")
    r = clamp(ua - uc, 0, umax, sat);
  else if (b == "vssub")
    r = clamp(sa - sc, smin, smax, sat);
  else if (b == "vaaddu")
    r = roundoff(ua + uc, 1, vxrm);
  else if (b == "vaadd")
    r = roundoff(sa + sc, 1, vxrm);
  else if (b == "vasubu")
    r = roundoff(ua - uc, 1, vxrm);
  else if (b == "vasub")
    r = roundoff(sa - sc, 1, vxrm);
  else if (b == "vsmul")
    r = clamp(roundoff(sa * sc, sew - 1, vxrm), smin, smax, sat);
  else if (b == "vssrl")
    r = roundoff(ua, static_cast<unsigned>(c % sew), vxrm);
  else if (b == "vssra")
    r = roundoff(sa, static_cast<unsigned>(c % sew), vxrm);
  else
    throw std::logic_error("no fixed-point reference for " + b);
  return static_cast<uint64_t>(r);
}

uint64_t int_mul_add(const std::string& b, uint64_t x, uint64_t y, uint64_t z) {
  if (b == "vmacc") return z + x * y;
  if (b == "vnmsac") return z - x * y;
  if (b == "vmadd") return x * z + y;
  if (b == "vnmsub") return y - x * z;
  throw std::logic_error("no multiply-add reference for " + b);
}

// The scalar fp library at one element width, so that one reference serves SEW=32 (fp32)
// and SEW=16 (fp16: the element is the low 16 bits; integers of vfcvt are 16 bits wide).
struct Fp32 {
  static constexpr uint32_t kSign = 0x80000000u;
  static uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::add(a, b, rm, f);
  }
  static uint32_t sub(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::sub(a, b, rm, f);
  }
  static uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::mul(a, b, rm, f);
  }
  static uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::div(a, b, rm, f);
  }
  static uint32_t min(uint32_t a, uint32_t b, uint32_t& f) { return fp::min(a, b, f); }
  static uint32_t max(uint32_t a, uint32_t b, uint32_t& f) { return fp::max(a, b, f); }
  static bool eq(uint32_t a, uint32_t b, uint32_t& f) { return fp::eq(a, b, f); }
  static bool lt(uint32_t a, uint32_t b, uint32_t& f) { return fp::lt(a, b, f); }
  static bool le(uint32_t a, uint32_t b, uint32_t& f) { return fp::le(a, b, f); }
  static uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& f) {
    return fp::fma(a, b, c, rm, f);
  }
  static uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& f) { return fp::sqrt(a, rm, f); }
  static uint32_t classify(uint32_t a) { return fp::classify(a); }
  static uint32_t to_unsigned(uint32_t a, uint32_t rm, uint32_t& f) { return fp::to_u32(a, rm, f); }
  static uint32_t to_signed(uint32_t a, uint32_t rm, uint32_t& f) {
    return static_cast<uint32_t>(fp::to_i32(a, rm, f));
  }
  static uint32_t from_unsigned(uint32_t a, uint32_t rm, uint32_t& f) {
    return fp::from_u32(a, rm, f);
  }
  static uint32_t from_signed(uint32_t a, uint32_t rm, uint32_t& f) {
    return fp::from_i32(static_cast<int32_t>(a), rm, f);
  }
};
struct Fp16 {
  static constexpr uint32_t kSign = 0x8000u;
  static uint16_t h(uint32_t a) { return static_cast<uint16_t>(a); }
  static uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::f16::add(h(a), h(b), rm, f);
  }
  static uint32_t sub(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::f16::sub(h(a), h(b), rm, f);
  }
  static uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::f16::mul(h(a), h(b), rm, f);
  }
  static uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& f) {
    return fp::f16::div(h(a), h(b), rm, f);
  }
  static uint32_t min(uint32_t a, uint32_t b, uint32_t& f) { return fp::f16::min(h(a), h(b), f); }
  static uint32_t max(uint32_t a, uint32_t b, uint32_t& f) { return fp::f16::max(h(a), h(b), f); }
  static bool eq(uint32_t a, uint32_t b, uint32_t& f) { return fp::f16::eq(h(a), h(b), f); }
  static bool lt(uint32_t a, uint32_t b, uint32_t& f) { return fp::f16::lt(h(a), h(b), f); }
  static bool le(uint32_t a, uint32_t b, uint32_t& f) { return fp::f16::le(h(a), h(b), f); }
  static uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& f) {
    return fp::f16::fma(h(a), h(b), h(c), rm, f);
  }
  static uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& f) { return fp::f16::sqrt(h(a), rm, f); }
  static uint32_t classify(uint32_t a) { return fp::f16::classify(h(a)); }
  static uint32_t to_unsigned(uint32_t a, uint32_t rm, uint32_t& f) {
    return fp::f16::to_u16(h(a), rm, f);
  }
  static uint32_t to_signed(uint32_t a, uint32_t rm, uint32_t& f) {
    return static_cast<uint16_t>(fp::f16::to_i16(h(a), rm, f));
  }
  static uint32_t from_unsigned(uint32_t a, uint32_t rm, uint32_t& f) {
    return fp::f16::from_u32(h(a), rm, f);
  }
  static uint32_t from_signed(uint32_t a, uint32_t rm, uint32_t& f) {
    return fp::f16::from_i32(static_cast<int16_t>(a), rm, f);
  }
};

// a = vs2's element, c = the second operand, both already cut to SEW.
template <class L>
uint32_t fp_binary(const std::string& b, uint32_t a, uint32_t c, uint32_t rm, uint32_t& f) {
  constexpr uint32_t kSign = L::kSign, kMagnitude = L::kSign - 1;
  if (b == "vfadd") return L::add(a, c, rm, f);
  if (b == "vfsub") return L::sub(a, c, rm, f);
  if (b == "vfrsub") return L::sub(c, a, rm, f);
  if (b == "vfmul") return L::mul(a, c, rm, f);
  if (b == "vfdiv") return L::div(a, c, rm, f);
  if (b == "vfrdiv") return L::div(c, a, rm, f);
  if (b == "vfmin") return L::min(a, c, f);
  if (b == "vfmax") return L::max(a, c, f);
  if (b == "vfsgnj") return (a & kMagnitude) | (c & kSign);
  if (b == "vfsgnjn") return (a & kMagnitude) | (~c & kSign);
  if (b == "vfsgnjx") return a ^ (c & kSign);
  if (b == "vmfeq") return L::eq(a, c, f);
  if (b == "vmfne") return !L::eq(a, c, f);
  if (b == "vmflt") return L::lt(a, c, f);
  if (b == "vmfle") return L::le(a, c, f);
  if (b == "vmfgt") return L::lt(c, a, f);
  if (b == "vmfge") return L::le(c, a, f);
  throw std::logic_error("no fp reference for " + b);
}

// x = vs1 or f[rs1], y = vs2, z = old vd (RVV 1.0 definitions; negation of an operand is
// its sign flip, as in the scalar F extension's fnmadd family).
template <class L>
uint32_t fp_fma(const std::string& b, uint32_t x, uint32_t y, uint32_t z, uint32_t rm,
                uint32_t& f) {
  const auto neg = [](uint32_t v) { return v ^ L::kSign; };
  if (b == "vfmacc" || b == "vftta") return L::fma(x, y, z, rm, f);
  if (b == "vfnmacc") return L::fma(neg(x), y, neg(z), rm, f);
  if (b == "vfmsac") return L::fma(x, y, neg(z), rm, f);
  if (b == "vfnmsac") return L::fma(neg(x), y, z, rm, f);
  if (b == "vfmadd") return L::fma(x, z, y, rm, f);
  if (b == "vfnmadd") return L::fma(neg(x), z, neg(y), rm, f);
  if (b == "vfmsub") return L::fma(x, z, neg(y), rm, f);
  if (b == "vfnmsub") return L::fma(neg(x), z, y, rm, f);
  throw std::logic_error("no fma reference for " + b);
}

template <class L>
uint32_t fp_unary(const std::string& mn, uint32_t a, uint32_t frm, uint32_t& f) {
  if (mn == "vfcvt.xu.f.v") return L::to_unsigned(a, frm, f);
  if (mn == "vfcvt.x.f.v") return L::to_signed(a, frm, f);
  if (mn == "vfcvt.rtz.xu.f.v") return L::to_unsigned(a, fp::kRTZ, f);
  if (mn == "vfcvt.rtz.x.f.v") return L::to_signed(a, fp::kRTZ, f);
  if (mn == "vfcvt.f.xu.v") return L::from_unsigned(a, frm, f);
  if (mn == "vfcvt.f.x.v") return L::from_signed(a, frm, f);
  if (mn == "vfsqrt.v") return L::sqrt(a, frm, f);
  if (mn == "vfclass.v") return L::classify(a);
  // fp32 only (RowInfo::fp32_only):
  if (mn == "vfrsqrt7.v") return fp::rsqrt7(a, f);
  if (mn == "vfrec7.v") return fp::rec7(a, frm, f);
  if (mn == "vfexp") return fp::exp(a, frm, f);
  // The hardware's fp16 conversions on these encodings (docs/isa.md): half -> float, float -> half.
  if (mn == "vfwcvt.xu.f.v") return fp::f16::to_f32(static_cast<uint16_t>(a), f);
  if (mn == "vfwcvt.x.f.v") return fp::f16::from_f32(a, frm, f);
  throw std::logic_error("no fp unary reference for " + mn);
}

uint32_t mask_logical(const std::string& mn, uint32_t a, uint32_t c) {
  if (mn == "vmand.mm") return a & c;
  if (mn == "vmnand.mm") return !(a & c);
  if (mn == "vmandn.mm") return a & !c;
  if (mn == "vmor.mm") return a | c;
  if (mn == "vmnor.mm") return !(a | c);
  if (mn == "vmorn.mm") return a | !c;
  if (mn == "vmxor.mm") return a ^ c;
  if (mn == "vmxnor.mm") return !(a ^ c);
  throw std::logic_error("no mask reference for " + mn);
}

}  // namespace

RowInfo classify(const isa::InsnInfo& row) {
  RowInfo r;
  const std::string mn(row.mnemonic);
  const auto dot = mn.find('.');
  r.base = mn.substr(0, dot);
  r.form = dot == std::string::npos ? "" : mn.substr(dot + 1);
  for (const isa::OperandSlot& s : row.operands) {
    if (s.kind == isa::OperandKind::VMask) r.has_vm = true;
    if (s.kind == isa::OperandKind::Vs1) r.vector_second = true;
    if (s.kind == isa::OperandKind::Simm5 || s.kind == isa::OperandKind::Uimm5 ||
        s.kind == isa::OperandKind::Uimm12)
      r.immediate = true;
  }
  r.fp = row.cls == isa::InsnClass::VFloat;
  r.fp32_only =
      one_of(mn, {"vfrsqrt7.v", "vfrec7.v", "vfexp", "vftta.vv", "vfwcvt.xu.f.v", "vfwcvt.x.f.v"});
  const std::string& b = r.base;
  if (b == "vadd12" || b == "vsub12")
    r.kind = Kind::Add12;
  else if (mn == "vmv.x.s")
    r.kind = Kind::MoveToScalar;
  else if (mn == "vfmv.f.s")
    r.kind = Kind::FpMoveToScalar;
  else if (mn == "vmv.s.x" || b == "vmv")
    r.kind = Kind::Move;
  else if (mn == "vfmv.v.f" || mn == "vfmv.s.f")
    r.kind = Kind::FpMove;
  else if (b == "vmerge")
    r.kind = Kind::Merge;
  else if (b == "vfmerge")
    r.kind = Kind::FpMerge;
  else if (b == "vid")
    r.kind = Kind::Vid;
  else if (r.form == "mm")
    r.kind = Kind::MaskLogical;
  else if (one_of(b, {"vmacc", "vnmsac", "vmadd", "vnmsub"}))
    r.kind = Kind::IntMulAdd;
  else if (one_of(b, {"vwmaccu", "vwmacc", "vwmaccsu", "vwmaccus"}))
    r.kind = Kind::WidenMulAdd;
  else if (one_of(b, {"vwaddu", "vwadd", "vwsubu", "vwsub", "vwmulu", "vwmulsu", "vwmul"}))
    r.kind = Kind::Widen;
  else if (one_of(b, {"vsaddu", "vsadd", "vssubu", "vssub", "vaaddu", "vaadd", "vasubu", "vasub",
                      "vsmul", "vssrl", "vssra"}))
    r.kind = Kind::Fixed;
  else if (one_of(b, {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub",
                      "vfnmsub", "vftta"}))
    r.kind = Kind::FpFma;
  else if (b == "vfcvt" || one_of(mn, {"vfsqrt.v", "vfrsqrt7.v", "vfrec7.v", "vfclass.v", "vfexp",
                                       "vfwcvt.xu.f.v", "vfwcvt.x.f.v"}))
    r.kind = Kind::FpUnary;
  else if (r.fp)
    r.kind = Kind::FpBinary;
  else if (row.cls == isa::InsnClass::Vector)
    r.kind = Kind::IntBinary;
  return r;
}

bool reference(const isa::InsnInfo& row, const RowInfo& info, sim::Warp& w, const Operands& o) {
  const std::string mn(row.mnemonic);
  const std::string& b = info.base;
  const unsigned sew = w.vcfg.sew, g = w.vcfg.lmul;
  const uint64_t em = low_mask(sew);
  const uint32_t act = active_lanes(w, info.has_vm && o.masked);
  const uint32_t frm = w.frm;
  const sim::Warp before = w;  // all reads come from the state before the instruction
  const auto second = [&](unsigned k, unsigned i) -> uint64_t {
    if (info.vector_second) return before.v[o.vs1 + k][i] & em;
    if (info.immediate) return static_cast<uint64_t>(static_cast<int64_t>(o.imm)) & em;
    return before.x[o.rs1] & em;
  };
  const auto store = [&](unsigned reg, unsigned i, uint64_t v) {
    w.v[reg][i] = static_cast<uint32_t>(v & em);
  };
  uint32_t flags = 0;

  switch (info.kind) {
    case Kind::Unknown: return false;
    case Kind::IntBinary:
    case Kind::Fixed: {
      bool sat = false;
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i) {
          if (!lane_on(act, i)) continue;
          const uint64_t a = before.v[o.vs2 + k][i] & em, c = second(k, i);
          store(o.vd + k, i,
                info.kind == Kind::Fixed ? fixed_point(b, a, c, sew, before.vxrm & 3, sat)
                                         : int_binary(b, a, c, sew));
        }
      if (sat) w.vxsat = 1;
      return true;
    }
    case Kind::IntMulAdd:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i))
            store(o.vd + k, i,
                  int_mul_add(b, second(k, i), before.v[o.vs2 + k][i], before.v[o.vd + k][i]));
      return true;
    case Kind::Merge:
    case Kind::FpMerge:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i))
            store(o.vd + k, i, (before.v[0][i] & 1) ? second(k, i) : before.v[o.vs2 + k][i]);
      return true;
    case Kind::Move:
    case Kind::FpMove:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i)) store(o.vd + k, i, second(k, i));
      return true;
    case Kind::MoveToScalar:
    case Kind::FpMoveToScalar:
      // Every active lane writes rd in lane order.
      for (unsigned i = 0; i < w.lanes; ++i)
        if (lane_on(act, i) && o.rd != 0)
          w.x[o.rd] = static_cast<uint32_t>(sign_extend(before.v[o.vs2][i], sew));
      return true;
    case Kind::Vid:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i)) store(o.vd + k, i, i);
      return true;
    case Kind::MaskLogical:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i))
            w.v[o.vd + k][i] =
                mask_logical(mn, before.v[o.vs2 + k][i] & 1, before.v[o.vs1 + k][i] & 1);
      return true;
    case Kind::Add12:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i))
            store(o.vd + k, i,
                  b == "vadd12" ? before.v[o.vs1 + k][i] + uint64_t(uint32_t(o.imm))
                                : before.v[o.vs1 + k][i] - uint64_t(uint32_t(o.imm)));
      return true;
    case Kind::Widen:
    case Kind::WidenMulAdd: {
      const unsigned wide_bits = 2 * sew;
      const uint64_t wm = low_mask(wide_bits);
      const bool pairs = sew == 32;
      const auto read_wide = [&](unsigned reg, unsigned k, unsigned i) -> uint64_t {
        if (pairs) return before.v[reg + 2 * k][i] | uint64_t{before.v[reg + 2 * k + 1][i]} << 32;
        return before.v[reg + k][i] & wm;
      };
      const auto ext = [&](uint64_t v, bool s) -> uint64_t {
        return s ? static_cast<uint64_t>(sign_extend(v, sew)) : v & em;
      };
      // Signedness of (vs2, vs1 / rs1) operands.
      bool s2 = false, s1 = false;
      if (one_of(b, {"vwadd", "vwsub", "vwmul", "vwmacc"})) s2 = s1 = true;
      if (b == "vwmulsu") s2 = true;
      if (b == "vwmaccsu") s1 = true;
      if (b == "vwmaccus") s2 = true;
      const bool wide_a = info.form == "wv" || info.form == "wx";
      const bool wide_b = info.form == "wv";
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i) {
          if (!lane_on(act, i)) continue;
          const uint64_t a = wide_a ? read_wide(o.vs2, k, i) : ext(before.v[o.vs2 + k][i], s2);
          uint64_t c;
          if (wide_b)
            c = read_wide(o.vs1, k, i);
          else if (info.vector_second)
            c = ext(before.v[o.vs1 + k][i], s1);
          else
            c = ext(before.x[o.rs1], s1);
          uint64_t r;
          if (info.kind == Kind::WidenMulAdd)
            r = read_wide(o.vd, k, i) + c * a;
          else if (b == "vwaddu" || b == "vwadd")
            r = a + c;
          else if (b == "vwsubu" || b == "vwsub")
            r = a - c;
          else
            r = a * c;
          r &= wm;
          if (pairs) {
            w.v[o.vd + 2 * k][i] = static_cast<uint32_t>(r);
            w.v[o.vd + 2 * k + 1][i] = static_cast<uint32_t>(r >> 32);
          } else {
            w.v[o.vd + k][i] = static_cast<uint32_t>(r);
          }
        }
      return true;
    }
    case Kind::FpBinary:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i)) {
            const auto a = static_cast<uint32_t>(before.v[o.vs2 + k][i] & em);
            const auto c = static_cast<uint32_t>(second(k, i));
            w.v[o.vd + k][i] = sew == 16 ? fp_binary<Fp16>(b, a, c, frm, flags)
                                         : fp_binary<Fp32>(b, a, c, frm, flags);
          }
      w.fflags |= flags;
      return true;
    case Kind::FpFma:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i)) {
            const auto x = static_cast<uint32_t>(second(k, i));
            const auto y = static_cast<uint32_t>(before.v[o.vs2 + k][i] & em);
            const auto z = static_cast<uint32_t>(before.v[o.vd + k][i] & em);
            w.v[o.vd + k][i] = sew == 16 ? fp_fma<Fp16>(b, x, y, z, frm, flags)
                                         : fp_fma<Fp32>(b, x, y, z, frm, flags);
          }
      w.fflags |= flags;
      return true;
    case Kind::FpUnary:
      for (unsigned k = 0; k < g; ++k)
        for (unsigned i = 0; i < w.lanes; ++i)
          if (lane_on(act, i)) {
            const auto a = static_cast<uint32_t>(before.v[o.vs2 + k][i] & em);
            w.v[o.vd + k][i] =
                sew == 16 ? fp_unary<Fp16>(mn, a, frm, flags) : fp_unary<Fp32>(mn, a, frm, flags);
          }
      w.fflags |= flags;
      return true;
  }
  return false;
}

}  // namespace ventus::test
