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
#include <optional>
#include <stdexcept>

#include "inline_asm.h"
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

std::string operand_text(const Operand& op) {
  switch (op.kind) {
    case Operand::Kind::Reg: return register_name(op.reg);
    case Operand::Kind::Imm: return fmt::format("{}", op.imm);
    default: return op.text;
  }
}

// One line of assembly: a row printed by the instruction table, an alias (or la) under
// its name, a label.
std::string format_inst(const MInst& inst) {
  if (inst.is(Pseudo::Label)) return inst.ops.at(0).text + ":";
  if (inst.pseudo != Pseudo::None) {
    std::string out = fmt::format("\t{}", pseudo_mnemonic(inst.pseudo));
    for (size_t i = 0; i < inst.ops.size(); ++i)
      out += (i ? ", " : " ") + operand_text(inst.ops[i]);
    return out;
  }
  std::vector<isa::OperandValue> values;
  for (const Operand& op : inst.ops) {
    if (op.kind == Operand::Kind::Reg) {
      register_name(op.reg);  // an unallocated register is an internal error
      values.push_back(
          isa::OperandValue::of(is_vector_phys(op.reg) ? op.reg - kVectorBase : op.reg));
    } else if (op.kind == Operand::Kind::Imm) {
      values.push_back(isa::OperandValue::of(op.imm));
    } else {
      values.push_back(isa::OperandValue::symbol(op.text));
    }
  }
  try {
    return "\t" + isa::format_instruction(inst.op, values);
  } catch (const std::invalid_argument& e) {
    throw Error(fmt::format("internal: the back end built an invalid instruction: {}", e.what()));
  }
}

// Conditional branches with opposite conditions.
constexpr std::pair<isa::Op, isa::Op> kOpposites[] = {
    {isa::Op::BEQ, isa::Op::BNE},   {isa::Op::BLT, isa::Op::BGE},
    {isa::Op::BLTU, isa::Op::BGEU}, {isa::Op::VBEQ, isa::Op::VBNE},
    {isa::Op::VBLT, isa::Op::VBGE}, {isa::Op::VBLTU, isa::Op::VBGEU}};
constexpr std::pair<Pseudo, Pseudo> kOppositeAliases[] = {{Pseudo::Beqz, Pseudo::Bnez}};

bool is_vector_branch(const MInst& inst) {
  return inst.pseudo == Pseudo::None && isa::info(inst.op).cls == isa::InsnClass::VBranch;
}

// The branch with the opposite condition (the same operands and target), if inst is a
// conditional branch.
std::optional<MInst> inverted_branch(const MInst& inst) {
  MInst out = inst;
  for (const auto& [a, b] : kOppositeAliases) {
    if (inst.is(a) || inst.is(b)) {
      out.pseudo = inst.is(a) ? b : a;
      return out;
    }
  }
  if (inst.pseudo != Pseudo::None) return std::nullopt;
  for (const auto& [a, b] : kOpposites) {
    if (inst.op == a || inst.op == b) {
      out.op = inst.op == a ? b : a;
      return out;
    }
  }
  return std::nullopt;
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
  // Larger frames than these could not be reserved: a kernel's total (with its callees')
  // is checked against the same limits with its __local data (backend.cpp).
  if (f.scalar_bytes > kDeviceLocalBytes)
    throw Error(
        fmt::format("{}error: '{}' needs a {}-byte scalar stack frame; a warp's stack is "
                    "at most an SM's {} bytes of local memory",
                    mf.location, mf.name, f.scalar_bytes, kDeviceLocalBytes));
  if (f.private_bytes > kMaxPrivateFrameBytes)
    throw Error(
        fmt::format("{}error: '{}' needs {} bytes of private memory per work-item (its "
                    "variables and spilled registers); a work-item has at most {}",
                    mf.location, mf.name, f.private_bytes, kMaxPrivateFrameBytes));
  return f;
}

bool fits_imm12(int64_t v) {
  return v >= -2048 && v < 2048;
}
bool fits_simm11(int64_t v) {
  return v >= -1024 && v < 1024;
}

class Printer {
 public:
  Printer(const MFunction& mf, const Frame& frame, std::string& out) : mf_(mf), frame_(frame), out_(out) {}

  void line(const std::string& text) {
    out_ += text;
    out_ += '\n';
  }
  void put(isa::Op op, std::vector<Operand> ops) {
    line(format_inst(make_inst(op, std::move(ops))));
  }
  void put(Pseudo op, std::vector<Operand> ops) {
    line(format_inst(make_inst(op, std::move(ops))));
  }

  // base += delta, through a scratch register when delta is no 12-bit immediate (the
  // prologue and the epilogue, where no scratch register holds a value).
  void adjust(uint32_t base, int64_t delta) {
    if (fits_imm12(delta)) {
      put(isa::Op::ADDI, {reg(base), reg(base), imm(delta)});
      return;
    }
    put(Pseudo::Li, {reg(kScratchS0), imm(delta)});
    put(isa::Op::ADD, {reg(base), reg(base), reg(kScratchS0)});
  }

  // A kernel whose warp stacks are not the start code's 1 KiB moves sp to its own:
  // sp = CSR_LDS + CSR_WID * stride (the start code's formula with the program's stride).
  void warp_stack() {
    put(Pseudo::Csrr, {reg(kScratchS0), Operand::csr(abi::csr::WID)});
    put(Pseudo::Li, {reg(kScratchS1), imm(mf_.warp_stack_bytes)});
    put(isa::Op::MUL, {reg(kScratchS0), reg(kScratchS0), reg(kScratchS1)});
    put(Pseudo::Csrr, {reg(kScratchS1), Operand::csr(abi::csr::LDS)});
    put(isa::Op::ADD, {reg(kSp), reg(kScratchS0), reg(kScratchS1)});
  }

  // The saved registers lie at the bottom of the frames. Within an immediate's reach of
  // the new sp (tp) they are stored after the frame is allocated and loaded before it is
  // released; in a larger frame, relative to the old sp (tp), before and after.
  void prologue() {
    if (mf_.is_kernel && mf_.warp_stack_bytes != abi::kWarpStackBytes) warp_stack();
    const int64_t scalar = frame_.scalar_bytes;
    const bool scalar_near = fits_imm12(-scalar);
    if (scalar && scalar_near) adjust(kSp, scalar);
    const int64_t scalar_base = scalar_near ? 0 : scalar;
    if (mf_.makes_calls)
      put(isa::Op::SW, {reg(kRa), imm(frame_.ra_offset + scalar_base), reg(kSp)});
    for (auto [r, off] : frame_.saved_scalars)
      put(isa::Op::SW, {reg(r), imm(off + scalar_base), reg(kSp)});
    if (scalar && !scalar_near) adjust(kSp, scalar);
    const int64_t vector = frame_.private_bytes;
    const bool vector_near = fits_simm11(-vector);
    if (vector && vector_near) adjust(kTp, vector);
    if (!frame_.saved_vectors.empty()) {
      const int64_t vector_base = vector_near ? 0 : vector;
      put(isa::Op::VMV_V_X, {reg(kScratchV0), reg(kTp)});
      for (auto [r, off] : frame_.saved_vectors)
        put(isa::Op::VSW_V, {reg(r), imm(off + vector_base), reg(kScratchV0)});
    }
    if (vector && !vector_near) adjust(kTp, vector);
  }
  void join() { put(isa::Op::JOIN, {reg(kZero), reg(kZero), imm(0)}); }
  void epilogue() {
    if (mf_.guards_extra_lanes) {
      line(kernel_end_label(mf_.name) + ":");
      join();
    }
    const int64_t vector = frame_.private_bytes;
    const bool vector_near = fits_simm11(-vector);
    if (vector && !vector_near) adjust(kTp, -vector);
    if (!frame_.saved_vectors.empty()) {
      const int64_t vector_base = vector_near ? 0 : vector;
      put(isa::Op::VMV_V_X, {reg(kScratchV0), reg(kTp)});
      for (auto [r, off] : frame_.saved_vectors)
        put(isa::Op::VLW_V, {reg(r), imm(off + vector_base), reg(kScratchV0)});
    }
    if (vector && vector_near) adjust(kTp, -vector);
    const int64_t scalar = frame_.scalar_bytes;
    const bool scalar_near = fits_imm12(-scalar);
    if (scalar && !scalar_near) adjust(kSp, -scalar);
    const int64_t scalar_base = scalar_near ? 0 : scalar;
    for (auto [r, off] : frame_.saved_scalars)
      put(isa::Op::LW, {reg(r), imm(off + scalar_base), reg(kSp)});
    if (mf_.makes_calls)
      put(isa::Op::LW, {reg(kRa), imm(frame_.ra_offset + scalar_base), reg(kSp)});
    if (scalar && scalar_near) adjust(kSp, -scalar);
    put(Pseudo::Ret, {});
  }

  void atomic(const MInst& inst) {
    // ops: result, address, value, compare, vector temps (lane ids, chosen lane), scalar
    // temps (lane, address, value).
    const Operand &result = inst.ops[0], &lanes = inst.ops[4], &chosen = inst.ops[5];
    const Operand &lane = inst.ops[6], &addr = inst.ops[7], &val = inst.ops[8];
    const Operand loaded = reg(kScratchS0);
    const Operand mask = reg(vreg_phys(0));
    // A scalar copy of a uniform or the chosen lane's value of a divergent operand.
    auto take = [&](const Operand& into, const Operand& from) {
      if (is_vector_phys(from.reg))
        put(isa::Op::VMV_X_S, {into, from});
      else
        put(Pseudo::Mv, {into, from});
    };
    unsigned id = counter_++;
    std::string loop = fmt::format(".Latomic_{}_{}", mf_.name, id), done = loop + "_done", anchor = loop + "_rpc";
    put(isa::Op::VID_V, {lanes});
    line(loop + ":");
    put(isa::Op::VMV_X_S, {lane, lanes});  // the last active lane
    put(isa::Op::VMV_V_X, {chosen, lane});
    put(isa::Op::VMSEQ_VV, {mask, lanes, chosen});
    take(addr, inst.ops[1]);
    if (inst.op == isa::Op::SC_W) {
      // lane = expected value, val = new value; retry while sc fails.
      std::string retry = loop + "_retry", fail = loop + "_fail";
      take(val, inst.ops[2]);
      line(retry + ":");
      take(lane, inst.ops[3]);
      put(isa::Op::LR_W, {loaded, addr});
      put(isa::Op::BNE, {loaded, lane, Operand::label(fail)});
      put(isa::Op::SC_W, {lane, val, addr});
      put(Pseudo::Bnez, {lane, Operand::label(retry)});
      line(fail + ":");
      put(isa::Op::VMERGE_VXM, {result, result, loaded, mask});
    } else {
      take(val, inst.ops[2]);
      if (inst.negate_value) put(Pseudo::Neg, {val, val});
      put(inst.op, {val, val, addr});
      put(isa::Op::VMERGE_VXM, {result, result, val, mask});
    }
    // Retire the chosen lane: it goes to `done`, the others take the next lane.
    line(anchor + ":");
    put(isa::Op::AUIPC, {addr, Operand::literal(fmt::format("%pcrel_hi({})", done))});
    put(isa::Op::SETRPC,
        {reg(kZero), addr, Operand::literal(fmt::format("%pcrel_lo({})", anchor))});
    put(isa::Op::VBEQ, {lanes, chosen, Operand::label(done)});
    put(Pseudo::J, {Operand::label(loop)});
    line(done + ":");
    join();
  }

  void instruction(const MInst& inst) {
    switch (inst.pseudo) {
      case Pseudo::Return: return epilogue();
      case Pseudo::Atomic: return atomic(inst);
      case Pseudo::ScalarSpill:
      case Pseudo::ScalarReload: {
        int64_t off = frame_.scalar_spill_base + inst.ops[1].imm;
        uint32_t base = kSp;
        if (!fits_imm12(off)) {
          // A reload addresses the slot through the register it loads.
          base = inst.is(Pseudo::ScalarSpill) ? inst.ops[2].reg : inst.ops[0].reg;
          put(Pseudo::Li, {reg(base), imm(off)});
          put(isa::Op::ADD, {reg(base), reg(base), reg(kSp)});
          off = 0;
        }
        put(inst.is(Pseudo::ScalarSpill) ? isa::Op::SW : isa::Op::LW,
            {inst.ops[0], imm(off), reg(base)});
        return;
      }
      case Pseudo::VectorSpill:
      case Pseudo::VectorReload: {
        int64_t off = frame_.vector_spill_base + inst.ops[1].imm;
        // The base must be a vector register: the scratch not holding the value.
        uint32_t base = inst.ops[0].reg == kScratchV0 ? kScratchV0 + 1 : kScratchV0;
        if (inst.ops[0].reg == kScratchV0 + 1) base = kScratchV0 + 2;
        if (fits_simm11(off)) {
          put(isa::Op::VMV_V_X, {reg(base), reg(kTp)});
        } else {
          const uint32_t address = inst.ops[2].reg;
          put(Pseudo::Li, {reg(address), imm(off)});
          put(isa::Op::ADD, {reg(address), reg(address), reg(kTp)});
          put(isa::Op::VMV_V_X, {reg(base), reg(address)});
          off = 0;
        }
        put(inst.is(Pseudo::VectorSpill) ? isa::Op::VSW_V : isa::Op::VLW_V,
            {inst.ops[0], imm(off), reg(base)});
        return;
      }
      case Pseudo::InlineAsm: return inline_asm(inst);
      default: line(format_inst(inst));
    }
  }

  // The statement's text with its registers, one line per line of the template, between
  // markers that let an assembler error name the user's statement (inline_asm.h).
  void inline_asm(const MInst& inst) {
    constexpr size_t kFirstOperand = 2;
    std::string why;
    const std::optional<std::string> text = substitute_asm_operands(
        inst.ops[0].text, inst.ops.size() - kFirstOperand,
        [&](size_t n) { return operand_text(inst.ops[kFirstOperand + n]); },
        fmt::format("{}_{}", mf_.name, counter_++), &why);
    if (!text) throw Error("internal: an inline assembly template checked by isel: " + why);
    line(inst.ops[1].text);
    for (size_t start = 0; start <= text->size();) {
      size_t end = text->find('\n', start);
      if (end == std::string::npos) end = text->size();
      std::string_view part = std::string_view(*text).substr(start, end - start);
      const size_t indent = part.find_first_not_of(" \t");
      if (indent != std::string_view::npos) line("\t" + std::string(part.substr(indent)));
      start = end + 1;
    }
    line(std::string(asm_end_marker()));
  }

 private:
  static Operand reg(uint32_t r) { return Operand::reg_of(r); }
  static Operand imm(int64_t v) { return Operand::immediate(v); }

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
  static const std::map<std::string_view, std::string_view> inverse = [] {
    std::map<std::string_view, std::string_view> names;
    for (const auto& [a, b] : kOpposites) {
      names[isa::info(a).mnemonic] = isa::info(b).mnemonic;
      names[isa::info(b).mnemonic] = isa::info(a).mnemonic;
    }
    for (const auto& [a, b] : kOppositeAliases) {
      names[pseudo_mnemonic(a)] = pseudo_mnemonic(b);
      names[pseudo_mnemonic(b)] = pseudo_mnemonic(a);
    }
    return names;
  }();
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
      const std::string_view op = std::string_view(line).substr(1, space - 1);
      std::string target = line.substr(comma + 2);
      auto inv = inverse.find(op);
      auto at = label_at.find(target);
      if (inv != inverse.end() && at != label_at.end() && std::labs(at->second - static_cast<long>(i)) * 8 > 3800) {
        std::string skip = fmt::format(".Lrelax_{}_{}", function, counter++);
        out += fmt::format("\t{}{}, {}\n", inv->second, line.substr(space, comma - space), skip);
        out += format_inst(make_inst(Pseudo::J, {Operand::label(target)})) + "\n" + skip + ":\n";
        continue;
      }
    }
    out += line + "\n";
  }
  text = std::move(out);
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
    if (block.needs_join) p.join();
    const std::string next = b + 1 < mf.blocks.size() ? mf.blocks[b + 1].label : "";
    for (size_t i = 0; i < block.insts.size(); ++i) {
      const MInst& inst = block.insts[i];
      // A jump to the next block falls through.
      if (inst.is(Pseudo::J) && inst.is_terminator && i + 1 == block.insts.size() &&
          inst.ops[0].text == next)
        continue;
      // "bXX a, b, next; j other" becomes "b!XX a, b, other".
      if (i + 2 == block.insts.size() && block.insts[i + 1].is(Pseudo::J) && inst.ops.size() >= 2 &&
          inst.ops.back().kind == Operand::Kind::Label && inst.ops.back().text == next) {
        if (std::optional<MInst> flipped = inverted_branch(inst);
            flipped && !is_vector_branch(inst)) {
          flipped->ops.back().text = block.insts[i + 1].ops[0].text;
          p.instruction(*flipped);
          break;
        }
      }
      p.instruction(inst);
    }
  }
  p.line(fmt::format("\t.size {}, .-{}", mf.name, mf.name));
  relax_branches(out, mf.name);
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
