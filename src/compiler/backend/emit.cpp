// Frames, prologue/epilogue, expansion of the pseudo instructions, assembly text.
//
// Frames grow upwards, as the guide's stacks do. The scalar frame (saved ra, saved
// callee-saved x registers, scalar spills) lies just below sp in local memory, one stack
// per warp. The private frame (callee-saved v registers, vector spills, then the
// function's allocas at the top) lies just below tp in private memory, where the hardware
// gives each thread its own copy of every address.
#include "emit.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "ventus/asm.h"
#include "ventus/error.h"
#include "ventus/isa.h"

namespace ventus::cc::backend {

std::string register_name(uint32_t r) {
  static const char* const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                      "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  if (is_vector_phys(r)) return fmt::format("v{}", r - kVectorBase);
  if (r < 32) return abi[r];
  if (r < 64) return fmt::format("x{}", r);
  throw Error(fmt::format("internal: register {} was not allocated", r));
}

namespace {

std::string format_inst(const MInst& inst) {
  if (inst.op.empty()) return inst.ops.at(0).text + ":";
  auto text = [](const Operand& op) -> std::string {
    switch (op.kind) {
      case Operand::Kind::Reg: return register_name(op.reg);
      case Operand::Kind::Imm: return fmt::format("{}", op.imm);
      default: return op.text;
    }
  };
  std::string out = "\t" + inst.op;
  size_t n = inst.ops.size();
  size_t plain = inst.memory_form ? n - 2 : n;
  for (size_t i = 0; i < plain; ++i) out += (i ? ", " : " ") + text(inst.ops[i]);
  if (inst.memory_form)
    out += fmt::format("{}{}({})", plain ? ", " : " ", text(inst.ops[n - 2]), text(inst.ops[n - 1]));
  return out;
}

struct Frame {
  uint32_t scalar_bytes = 0;   // sp frame
  uint32_t private_bytes = 0;  // tp frame
  int ra_offset = 0;
  std::vector<std::pair<uint32_t, int>> saved_scalars;  // register, offset from sp
  std::vector<std::pair<uint32_t, int>> saved_vectors;  // register, offset from tp
  int scalar_spill_base = 0;                            // offset of spill slot 0 from sp
  int vector_spill_base = 0;                            // offset of spill slot 0 from tp
};

Frame layout_frame(const MFunction& mf) {
  Frame f;
  std::vector<uint32_t> scalars, vectors;
  for (uint32_t r : mf.used_callee_saved) (is_vector_phys(r) ? vectors : scalars).push_back(r);
  uint32_t s = mf.makes_calls ? 4 : 0;
  s += 4 * static_cast<uint32_t>(scalars.size()) + mf.scalar_spill_bytes;
  f.scalar_bytes = s;
  int off = -static_cast<int>(s);
  if (mf.makes_calls) {
    f.ra_offset = off;
    off += 4;
  }
  for (uint32_t r : scalars) {
    f.saved_scalars.push_back({r, off});
    off += 4;
  }
  f.scalar_spill_base = off;
  // The vector area (saved registers, spills) below the allocas keeps them aligned.
  const uint32_t vector_area = mf.vector_spill_bytes + 4 * static_cast<uint32_t>(vectors.size());
  f.private_bytes =
      mf.private_frame + (vector_area + mf.private_align - 1) / mf.private_align * mf.private_align;
  int voff = -static_cast<int>(f.private_bytes);
  for (uint32_t r : vectors) {
    f.saved_vectors.push_back({r, voff});
    voff += 4;
  }
  f.vector_spill_base = voff;
  if (f.scalar_bytes > kScalarStackBytes)
    throw Error(fmt::format("{}error: '{}' needs a {}-byte scalar stack frame; a warp's stack is {} "
                            "bytes",
                            mf.location, mf.name, f.scalar_bytes, kScalarStackBytes));
  if (f.private_bytes > kPrivateFrameBytes)
    throw Error(fmt::format("{}error: '{}' needs {} bytes of private memory per work-item (its "
                            "variables and spilled registers); at most {} are addressable",
                            mf.location, mf.name, f.private_bytes, kPrivateFrameBytes));
  return f;
}

class Printer {
 public:
  Printer(const MFunction& mf, const Frame& frame, std::string& out) : mf_(mf), frame_(frame), out_(out) {}

  void line(const std::string& text) {
    out_ += text;
    out_ += '\n';
  }
  void op(const std::string& text) { line("\t" + text); }

  void prologue() {
    if (frame_.scalar_bytes) op(fmt::format("addi sp, sp, {}", frame_.scalar_bytes));
    if (mf_.makes_calls) op(fmt::format("sw ra, {}(sp)", frame_.ra_offset));
    for (auto [r, off] : frame_.saved_scalars) op(fmt::format("sw {}, {}(sp)", register_name(r), off));
    if (frame_.private_bytes) op(fmt::format("addi tp, tp, {}", frame_.private_bytes));
    if (!frame_.saved_vectors.empty()) {
      op("vmv.v.x v253, tp");
      for (auto [r, off] : frame_.saved_vectors) op(fmt::format("vsw.v {}, {}(v253)", register_name(r), off));
    }
  }
  void epilogue() {
    if (mf_.guards_extra_lanes) {
      line(kernel_end_label(mf_.name) + ":");
      op("join zero, zero, 0");
    }
    if (!frame_.saved_vectors.empty()) {
      op("vmv.v.x v253, tp");
      for (auto [r, off] : frame_.saved_vectors) op(fmt::format("vlw.v {}, {}(v253)", register_name(r), off));
    }
    if (frame_.private_bytes) op(fmt::format("addi tp, tp, -{}", frame_.private_bytes));
    for (auto [r, off] : frame_.saved_scalars) op(fmt::format("lw {}, {}(sp)", register_name(r), off));
    if (mf_.makes_calls) op(fmt::format("lw ra, {}(sp)", frame_.ra_offset));
    if (frame_.scalar_bytes) op(fmt::format("addi sp, sp, -{}", frame_.scalar_bytes));
    op("ret");
  }

  void atomic(const MInst& inst) {
    // ops: result, address, value, compare, vector temps (lane ids, chosen lane), scalar
    // temps (lane, address, value).
    auto reg = [&](size_t i) { return register_name(inst.ops[i].reg); };
    bool vector_address = is_vector_phys(inst.ops[1].reg);
    bool vector_value = is_vector_phys(inst.ops[2].reg);
    std::string result = reg(0), lanes = reg(4), chosen = reg(5), lane = reg(6), addr = reg(7), val = reg(8);
    unsigned id = counter_++;
    std::string loop = fmt::format(".Latomic_{}_{}", mf_.name, id), done = loop + "_done", anchor = loop + "_rpc";
    op(fmt::format("vid.v {}", lanes));
    line(loop + ":");
    op(fmt::format("vmv.x.s {}, {}", lane, lanes));  // the last active lane
    op(fmt::format("vmv.v.x {}, {}", chosen, lane));
    op(fmt::format("vmseq.vv v0, {}, {}", lanes, chosen));
    op(vector_address ? fmt::format("vmv.x.s {}, {}", addr, reg(1)) : fmt::format("mv {}, {}", addr, reg(1)));
    if (inst.comment == "cmpxchg") {
      // lane = expected value, val = new value; retry while sc fails.
      std::string retry = loop + "_retry", fail = loop + "_fail";
      bool vector_compare = is_vector_phys(inst.ops[3].reg);
      op(vector_value ? fmt::format("vmv.x.s {}, {}", val, reg(2)) : fmt::format("mv {}, {}", val, reg(2)));
      line(retry + ":");
      op(vector_compare ? fmt::format("vmv.x.s {}, {}", lane, reg(3)) : fmt::format("mv {}, {}", lane, reg(3)));
      op(fmt::format("lr.w t4, ({})", addr));
      op(fmt::format("bne t4, {}, {}", lane, fail));
      op(fmt::format("sc.w {}, {}, ({})", lane, val, addr));
      op(fmt::format("bnez {}, {}", lane, retry));
      line(fail + ":");
      op(fmt::format("vmerge.vxm {}, {}, t4, v0", result, result));
    } else {
      op(vector_value ? fmt::format("vmv.x.s {}, {}", val, reg(2)) : fmt::format("mv {}, {}", val, reg(2)));
      std::string amo = inst.comment;
      if (amo == "amosub") {
        op(fmt::format("neg {}, {}", val, val));
        amo = "amoadd.w";
      }
      op(fmt::format("{} {}, {}, ({})", amo, val, val, addr));
      op(fmt::format("vmerge.vxm {}, {}, {}, v0", result, result, val));
    }
    // Retire the chosen lane: it goes to `done`, the others take the next lane.
    line(anchor + ":");
    op(fmt::format("auipc {}, %pcrel_hi({})", addr, done));
    op(fmt::format("setrpc zero, {}, %pcrel_lo({})", addr, anchor));
    op(fmt::format("vbeq {}, {}, {}", lanes, chosen, done));
    op(fmt::format("j {}", loop));
    line(done + ":");
    op("join zero, zero, 0");
  }

  void instruction(const MInst& inst) {
    if (inst.op == "@ret") return epilogue();
    if (inst.op == "@atomic") return atomic(inst);
    if (inst.op == "@sspill" || inst.op == "@sreload") {
      int off = frame_.scalar_spill_base + static_cast<int>(inst.ops[1].imm);
      op(fmt::format("{} {}, {}(sp)", inst.op == "@sspill" ? "sw" : "lw", register_name(inst.ops[0].reg), off));
      return;
    }
    if (inst.op == "@vspill" || inst.op == "@vreload") {
      int off = frame_.vector_spill_base + static_cast<int>(inst.ops[1].imm);
      // The base must be a vector register: the scratch not holding the value.
      std::string base = inst.ops[0].reg == kScratchV0 ? "v254" : "v253";
      if (inst.ops[0].reg == vreg_phys(254)) base = "v255";
      op(fmt::format("vmv.v.x {}, tp", base));
      op(fmt::format("{} {}, {}({})", inst.op == "@vspill" ? "vsw.v" : "vlw.v", register_name(inst.ops[0].reg), off, base));
      return;
    }
    line(format_inst(inst));
  }

 private:
  const MFunction& mf_;
  const Frame& frame_;
  std::string& out_;
  unsigned counter_ = 0;
};

// Conditional branches reach +-4 KiB. One too far becomes the inverted branch around a
// jump (for a vector branch too: the threads split the same way, only the labels of the
// two sides swap). Distances are over-estimated at 8 bytes a line (a pseudo-instruction
// or a regext prefix makes two words), so a relaxed branch may have reached anyway.
// The labels it adds carry the function's name, like every generated label (mir.h).
void relax_branches(std::string& text, const std::string& function) {
  static const std::map<std::string, std::string> inverse = {
      {"beq", "bne"},   {"bne", "beq"},     {"blt", "bge"},     {"bge", "blt"},     {"bltu", "bgeu"},
      {"bgeu", "bltu"}, {"beqz", "bnez"},   {"bnez", "beqz"},   {"vbeq", "vbne"},   {"vbne", "vbeq"},
      {"vblt", "vbge"}, {"vbge", "vblt"},   {"vbltu", "vbgeu"}, {"vbgeu", "vbltu"}};
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::map<std::string, long> label_at;
  for (size_t i = 0; i < lines.size(); ++i)
    if (!lines[i].empty() && lines[i][0] != '\t' && lines[i].back() == ':')
      label_at[lines[i].substr(0, lines[i].size() - 1)] = static_cast<long>(i);
  std::string out;
  unsigned counter = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    size_t space = line.find(' ');
    size_t comma = line.rfind(", ");
    if (line.size() > 1 && line[0] == '\t' && space != std::string::npos && comma != std::string::npos) {
      std::string op = line.substr(1, space - 1);
      std::string target = line.substr(comma + 2);
      auto inv = inverse.find(op);
      auto at = label_at.find(target);
      if (inv != inverse.end() && at != label_at.end() && std::labs(at->second - static_cast<long>(i)) * 8 > 3800) {
        std::string skip = fmt::format(".Lrelax_{}_{}", function, counter++);
        out += "\t" + inv->second + line.substr(space, comma - space) + ", " + skip + "\n";
        out += "\tj " + target + "\n" + skip + ":\n";
        continue;
      }
    }
    out += line + "\n";
  }
  text = std::move(out);
}

// Every instruction line must name a row of the instruction table or a pseudo-instruction
// of the assembler: a misspelt mnemonic anywhere in the back end (`sltui` once) is then
// the compiler's own error, raised whatever kernel reaches it, not an assembler error
// pointing into generated text.
void check_mnemonics(const std::string& text, const std::string& function) {
  static const std::set<std::string_view> pseudo = [] {
    std::vector<std::string_view> names = assembler::pseudo_mnemonics();
    return std::set<std::string_view>(names.begin(), names.end());
  }();
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text[start] == '\t' && start + 1 < end && text[start + 1] != '.') {
      std::string mnemonic =
          text.substr(start + 1, std::min(text.find(' ', start), end) - start - 1);
      if (!isa::find_mnemonic(mnemonic) && !pseudo.count(mnemonic))
        throw Error(fmt::format(
            "internal error: the back end emitted '{}' in '{}', which is no Ventus instruction",
            mnemonic, function));
    }
    start = end + 1;
  }
}

}  // namespace

FunctionSummary emit_function(const MFunction& mf, std::string& result) {
  Frame frame = layout_frame(mf);
  std::string out;
  Printer p(mf, frame, out);
  p.line("\t.text");
  p.line(fmt::format("\t{} {}", mf.is_kernel ? ".globl" : ".local", mf.name));
  p.line("\t.p2align 2");
  p.line(fmt::format("\t.type {}, @function", mf.name));
  for (size_t b = 0; b < mf.blocks.size(); ++b) {
    const MBlock& block = mf.blocks[b];
    p.line(block.label + ":");
    if (b == 0) p.prologue();
    if (block.needs_join) p.op("join zero, zero, 0");
    const std::string next = b + 1 < mf.blocks.size() ? mf.blocks[b + 1].label : "";
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const MInst& inst = block.insts[i];
      // A jump to the next block falls through.
      if (inst.op == "j" && inst.is_terminator && i + 1 == block.insts.size() && inst.ops[0].text == next) continue;
      // "bXX a, b, next; j other" becomes "b!XX a, b, other".
      if (i + 2 == block.insts.size() && block.insts[i + 1].op == "j" && inst.ops.size() >= 2 &&
          inst.ops.back().kind == Operand::Kind::Label && inst.ops.back().text == next) {
        static const std::map<std::string, std::string> inverse = {
            {"beq", "bne"},   {"bne", "beq"},   {"blt", "bge"},   {"bge", "blt"},   {"bltu", "bgeu"},
            {"bgeu", "bltu"}, {"bnez", "beqz"}, {"beqz", "bnez"}};
        if (auto inv = inverse.find(inst.op); inv != inverse.end()) {
          MInst flipped = inst;
          flipped.op = inv->second;
          flipped.ops.back().text = block.insts[i + 1].ops[0].text;
          p.instruction(flipped);
          break;
        }
      }
      p.instruction(inst);
    }
  }
  p.line(fmt::format("\t.size {}, .-{}", mf.name, mf.name));
  relax_branches(out, mf.name);
  check_mnemonics(out, mf.name);
  result += out;
  FunctionSummary summary;
  summary.scalar_frame = frame.scalar_bytes;
  summary.private_frame = frame.private_bytes;
  summary.sgpr = mf.max_scalar;
  summary.vgpr = mf.max_vector;
  summary.callees = mf.callees;
  summary.uses_printf = mf.uses_printf;
  return summary;
}

}  // namespace ventus::cc::backend
