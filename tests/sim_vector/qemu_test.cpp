// The vector rows that Ventus keeps from RVV 1.0, against qemu-riscv32 as an independent
// RISC-V vector unit. With VLEN = 1024 and vl = 32, element i of a qemu register is lane i
// of a Ventus register (packed at SEW 8/16, where a Ventus lane holds the element in its low
// bits), so the same random inputs run on both and every element, vxsat and fflags must
// agree. Compares are checked against qemu's mask bits (Ventus writes 0/1 per element);
// widening results against qemu's 2*SEW elements (Ventus: register pairs at SEW=32).
// Not here, because Ventus changes them or qemu cannot run them: masks (v0.t, merges, .mm
// ops), vmv.x.s / vmv.s.x / vfmv.f.s / vfmv.s.f, the .wv forms, the custom rows, and the
// vfcvt.rtz forms (qemu 7.2 crashes on them). The reference-model test covers those.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "rv_runner.h"
#include "test_util.h"

namespace ventus::test {
namespace {

constexpr unsigned kLanes = 32;
constexpr unsigned kRegBytes = 128;  // VLEN = 1024
constexpr int kTrialsPerSew = 6;
const testing::RvTarget kVectorTarget{"rv32imf_zve32f",
                                      "rv32,v=true,vext_spec=v1.0,vlen=1024,elen=64"};

// Ventus registers of one case as the semantics see them.
struct Inputs {
  uint32_t vs2[2][kLanes];  // [1]: high words of a wide (pair) vs2
  uint32_t vs1[kLanes];
  uint32_t vd[2][kLanes];  // accumulator; [1]: high words of a wide one
  uint32_t x;
  int32_t imm;
  uint32_t frm, vxrm;
};

bool in_qemu_check(const isa::InsnInfo& row, const RowInfo& info) {
  const std::string mn(row.mnemonic);
  switch (info.kind) {
    case Kind::IntBinary:
    case Kind::Fixed:
    case Kind::IntMulAdd:
    case Kind::Vid:
    case Kind::WidenMulAdd:
    case Kind::FpBinary: return true;
    case Kind::Widen: return info.form != "wv";
    case Kind::FpFma: return info.base != "vftta";
    case Kind::FpUnary:
      return mn != "vfexp" && mn.rfind("vfwcvt.", 0) != 0 && mn.find(".rtz.") == std::string::npos;
    case Kind::Move: return mn.starts_with("vmv.v.");
    case Kind::FpMove: return mn == "vfmv.v.f";
    default: return false;
  }
}
bool is_compare(const RowInfo& info) {
  return info.base.starts_with("vms") || info.base.starts_with("vmf");
}
bool wide_result(const RowInfo& info) {
  return info.kind == Kind::Widen || info.kind == Kind::WidenMulAdd;
}

// Packs lanes into a qemu register-group image: element i of `bits` bits at bit i*bits.
// For 64-bit elements lo/hi are the two Ventus words of the pair.
std::vector<uint8_t> pack(const uint32_t* lo, const uint32_t* hi, unsigned bits) {
  std::vector<uint8_t> image(2 * kRegBytes, 0);
  for (unsigned i = 0; i < kLanes; ++i) {
    const uint64_t v = bits == 64 ? (lo[i] | uint64_t{hi[i]} << 32) : lo[i];
    for (unsigned b = 0; b < bits / 8; ++b)
      image[i * bits / 8 + b] = static_cast<uint8_t>(v >> 8 * b);
  }
  return image;
}
uint64_t element(const uint8_t* image, unsigned i, unsigned bits) {
  uint64_t v = 0;
  for (unsigned b = 0; b < bits / 8; ++b) v |= uint64_t{image[i * bits / 8 + b]} << 8 * b;
  return v;
}

std::string operand_text(const isa::OperandSlot& s, const RowInfo& info, const Inputs& in) {
  switch (s.kind) {
    case OperandKind::Vd: return "v24";
    case OperandKind::Vs2: return "v8";
    case OperandKind::Vs1: return "v16";
    case OperandKind::Rs1: return info.fp ? "fa1" : "a1";
    case OperandKind::Simm5:
    case OperandKind::Uimm5: return std::to_string(in.imm);
    default: return "";
  }
}

void emit_words(std::string& out, const std::vector<uint8_t>& image) {
  for (size_t i = 0; i < image.size(); i += 4)
    out += fmt::format("  .word {:#x}\n", element(image.data(), i / 4, 32));
}

// One program runs every case of a row; each case stores v24, v25, vxsat and fflags.
constexpr unsigned kOutBytes = 2 * kRegBytes + 8;

std::string program(const isa::InsnInfo& row, const RowInfo& info,
                    const std::vector<std::pair<unsigned, Inputs>>& cases) {
  // norelax: the linker would turn `la` into gp-relative adds, and nothing sets gp here.
  std::string text = ".option norelax\n.text\n.globl _start\n_start:\n  la s0, out\n";
  std::string data = ".data\n.balign 8\n";
  for (size_t n = 0; n < cases.size(); ++n) {
    const auto& [sew, in] = cases[n];
    const bool wide_vs2 = info.form == "wx";
    const unsigned narrow = sew, wide = 2 * sew;
    std::string insn = std::string(row.mnemonic), sep = " ";
    for (const isa::OperandSlot& s : row.operands) {
      const std::string t = operand_text(s, info, in);
      if (t.empty()) continue;
      insn += sep + t;
      sep = ", ";
    }
    text += fmt::format(
        "  la a0, in{0}\n"
        "  vl1re8.v v8, (a0)\n  addi a0, a0, 128\n  vl1re8.v v9, (a0)\n  addi a0, a0, 128\n"
        "  vl1re8.v v16, (a0)\n  addi a0, a0, 256\n"
        "  vl1re8.v v24, (a0)\n  addi a0, a0, 128\n  vl1re8.v v25, (a0)\n"
        "  li t0, 32\n  vsetvli t0, t0, e{1}, m1, tu, mu\n"
        "  li a1, {2:#x}\n  fmv.w.x fa1, a1\n"
        "  csrwi vxrm, {3}\n  csrwi frm, {4}\n  csrwi vxsat, 0\n  csrwi fflags, 0\n"
        "  {5}\n"
        "  vs1r.v v24, (s0)\n  addi s0, s0, 128\n  vs1r.v v25, (s0)\n  addi s0, s0, 128\n"
        "  csrr t1, vxsat\n  sw t1, 0(s0)\n  csrr t1, fflags\n  sw t1, 4(s0)\n  addi s0, s0, 8\n",
        n, sew, in.x, in.vxrm, in.frm, insn);
    data += fmt::format("in{}:\n", n);
    emit_words(data, pack(in.vs2[0], in.vs2[1], wide_vs2 ? wide : narrow));
    std::vector<uint8_t> vs1 = pack(in.vs1, in.vs1, narrow);
    vs1.resize(2 * kRegBytes);
    emit_words(data, vs1);
    emit_words(data, pack(in.vd[0], in.vd[1], wide_result(info) ? wide : narrow));
  }
  text += fmt::format(
      "  li a0, 1\n  la a1, out\n  li a2, {}\n  li a7, 64\n  ecall\n  li a0, 0\n  li a7, 93\n"
      "  ecall\n",
      cases.size() * kOutBytes);
  data += fmt::format(".balign 8\nout:\n  .fill {}, 1, 0\n", cases.size() * kOutBytes);
  return text + data;
}

class QemuRowTest : public ::testing::TestWithParam<const isa::InsnInfo*> {};

TEST_P(QemuRowTest, AgreesWithQemu) {
  if (const std::string missing = testing::missing_rv_tools(); !missing.empty())
    GTEST_SKIP() << "missing " << missing;
  const isa::InsnInfo& row = *GetParam();
  const RowInfo info = classify(row);
  Rng rng(std::hash<std::string_view>{}(row.mnemonic) ^ 0x9e3779b9u);
  std::vector<std::pair<unsigned, Inputs>> cases;
  const std::vector<unsigned> sews =
      info.fp ? std::vector<unsigned>{32} : std::vector<unsigned>{8, 16, 32};
  for (unsigned sew : sews)
    for (int t = 0; t < kTrialsPerSew; ++t) {
      Inputs in{};
      const Rng::Style style = rng.style();
      const bool int_source = row.mnemonic.starts_with("vfcvt.f.");
      const auto value = [&] { return rng.value(info.fp && !int_source, sew, style); };
      for (unsigned i = 0; i < kLanes; ++i) {
        in.vs2[0][i] = value();
        in.vs2[1][i] = value();
        in.vs1[i] = value();
        in.vd[0][i] = value();
        in.vd[1][i] = value();
      }
      // qemu's packed elements have no bits above SEW: Ventus must ignore them, so they
      // stay random here (the wide elements of SEW 8/16 likewise above 2*SEW).
      in.x = rng.value(info.fp, sew, style);
      in.imm = row.operands.end() != std::find_if(row.operands.begin(), row.operands.end(),
                                                  [](const isa::OperandSlot& s) {
                                                    return s.kind == OperandKind::Uimm5;
                                                  })
                   ? static_cast<int32_t>(rng.below(32))
                   : static_cast<int32_t>(rng.below(32)) - 16;
      in.frm = rng.below(5);
      in.vxrm = rng.below(4);
      cases.emplace_back(sew, in);
    }
  const std::vector<uint8_t> out = testing::run_rv32(program(row, info, cases), kVectorTarget);
  ASSERT_EQ(out.size(), cases.size() * kOutBytes);

  Machine m;
  for (size_t n = 0; n < cases.size(); ++n) {
    const auto& [sew, in] = cases[n];
    sim::Warp& w = *m.warp;
    w.vcfg.sew = sew;
    w.vcfg.lmul = 1;
    w.frm = in.frm;
    w.vxrm = in.vxrm;
    w.vxsat = 0;
    w.fflags = 0;
    w.x[11] = in.x;
    std::memcpy(w.v[8], in.vs2[0], sizeof in.vs2[0]);
    std::memcpy(w.v[9], in.vs2[1], sizeof in.vs2[1]);
    std::memcpy(w.v[16], in.vs1, sizeof in.vs1);
    std::memcpy(w.v[24], in.vd[0], sizeof in.vd[0]);
    std::memcpy(w.v[25], in.vd[1], sizeof in.vd[1]);
    m.run(row.mnemonic, {.vd = 24, .vs1 = 16, .vs2 = 8, .rs1 = 11, .imm = in.imm});

    const uint8_t* q = out.data() + n * kOutBytes;
    const std::string where = fmt::format("{} case {} sew={} x={:#x} imm={} frm={} vxrm={}",
                                          row.mnemonic, n, sew, in.x, in.imm, in.frm, in.vxrm);
    for (unsigned i = 0; i < kLanes; ++i) {
      if (is_compare(info)) {
        ASSERT_EQ(w.v[24][i], (q[i / 8] >> (i % 8)) & 1u) << where << " lane " << i;
      } else if (wide_result(info) && sew == 32) {
        const uint64_t e = element(q, i, 64);
        ASSERT_EQ(w.v[24][i], static_cast<uint32_t>(e)) << where << " lane " << i << " low";
        ASSERT_EQ(w.v[25][i], static_cast<uint32_t>(e >> 32)) << where << " lane " << i << " high";
      } else {
        const unsigned bits = wide_result(info) ? 2 * sew : sew;
        ASSERT_EQ(w.v[24][i], element(q, i, bits)) << where << " lane " << i;
      }
    }
    uint32_t vxsat, fflags;
    std::memcpy(&vxsat, q + 2 * kRegBytes, 4);
    std::memcpy(&fflags, q + 2 * kRegBytes + 4, 4);
    EXPECT_EQ(w.vxsat, vxsat) << where;
    EXPECT_EQ(w.fflags, fflags) << where;
  }
}

std::vector<const isa::InsnInfo*> qemu_rows() {
  std::vector<const isa::InsnInfo*> rows;
  for (const isa::InsnInfo& r : isa::instructions())
    if (is_vector_row(r) && in_qemu_check(r, classify(r))) rows.push_back(&r);
  return rows;
}

std::string row_name(const ::testing::TestParamInfo<const isa::InsnInfo*>& p) {
  std::string name(p.param->mnemonic);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}
INSTANTIATE_TEST_SUITE_P(Rows, QemuRowTest, ::testing::ValuesIn(qemu_rows()), row_name);

}  // namespace
}  // namespace ventus::test
