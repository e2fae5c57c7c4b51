// Vector integer semantics: arithmetic, logic, shifts, compares, min/max, multiply, divide,
// multiply-add, merges and moves, vid.v, vmv.x.s/vmv.s.x and the mask-logical .mm ops.
// The model (SEW, LMUL groups, masks, Ventus changes to RVV 1.0) is in docs/vector.md.
#include "vector_util.h"

namespace ventus::sim {
namespace {

using vec::Src;

// The operations, called with two elements of the unsigned element type U of the current
// SEW. They compute in unsigned or 64-bit arithmetic (no signed overflow, no promotion
// surprises for uint16_t) and return the U result as a word.
template <class U>
using S = vec::Signed<U>;

constexpr auto kAdd = [](auto a, auto b) -> uint32_t { return decltype(a)(a + b); };
constexpr auto kSub = [](auto a, auto b) -> uint32_t { return decltype(a)(a - b); };
constexpr auto kReverseSub = [](auto a, auto b) -> uint32_t { return decltype(a)(b - a); };
constexpr auto kAnd = [](auto a, auto b) -> uint32_t { return a & b; };
constexpr auto kOr = [](auto a, auto b) -> uint32_t { return a | b; };
constexpr auto kXor = [](auto a, auto b) -> uint32_t { return decltype(a)(a ^ b); };
constexpr auto kMinu = [](auto a, auto b) -> uint32_t { return a < b ? a : b; };
constexpr auto kMaxu = [](auto a, auto b) -> uint32_t { return a > b ? a : b; };
constexpr auto kMin = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return static_cast<S<U>>(a) < static_cast<S<U>>(b) ? a : b;
};
constexpr auto kMax = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return static_cast<S<U>>(a) > static_cast<S<U>>(b) ? a : b;
};

// Compares write 0/1 into the element (Ventus: no packed mask bits).
constexpr auto kEq = [](auto a, auto b) -> uint32_t { return a == b; };
constexpr auto kNe = [](auto a, auto b) -> uint32_t { return a != b; };
constexpr auto kLtu = [](auto a, auto b) -> uint32_t { return a < b; };
constexpr auto kLeu = [](auto a, auto b) -> uint32_t { return a <= b; };
constexpr auto kGtu = [](auto a, auto b) -> uint32_t { return a > b; };
constexpr auto kLt = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return static_cast<S<U>>(a) < static_cast<S<U>>(b);
};
constexpr auto kLe = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return static_cast<S<U>>(a) <= static_cast<S<U>>(b);
};
constexpr auto kGt = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return static_cast<S<U>>(a) > static_cast<S<U>>(b);
};

// Shifts use the low log2(SEW) bits of the shift operand.
constexpr auto kSll = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return U(uint32_t{a} << (b & (vec::kBits<U> - 1)));
};
constexpr auto kSrl = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return U(a >> (b & (vec::kBits<U> - 1)));
};
constexpr auto kSra = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return U(static_cast<S<U>>(a) >> (b & (vec::kBits<U> - 1)));
};

constexpr auto kMul = [](auto a, auto b) -> uint32_t {
  return decltype(a)(uint32_t{a} * uint32_t{b});
};
constexpr auto kMulh = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  const int64_t p = int64_t{static_cast<S<U>>(a)} * int64_t{static_cast<S<U>>(b)};
  return U(static_cast<uint64_t>(p >> vec::kBits<U>));
};
constexpr auto kMulhu = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return U((uint64_t{a} * uint64_t{b}) >> vec::kBits<U>);
};
// vmulhsu: vs2 signed, vs1/rs1 unsigned.
constexpr auto kMulhsu = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  const int64_t p = int64_t{static_cast<S<U>>(a)} * static_cast<int64_t>(uint64_t{b});
  return U(static_cast<uint64_t>(p >> vec::kBits<U>));
};

// RVV division: x/0 = all ones, x%0 = x; signed overflow (min / -1) = min, remainder 0.
constexpr auto kDivu = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return b == 0 ? U(~U{0}) : U(a / b);
};
constexpr auto kRemu = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  return b == 0 ? a : U(a % b);
};
// The .vx rows divide every lane by the same x: by a power of two (a work-group size:
// get_global_id's vremu.vx and vdivu.vx) a shift or a mask, where a host division takes
// 20-odd cycles per lane.
constexpr auto kDivuByScalar = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  if (b != 0 && (b & (b - 1)) == 0) return U(a >> std::countr_zero(b));
  return kDivu(a, b);
};
constexpr auto kRemuByScalar = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  if (b != 0 && (b & (b - 1)) == 0) return U(a & (b - 1));
  return kRemu(a, b);
};
constexpr auto kDiv = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  const int64_t x = static_cast<S<U>>(a), y = static_cast<S<U>>(b);
  return y == 0 ? U(~U{0}) : U(static_cast<uint64_t>(x / y));  // min / -1 wraps to min
};
constexpr auto kRem = [](auto a, auto b) -> uint32_t {
  using U = decltype(a);
  const int64_t x = static_cast<S<U>>(a), y = static_cast<S<U>>(b);
  return y == 0 ? a : U(static_cast<uint64_t>(x % y));
};

// Multiply-add: vd = op(x, y, z) with x = vs1 or x[rs1], y = vs2 and z = the accumulator,
// which is the old vd (read from in.rs3: under regext its high bits come from the rs3 slot).
template <Src S2, class Op>
void multiply_add(Exec& ctx, const Insn& in, Op op) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs3, g, "vd (accumulator)");
  vec::check_group(in.rs2, g, "vs2");
  if constexpr (S2 == Src::V) vec::check_group(in.rs1, g, "vs1");
  const uint32_t scalar = S2 == Src::X ? vec::read_x(ctx, in.rs1) : 0;
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* x = S2 == Src::V ? w.v[in.rs1 + k] : nullptr;
      const uint32_t* y = w.v[in.rs2 + k];
      const uint32_t* z = w.v[in.rs3 + k];
      vec::write_lanes(w.v[in.rd + k], active, [&](unsigned i) -> uint32_t {
        return U(op(S2 == Src::V ? x[i] : scalar, y[i], z[i]));
      });
    }
  });
}
constexpr auto kMacc = [](uint32_t x, uint32_t y, uint32_t z) { return z + x * y; };
constexpr auto kNmsac = [](uint32_t x, uint32_t y, uint32_t z) { return z - x * y; };
constexpr auto kMadd = [](uint32_t x, uint32_t y, uint32_t z) { return x * z + y; };
constexpr auto kNmsub = [](uint32_t x, uint32_t y, uint32_t z) { return y - x * z; };

// vd = v0[i] ? second : vs2 on the SIMT-active lanes below vl (v0 selects, it does not mask).
template <Src S2>
void merge(Exec& ctx, const Insn& in) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs2, g, "vs2");
  if constexpr (S2 == Src::V) vec::check_group(in.rs1, g, "vs1");
  const uint32_t scalar = S2 == Src::X ? vec::read_x(ctx, in.rs1) : static_cast<uint32_t>(in.imm);
  const uint32_t active = ctx.active_lanes(1);
  if (active == 0) return;
  const uint32_t select = w.v0_mask();
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* a = w.v[in.rs2 + k];
      const uint32_t* b = S2 == Src::V ? w.v[in.rs1 + k] : a;
      vec::write_lanes(w.v[in.rd + k], active, [&](unsigned i) -> uint32_t {
        return U(((select >> i) & 1u) ? (S2 == Src::V ? b[i] : scalar) : a[i]);
      });
    }
  });
}

// vd = second (vmv.v.v / vmv.v.x / vmv.v.i, and vmv.s.x which Ventus makes a vmv.v.x).
template <Src S2>
void move(Exec& ctx, const Insn& in) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  if constexpr (S2 == Src::V) vec::check_group(in.rs1, g, "vs1");
  const uint32_t scalar = S2 == Src::X ? vec::read_x(ctx, in.rs1) : static_cast<uint32_t>(in.imm);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* b = S2 == Src::V ? w.v[in.rs1 + k] : nullptr;
      vec::write_lanes(w.v[in.rd + k], active,
                       [&](unsigned i) -> uint32_t { return U(S2 == Src::V ? b[i] : scalar); });
    }
  });
}

// Mask-logical ops on per-element mask values: vd = op(vs2 bit 0, vs1 bit 0) as 0/1, on the
// SIMT-active lanes below vl (these rows have no vm field), for each register of the group.
template <class Op>
void mask_logical(Exec& ctx, const Insn& in, Op op) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs2, g, "vs2");
  vec::check_group(in.rs1, g, "vs1");
  const uint32_t active = ctx.active_lanes(1);
  if (active == 0) return;
  for (unsigned k = 0; k < g; ++k) {
    const uint32_t* a = w.v[in.rs2 + k];
    const uint32_t* b = w.v[in.rs1 + k];
    vec::write_lanes(w.v[in.rd + k], active,
                     [&](unsigned i) -> uint32_t { return op(a[i] & 1u, b[i] & 1u) & 1u; });
  }
}

}  // namespace
}  // namespace ventus::sim

using ventus::sim::vec::binary;
using ventus::sim::vec::Src;

#define VT_VV(ID, OP)            \
  VT_SEM(ID##_VV) {              \
    binary<Src::V>(ctx, in, OP); \
  }
#define VT_VX(ID, OP)            \
  VT_SEM(ID##_VX) {              \
    binary<Src::X>(ctx, in, OP); \
  }
#define VT_VI(ID, OP)            \
  VT_SEM(ID##_VI) {              \
    binary<Src::I>(ctx, in, OP); \
  }
#define VT_VVX(ID, OP) VT_VV(ID, OP) VT_VX(ID, OP)
#define VT_VVXI(ID, OP) VT_VV(ID, OP) VT_VX(ID, OP) VT_VI(ID, OP)

namespace ventus::sim {

VT_VVXI(VADD, kAdd)
VT_VVX(VSUB, kSub)
VT_VX(VRSUB, kReverseSub)
VT_VI(VRSUB, kReverseSub)
VT_VVX(VMINU, kMinu)
VT_VVX(VMIN, kMin)
VT_VVX(VMAXU, kMaxu)
VT_VVX(VMAX, kMax)
VT_VVXI(VAND, kAnd)
VT_VVXI(VOR, kOr)
VT_VVXI(VXOR, kXor)

VT_VVXI(VMSEQ, kEq)
VT_VVXI(VMSNE, kNe)
VT_VVX(VMSLTU, kLtu)
VT_VVX(VMSLT, kLt)
VT_VVXI(VMSLEU, kLeu)
VT_VVXI(VMSLE, kLe)
VT_VX(VMSGTU, kGtu)
VT_VI(VMSGTU, kGtu)
VT_VX(VMSGT, kGt)
VT_VI(VMSGT, kGt)

VT_VVXI(VSLL, kSll)
VT_VVXI(VSRL, kSrl)
VT_VVXI(VSRA, kSra)

VT_VVX(VMUL, kMul)
VT_VVX(VMULH, kMulh)
VT_VVX(VMULHU, kMulhu)
VT_VVX(VMULHSU, kMulhsu)
VT_VV(VDIVU, kDivu)
VT_VX(VDIVU, kDivuByScalar)
VT_VVX(VDIV, kDiv)
VT_VV(VREMU, kRemu)
VT_VX(VREMU, kRemuByScalar)
VT_VVX(VREM, kRem)

VT_SEM(VMACC_VV) {
  multiply_add<Src::V>(ctx, in, kMacc);
}
VT_SEM(VMACC_VX) {
  multiply_add<Src::X>(ctx, in, kMacc);
}
VT_SEM(VNMSAC_VV) {
  multiply_add<Src::V>(ctx, in, kNmsac);
}
VT_SEM(VNMSAC_VX) {
  multiply_add<Src::X>(ctx, in, kNmsac);
}
VT_SEM(VMADD_VV) {
  multiply_add<Src::V>(ctx, in, kMadd);
}
VT_SEM(VMADD_VX) {
  multiply_add<Src::X>(ctx, in, kMadd);
}
VT_SEM(VNMSUB_VV) {
  multiply_add<Src::V>(ctx, in, kNmsub);
}
VT_SEM(VNMSUB_VX) {
  multiply_add<Src::X>(ctx, in, kNmsub);
}

VT_SEM(VMERGE_VVM) {
  merge<Src::V>(ctx, in);
}
VT_SEM(VMERGE_VXM) {
  merge<Src::X>(ctx, in);
}
VT_SEM(VMERGE_VIM) {
  merge<Src::I>(ctx, in);
}
VT_SEM(VMV_V_V) {
  move<Src::V>(ctx, in);
}
VT_SEM(VMV_V_X) {
  move<Src::X>(ctx, in);
}
VT_SEM(VMV_V_I) {
  move<Src::I>(ctx, in);
}
VT_SEM(VMV_S_X) {
  move<Src::X>(ctx, in);
}

// vmv.x.s rd, vs2: every active lane writes rd in lane order, so rd ends with the highest
// active lane's element, sign-extended from SEW as in RVV; with no active lane rd is kept.
// It reads vs2 alone whatever LMUL (a scalar result has no group).
VT_SEM(VMV_X_S) {
  Warp& w = ctx.warp;
  vec::check_group(in.rs2, 1, "vs2");
  const uint32_t active = ctx.active_lanes(1);
  vec::check_x(in.rd);
  if (active == 0) return;
  const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(active));
  vec::with_sew(w, [&]<class U>() {
    vec::write_x(ctx, in.rd, static_cast<uint32_t>(vec::extend<U>(w.v[in.rs2][last], true)));
  });
}

// vid.v: the lane index (not the thread id), in every register of the group.
VT_SEM(VID_V) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k)
      vec::write_lanes(w.v[in.rd + k], active, [](unsigned i) -> uint32_t { return U(i); });
  });
}

VT_SEM(VMANDN_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return a & ~b; });
}
VT_SEM(VMAND_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return a & b; });
}
VT_SEM(VMOR_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return a | b; });
}
VT_SEM(VMXOR_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return a ^ b; });
}
VT_SEM(VMORN_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return a | ~b; });
}
VT_SEM(VMNAND_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return ~(a & b); });
}
VT_SEM(VMNOR_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return ~(a | b); });
}
VT_SEM(VMXNOR_MM) {
  mask_logical(ctx, in, [](uint32_t a, uint32_t b) { return ~(a ^ b); });
}

}  // namespace ventus::sim
