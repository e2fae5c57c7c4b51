// The Ventus instruction set as data: every instruction is one row of
// include/ventus/instructions.def, every operand kind one row of operand_kinds.def;
// decoding, encoding, operand parsing and printing derive from those rows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/abi.h"

namespace ventus::isa {

enum class Op : uint16_t {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) id,
#include "ventus/instructions.def"
#undef VT_INSN
  Count
};
inline constexpr size_t kNumOps = static_cast<size_t>(Op::Count);

// Execution class: what the simulator and the statistics need to know about a row.
enum class InsnClass : uint8_t {
  Scalar,       // scalar ALU, executes once per warp
  Jump,         // jal/jalr
  Branch,       // scalar conditional branch
  Load,         // scalar load
  Store,        // scalar store
  Atomic,       // RV32A
  Csr,          // Zicsr
  Float,        // scalar FP (Zfinx)
  Config,       // vsetvl*
  Vector,       // vector integer, one result per active lane
  VFloat,       // vector floating point
  VLoad,        // vector / per-thread load
  VStore,       // vector / per-thread store
  VBranch,      // SIMT divergent branch
  Join,         // SIMT reconvergence
  Prefix,       // regext/regexti/regpair/regpairi: modify the next instruction
  Control,      // endprg, barrier
  Matrix,       // mma, mma64: one warp-wide matrix multiply-accumulate
  Unsupported,  // decoded but not supported by Ventus (ecall, ebreak)
};

// Operand kinds: one row each in operand_kinds.def (token, register file, style, default
// role, signedness, alignment, encoding fields).
enum class OperandKind : uint8_t {
#define VT_FIELD(hi, lo, at)
#define VT_OPERAND_KIND(id, token, file, style, role, is_signed, align, wide, fields) id,
#include "ventus/operand_kinds.def"
#undef VT_OPERAND_KIND
#undef VT_FIELD
};

// What an instruction does with one operand, as LLVM's (outs)/(ins) lists say it: reads it
// (sources, immediates, store data), writes it (rd/vd), or both (a tied accumulator: the
// multiply-accumulate families read vd and write the result there). A row's syntax marks
// DefUse with '+' ("+vd,vs1,vs2,vm"); every other operand takes its kind's role (the
// destinations rd, vd, rdp are written, all else read). Roles describe the active lanes:
// lanes that do not execute (thread mask, v0.t) keep the old destination whatever the role.
enum class OperandRole : uint8_t { Use, Def, DefUse };
constexpr bool reads(OperandRole r) {
  return r != OperandRole::Def;
}
constexpr bool writes(OperandRole r) {
  return r != OperandRole::Use;
}

enum class RegisterFile : uint8_t { None, X, V };

// How an operand is written in assembly.
enum class OperandStyle : uint8_t {
  Register,          // x registers by ABI name (zero, ra, sp, ...), v registers as vN
  NumberedRegister,  // x registers as xN
  FixedV0,           // the literal v0
  Integer,           // a number or expression
  Target,            // a pc-relative byte offset: a label, or a number that is the offset
  Csr,               // a CSR name or number
  Vtype,             // "e32, m1, ta, ma" (several written operands) or a number
  Fence,             // letters from iorw, or 0
  Mask,              // optional trailing ", v0.t" (0 = masked)
  RoundingMode,      // optional trailing rne/rtz/rdn/rup/rmm/dyn (7 = dyn, not printed)
  Modifier,          // optional "key=value" (0 when absent)
};

// Word bits [hi:lo] hold value bits [at + hi - lo : at].
struct FieldPiece {
  uint8_t hi, lo, at;
};

// One row of operand_kinds.def, with what follows from it.
struct OperandKindInfo {
  OperandKind kind;
  std::string_view token;
  RegisterFile file;
  OperandStyle style;
  OperandRole role;  // in a row that does not mark the operand
  bool is_signed;
  uint8_t align;            // the value is a multiple of this (branch offsets, register pairs)
  bool widened_by_regexti;  // regexti/prefixi give it imm[10:5]
  std::span<const FieldPiece> fields;  // empty: no field of its own (v0, modifiers)
  int64_t min, max;                    // the values the fields hold, multiples of align
  // The regext field that extends a register in this field (0 rd, 1 rs1, 2 rs2, 3 rs3); -1
  // for no register field.
  int8_t slot;
};
const OperandKindInfo& kind_info(OperandKind kind);
std::span<const OperandKindInfo> operand_kinds();

// One operand position of a row's syntax. A memory operand "off(base)" is two operands,
// the offset with in_memory_offset set followed by the base with in_memory_base set.
struct OperandSlot {
  OperandKind kind;
  OperandRole role = OperandRole::Use;
  bool mem_offset = false;  // printed as "off(" ... the next slot ... ")"
  bool mem_base = false;    // register inside parentheses
  // A field the row places itself ("vd@27:20", "al=@40"): bits [lo + width - 1 : lo] of the
  // instruction (of its 64 bits for a 64-bit row). width 0: the kind's standard field.
  uint8_t lo = 0, width = 0;
  std::string_view key = {};  // Modifier: the keyword written before '='
};

// The length in bytes of the instruction whose first (low) word is low_word: 8 for the
// RISC-V 64-bit length encoding (low 7 bits 0x3f), 4 for every other Ventus word.
constexpr unsigned instruction_length(uint32_t low_word) {
  return (low_word & 0x7f) == 0x3f ? 8 : 4;
}

// A field named in a row's syntax, found at compile time so that semantics read modifier
// fields from the table rather than repeating their bit positions:
//   constexpr isa::Field kOpsel = isa::field(isa::Op::VCOMPUTE, "opsel");
struct Field {
  uint8_t lo = 0, width = 0;
  constexpr uint32_t get(uint64_t word) const {
    return static_cast<uint32_t>((word >> lo) & ((uint64_t{1} << width) - 1));
  }
};

namespace detail {
// Marks an operand of a row's syntax that the instruction reads and writes (OperandRole).
inline constexpr char kTiedMarker = '+';
inline constexpr std::string_view kRowSyntax[] = {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) ops,
#include "ventus/instructions.def"
#undef VT_INSN
};
constexpr unsigned parse_decimal(std::string_view s) {
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') throw "field position is not a number";
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}
// "name@hi:lo", "name@bit", "name=@hi:lo" -> the field; name without '@' -> width 0.
constexpr bool field_token(std::string_view token, std::string_view& name, Field& f) {
  const size_t at = token.find('@');
  if (at == std::string_view::npos) return false;
  name = token.substr(0, at);
  if (name.starts_with(kTiedMarker)) name.remove_prefix(1);
  if (!name.empty() && name.back() == '=') name.remove_suffix(1);
  const std::string_view pos = token.substr(at + 1);
  const size_t colon = pos.find(':');
  const unsigned hi = parse_decimal(pos.substr(0, colon));
  const unsigned lo = colon == std::string_view::npos ? hi : parse_decimal(pos.substr(colon + 1));
  if (lo > hi || hi > 63) throw "field bits out of order or beyond bit 63";
  f = {static_cast<uint8_t>(lo), static_cast<uint8_t>(hi - lo + 1)};
  return true;
}
}  // namespace detail

// The field called `name` in row op's syntax; not a constant expression (a compile error
// where used in one) when the row has no such field.
constexpr Field field(Op op, std::string_view name) {
  std::string_view syntax = detail::kRowSyntax[static_cast<size_t>(op)];
  while (!syntax.empty()) {
    const size_t comma = syntax.find(',');
    const std::string_view token = syntax.substr(0, comma);
    syntax = comma == std::string_view::npos ? std::string_view{} : syntax.substr(comma + 1);
    std::string_view token_name;
    Field f;
    if (detail::field_token(token, token_name, f) && token_name == name) return f;
  }
  throw "the row has no field of this name";
}

// How many vector registers a row's destination covers, counted from vd: the registers its
// semantics can write (docs/vector.md, docs/isa.md). The commit log compares these and an SM
// clears them when it reuses a warp. Rows that write no vector register have None.
enum class VectorGroup : uint8_t {
  None,
  One,       // vd alone whatever vtype (per-thread loads, 64-bit compute rows)
  Lmul,      // LMUL registers (the RVV rows)
  Wide,      // a 2*SEW result: 2*LMUL registers (register pairs) at SEW=32, LMUL below
  Fragment,  // an mma D fragment of `words` 32-bit words, word w in register vd + w / lanes
  // The same, with kWarpGroupRows times the words when the row's wg field is 1 (mma64).
  WarpGroupFragment,
};
struct VectorDestination {
  VectorGroup group = VectorGroup::None;
  uint16_t words = 0;  // Fragment, WarpGroupFragment
};
// The vector register file: v0..v255 (regext reaches beyond v31).
inline constexpr unsigned kNumVectorRegisters = 256;
// LMUL 1 and 2 are the groupings Ventus has ("RV32V register state: only LMUL = 1 and 2").
inline constexpr unsigned kMaxLmul = 2;
// mma64's warp-group form (wg=1) multiplies a matrix this many times taller (docs/isa.md).
inline constexpr unsigned kWarpGroupRows = 4;

struct InsnInfo {
  Op op;
  std::string_view mnemonic;
  uint64_t match;  // 64-bit rows use all bits; 32-bit rows only the low word
  uint64_t mask;
  unsigned length;          // bytes: instruction_length(match)
  std::string_view syntax;  // the operands string of the row
  InsnClass cls;
  VectorDestination destination;
  std::vector<OperandSlot> operands;  // parsed from syntax once
};

struct Decoded;
// What the size of a destination group depends on: the warp's vtype and threads.
struct VectorShape {
  unsigned lmul = kMaxLmul, sew = 32;
  unsigned lanes = 1;
};
// The widest groups of any vtype the simulator accepts, for warps of `lanes` threads.
constexpr VectorShape widest_shape(unsigned lanes) {
  return {kMaxLmul, 32, lanes};
}
// The number of vector registers from in.rd on that the instruction (its prefix folded in:
// a register pair writes 2, PREFIX_MEMORY's width mem_words) can write under shape, cut at
// the end of the register file; 0 when it writes none. Its semantics write no other vector
// register (tests/sim/writes_test.cpp runs every row to hold them to it).
unsigned vector_registers_written(const Decoded& in, const VectorShape& shape);

// All rows in table order, indexed by Op.
std::span<const InsnInfo> instructions();
const InsnInfo& info(Op op);
// Rows with this mnemonic (several rows may share a mnemonic in principle; today each is unique).
const InsnInfo* find_mnemonic(std::string_view mnemonic);
// Whether the row reads the register of its rd field (slot 0): a tied accumulator ("+vd") or
// the data of a vector store (vs3). Execution reads it as Decoded::rs3, whose high bits a
// regext gives in its rs3 field, so the assembler extends rs3 like rd for these rows.
bool reads_rd_field(const InsnInfo& row);

// Field access by operand kind: extract the operand's value from a word (sign-extended for
// signed kinds, byte offset for branches) and insert a value into a word.
int64_t get_operand(uint32_t word, OperandKind kind);
uint32_t set_operand(uint32_t word, OperandKind kind, int64_t value);
// Whether value fits the operand's field (range and alignment); the error says why not.
bool operand_fits(OperandKind kind, int64_t value, std::string* why = nullptr);
// The same for one slot of a row: its own field when it names one (any of the 64 bits of a
// 64-bit instruction), else its kind's standard field.
int64_t get_operand(uint64_t word, const OperandSlot& slot);
uint64_t set_operand(uint64_t word, const OperandSlot& slot, int64_t value);
bool operand_fits(const OperandSlot& slot, int64_t value, std::string* why = nullptr);
bool is_register_kind(OperandKind kind);
bool is_vector_register_kind(OperandKind kind);
// An even-aligned register pair (the operand names its even register).
bool is_pair_register_kind(OperandKind kind);
bool is_pc_relative(OperandKind kind);
// Which register slot (0 = rd/vd, 1 = rs1/vs1, 2 = rs2/vs2, 3 = rs3/vs3) a register kind
// fills; regext extends that slot.
int register_slot(OperandKind kind);

// Printing from operand values, for code that builds instructions (the compiler's back
// end) rather than decoding words. One value per slot of the row's operands, in order (a
// memory operand "off(base)" is two slots); trailing optional slots may be left out (vm:
// 1 = unmasked, rm: 7 = dynamic, modifiers: 0). A value is a number (register number,
// immediate, pc-relative byte offset, CSR number, vtype immediate, fence bits, mask bit) or
// text written as is (a label, a symbol, "%lo(sym)", a CSR or vtype spelled out).
struct OperandValue {
  int64_t number = 0;
  std::string text;  // printed instead of number when not empty
  static OperandValue of(int64_t n) { return {n, {}}; }
  static OperandValue symbol(std::string t) { return {0, std::move(t)}; }
};
// The instruction as assembly text ("vmacc.vv v1, v2, v3", "lw a0, %lo(x)(a1)"), printed by
// the code the disassembler prints with; with `aliases` under the alias the disassembler
// would print (aliases()). Throws std::invalid_argument when the values do not fit the row:
// their number, a register beyond the file or an odd pair, a number out of the operand's
// range (operand_fits).
std::string format_instruction(Op op, std::span<const OperandValue> values, bool aliases = false);

// Aliases: one row written under another mnemonic, with some operands fixed. One list for
// the assembler (which accepts every entry) and the disassembler (which prints the entries
// marked printed, first match in list order, as llvm-objdump does).
struct Alias {
  std::string_view mnemonic;
  Op op;
  // One entry per operand slot of the row, comma-separated: "$n" is the alias's operand n
  // (an operand may fill several slots: "fmv.s rd, rs" is "fsgnj.s rd, rs, rs"), anything
  // else is fixed text in the row's syntax ("zero", "0", "fflags", "iorw"). A trailing vm
  // slot left out passes through: the alias takes the optional ", v0.t" too.
  std::string_view operands;
  bool printed;
};
std::span<const Alias> aliases();
// An alias's operand list resolved against its row: per slot of the row the alias operand
// it takes, or -1 and the fixed text; `operands` written operands; mask_passes when the
// row's trailing vm slot is left out (its slot entry is then -1 with no text).
struct AliasForm {
  struct Slot {
    int operand = -1;
    std::string_view fixed;
  };
  std::vector<Slot> slots;
  size_t operands = 0;
  bool mask_passes = false;
};
AliasForm alias_form(const Alias& alias);

// Decoding: the row matching a word, or nullopt. Built once into a lookup by major opcode.
// A 64-bit instruction (instruction_length(low word) == 8) is passed whole, low word in the
// low half; a 32-bit one zero-extended.
std::optional<Op> decode_op(uint64_t word);

// Register-number extension from a preceding regext/regexti (0 when none).
struct RegExt {
  uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;  // high bits (3 each) for regext
  // The high bits for register slot 0..3 (register_slot).
  uint8_t high_bits(int slot) const {
    return slot == 0 ? rd : slot == 1 ? rs1 : slot == 2 ? rs2 : rs3;
  }
  int32_t imm_hi = 0;           // regexti: imm[10:5]
  bool immediate_form = false;  // regexti
  static RegExt from_regext(uint32_t imm12);
  static RegExt from_regexti(uint32_t imm12);
};

// What a prefix word says about the instruction after it: regext/regexti (register and
// immediate extension), regpair/regpairi (the same, operands as register pairs), PREFIX/PREFIXI
// (extension, pair, ABS, NEG) and PREFIX_MEMORY (extension, address space, width, 64-bit address).
// docs/isa.md, "Prefixes".
struct PrefixInfo {
  Op op = Op::Count;
  RegExt ext;
  uint8_t pair = 0, abs = 0, neg = 0;
  uint8_t mem_space = 0, mem_words = 1, mem_pair = 0;
};
// nullopt for a word that is none of these.
std::optional<PrefixInfo> prefix_info(uint32_t word);
// PREFIX, PREFIXI, PREFIX_MEMORY: the prefixes whose effect listings show after a '#'.
inline bool is_modifier_prefix(Op op) {
  return op == Op::PREFIX || op == Op::PREFIXI || op == Op::PREFIX_MEMORY;
}

// Decoded operands in a form every tool uses.
struct Decoded {
  Op op = Op::Count;
  uint32_t raw = 0;
  uint16_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;  // register numbers after regext
  int32_t imm = 0;                             // the row's immediate, if any
  uint8_t vm = 1;                              // 1 = unmasked
  uint8_t rm = 7;                              // rounding mode field, 7 = dyn
  // v2025 additions (docs/isa.md, "v2025 additions"). What a preceding regpair/regpairi,
  // PREFIX/PREFIXI or PREFIX_MEMORY says about this instruction, folded in at decode time:
  uint8_t pair = 0;       // 1: register operands are even-aligned 64-bit pairs
  uint8_t abs = 0;        // PREFIX ABS: bit 0 src1, bit 1 src2, bit 2 src3
  uint8_t neg = 0;        // PREFIX NEG: same bits
  uint8_t mem_space = 0;  // PREFIX_MEMORY: 0 default, 1 global, 2 private, 3 local
  uint8_t mem_words = 1;  // PREFIX_MEMORY: data width in 32-bit words, 1..4
  uint8_t mem_pair = 0;   // PREFIX_MEMORY: the address is a 64-bit register pair
  uint32_t raw_hi = 0;    // the second (high) word of a 64-bit instruction
  uint64_t word() const { return raw | uint64_t{raw_hi} << 32; }
  // The register of slot 0..3 (register_slot): rd, rs1, rs2, rs3.
  uint16_t& reg(int slot) { return slot == 0 ? rd : slot == 1 ? rs1 : slot == 2 ? rs2 : rs3; }
  uint16_t reg(int slot) const { return const_cast<Decoded*>(this)->reg(slot); }
};
// Register fields of 64-bit rows fill rd/rs1/rs2/rs3 by their kind (vd -> rd, vs1 -> rs1,
// vs2 -> rs2, vs3 -> rs3), and modifiers named abs, neg and pair fill those fields.
std::optional<Decoded> decode(uint64_t word, const RegExt& ext = {});
// decode() of the instruction after a prefix, with the prefix's modifiers folded in.
std::optional<Decoded> decode(uint64_t word, const PrefixInfo& prefix);

// CSRs: the device ABI's table (include/ventus/abi.def).
using abi::csr_by_name;
using abi::csr_by_number;
using abi::CsrInfo;
using abi::csrs;

// Register names.
std::string_view xreg_abi_name(unsigned n);  // n < 32: ABI names; >= 32: "x32".. as "xN"
std::optional<unsigned> parse_xreg(std::string_view name);  // x0..x63 and ABI names
std::optional<unsigned> parse_vreg(std::string_view name);  // v0..v255

// Fence operands <-> text: letters from "iorw" (i = 8, o = 4, r = 2, w = 1), or "0".
std::string format_fence(uint32_t bits);
std::optional<uint32_t> parse_fence(std::string_view text);
// Rounding modes <-> text: rne rtz rdn rup rmm dyn, the reserved 5 and 6 as numbers (a digit
// 0-7 is accepted for any).
std::string format_rounding_mode(uint32_t rm);
std::optional<uint32_t> parse_rounding_mode(std::string_view text);

// vtype immediate <-> text ("e32, m1, ta, ma").
std::string format_vtype(uint32_t vtypei);
std::optional<uint32_t> parse_vtype(std::span<const std::string_view> tokens, std::string* why);

}  // namespace ventus::isa
