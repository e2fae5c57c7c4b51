// Pseudo-instructions: a table from (mnemonic, operand count) to a textual expansion into
// real table rows. Operands are passed through as written, so errors in them are reported
// by the real instruction at the operand's own column.
#include <fmt/format.h>

#include <map>

#include "internal.h"
#include "ventus/asm.h"

namespace ventus::assembler {
namespace detail {
namespace {

using Ops = std::vector<Token>;
using Expansion =
    std::function<std::vector<Expanded>(const Ops& ops, const Loc& loc, const PseudoHooks& hooks)>;

Token lit(std::string text, const Token& near) {
  return {std::move(text), near.column};
}

// "insn a, b" from operand indices and literal operands.
Expanded one(std::string mnemonic, Ops ops) {
  return {std::move(mnemonic), std::move(ops), ""};
}

// li: the GNU/LLVM sequence for a 32-bit value, addi alone when it fits in 12 bits.
std::vector<Expanded> expand_li(const Ops& ops, const Loc& loc, const PseudoHooks& hooks) {
  const int64_t v = hooks.constant(ops[1]);
  if (v < INT32_MIN || v > UINT32_MAX)
    fail({loc.file, loc.line, ops[1].column},
         fmt::format("li value {} does not fit in 32 bits", v));
  const int64_t value = static_cast<int32_t>(static_cast<uint32_t>(v));
  if (value >= -2048 && value <= 2047)
    return {one("addi", {ops[0], lit("zero", ops[1]), lit(std::to_string(value), ops[1])})};
  const int64_t hi = hi20(value), lo = lo12(value);
  std::vector<Expanded> out{one("lui", {ops[0], lit(std::to_string(hi), ops[1])})};
  if (lo != 0) out.push_back(one("addi", {ops[0], ops[0], lit(std::to_string(lo), ops[1])}));
  return out;
}

// auipc + second instruction with %pcrel_lo of a fresh label on the auipc.
std::vector<Expanded> pcrel_pair(const Token& reg, const Token& target, std::string second,
                                 Ops second_ops_prefix, const Token& base, const PseudoHooks& hooks,
                                 bool memory_form) {
  const std::string label = hooks.unique_label();
  // The column is moved left by the length of "%pcrel_hi(", so that errors about the target
  // point at the target as written.
  constexpr int kPrefix = sizeof("%pcrel_hi(") - 1;
  Expanded first{
      "auipc", {reg, {"%pcrel_hi(" + target.text + ")", target.column - kPrefix}}, label};
  Ops ops = std::move(second_ops_prefix);
  if (memory_form)
    ops.push_back(lit("%pcrel_lo(" + label + ")(" + base.text + ")", target));
  else {
    ops.push_back(base);
    ops.push_back(lit("%pcrel_lo(" + label + ")", target));
  }
  return {first, {std::move(second), std::move(ops), ""}};
}

// Appends the optional trailing mask operand (", v0.t") when present.
Ops with_mask(Ops ops, const Ops& source, size_t mask_index) {
  if (source.size() > mask_index) ops.push_back(source[mask_index]);
  return ops;
}

struct Key {
  std::string name;
  size_t operands;
  bool operator<(const Key& o) const {
    return name != o.name ? name < o.name : operands < o.operands;
  }
};

const std::map<Key, Expansion>& table() {
  static const std::map<Key, Expansion> t = [] {
    std::map<Key, Expansion> m;
    const auto add = [&](std::string name, size_t n, Expansion f) {
      m[{std::move(name), n}] = std::move(f);
    };
    add("nop", 0, [](const Ops&, const Loc&, auto&) {
      const Token t{"", 0};
      return std::vector<Expanded>{one("addi", {lit("zero", t), lit("zero", t), lit("0", t)})};
    });
    add("fence", 0, [](const Ops&, const Loc&, auto&) {
      const Token t{"", 0};
      return std::vector<Expanded>{one("fence", {lit("iorw", t), lit("iorw", t)})};
    });
    add("unimp", 0, [](const Ops&, const Loc&, auto&) {
      const Token t{"", 0};
      return std::vector<Expanded>{one("csrrw", {lit("zero", t), lit("cycle", t), lit("zero", t)})};
    });
    add("li", 2,
        [](const Ops& o, const Loc& loc, auto& hooks) { return expand_li(o, loc, hooks); });
    for (const char* name : {"la", "lla"})
      add(name, 2, [](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[0], o[1], "addi", {o[0]}, o[0], hooks, false);
      });
    add("call", 1, [](const Ops& o, const Loc&, auto& hooks) {
      const Token ra = lit("ra", o[0]);
      return pcrel_pair(ra, o[0], "jalr", {ra}, ra, hooks, true);
    });
    add("call", 2, [](const Ops& o, const Loc&, auto& hooks) {
      return pcrel_pair(o[0], o[1], "jalr", {o[0]}, o[0], hooks, true);
    });
    add("jump", 2, [](const Ops& o, const Loc&, auto& hooks) {
      return pcrel_pair(o[1], o[0], "jalr", {lit("zero", o[0])}, o[1], hooks, true);
    });
    // Loads and stores of a symbol's address: "lw rd, sym" loads through rd itself,
    // "sw rs, sym, rt" needs a scratch register rt for the address.
    for (const char* name : {"lb", "lh", "lw", "lbu", "lhu"})
      add(name, 2, [name = std::string(name)](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[0], o[1], name, {o[0]}, o[0], hooks, true);
      });
    for (const char* name : {"sb", "sh", "sw"})
      add(name, 3, [name = std::string(name)](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[2], o[1], name, {o[0]}, o[2], hooks, true);
      });
    add("tail", 1, [](const Ops& o, const Loc&, auto& hooks) {
      const Token t1 = lit("t1", o[0]);
      return pcrel_pair(t1, o[0], "jalr", {lit("zero", o[0])}, t1, hooks, true);
    });
    add("mv", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("addi", {o[0], o[1], lit("0", o[1])})};
    });
    add("not", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("xori", {o[0], o[1], lit("-1", o[1])})};
    });
    add("neg", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("sub", {o[0], lit("zero", o[1]), o[1]})};
    });
    add("seqz", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("sltiu", {o[0], o[1], lit("1", o[1])})};
    });
    add("snez", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("sltu", {o[0], lit("zero", o[1]), o[1]})};
    });
    add("sltz", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("slt", {o[0], o[1], lit("zero", o[1])})};
    });
    add("sgtz", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("slt", {o[0], lit("zero", o[1]), o[1]})};
    });
    add("j", 1, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jal", {lit("zero", o[0]), o[0]})};
    });
    add("jal", 1, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jal", {lit("ra", o[0]), o[0]})};
    });
    add("jr", 1, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jalr", {lit("zero", o[0]), lit("0(" + o[0].text + ")", o[0])})};
    });
    add("jalr", 1, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jalr", {lit("ra", o[0]), lit("0(" + o[0].text + ")", o[0])})};
    });
    add("jalr", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jalr", {o[0], lit("0(" + o[1].text + ")", o[1])})};
    });
    add("jalr", 3, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("jalr", {o[0], lit("(" + o[2].text + ")(" + o[1].text + ")", o[2])})};
    });
    add("ret", 0, [](const Ops&, const Loc&, auto&) {
      const Token t{"", 0};
      return std::vector{one("jalr", {lit("zero", t), lit("0(ra)", t)})};
    });
    // Branches against zero and with swapped operands.
    struct Zero {
      const char* name;
      const char* real;
      bool zero_first;
    };
    for (Zero z :
         {Zero{"beqz", "beq", false}, Zero{"bnez", "bne", false}, Zero{"blez", "bge", true},
          Zero{"bgez", "bge", false}, Zero{"bltz", "blt", false}, Zero{"bgtz", "blt", true}})
      add(z.name, 2, [z](const Ops& o, const Loc&, auto&) {
        const Token zero = lit("zero", o[0]);
        return std::vector{
            one(z.real, z.zero_first ? Ops{zero, o[0], o[1]} : Ops{o[0], zero, o[1]})};
      });
    for (auto [name, real] :
         {std::pair{"bgt", "blt"}, {"ble", "bge"}, {"bgtu", "bltu"}, {"bleu", "bgeu"}})
      add(name, 3, [real = real](const Ops& o, const Loc&, auto&) {
        return std::vector{one(real, {o[1], o[0], o[2]})};
      });
    // CSR access.
    add("csrr", 2, [](const Ops& o, const Loc&, auto&) {
      return std::vector{one("csrrs", {o[0], o[1], lit("zero", o[1])})};
    });
    for (auto [name, real] : {std::pair{"csrw", "csrrw"},
                              {"csrs", "csrrs"},
                              {"csrc", "csrrc"},
                              {"csrwi", "csrrwi"},
                              {"csrsi", "csrrsi"},
                              {"csrci", "csrrci"}})
      add(name, 2, [real = real](const Ops& o, const Loc&, auto&) {
        return std::vector{one(real, {lit("zero", o[0]), o[0], o[1]})};
      });
    for (auto [suffix, csr] : {std::pair{"flags", "fflags"}, {"rm", "frm"}, {"csr", "fcsr"}}) {
      const std::string c = csr;
      add(std::string("fr") + suffix, 1, [c](const Ops& o, const Loc&, auto&) {
        return std::vector{one("csrrs", {o[0], lit(c, o[0]), lit("zero", o[0])})};
      });
      add(std::string("fs") + suffix, 1, [c](const Ops& o, const Loc&, auto&) {
        return std::vector{one("csrrw", {lit("zero", o[0]), lit(c, o[0]), o[0]})};
      });
      add(std::string("fs") + suffix, 2, [c](const Ops& o, const Loc&, auto&) {
        return std::vector{one("csrrw", {o[0], lit(c, o[0]), o[1]})};
      });
    }
    for (auto [name, csr] :
         {std::pair{"rdcycle", "cycle"}, {"rdtime", "time"}, {"rdinstret", "instret"}}) {
      const std::string c = csr;
      add(name, 1, [c](const Ops& o, const Loc&, auto&) {
        return std::vector{one("csrrs", {o[0], lit(c, o[0]), lit("zero", o[0])})};
      });
    }
    // Scalar float sign injection.
    for (auto [name, real] :
         {std::pair{"fmv.s", "fsgnj.s"}, {"fabs.s", "fsgnjx.s"}, {"fneg.s", "fsgnjn.s"}})
      add(name, 2, [real = real](const Ops& o, const Loc&, auto&) {
        return std::vector{one(real, {o[0], o[1], o[1]})};
      });
    // Vector aliases; the optional mask is the last operand.
    for (size_t n : {2, 3}) {
      add("vneg.v", n, [](const Ops& o, const Loc&, auto&) {
        return std::vector{one("vrsub.vx", with_mask({o[0], o[1], lit("zero", o[1])}, o, 2))};
      });
      add("vnot.v", n, [](const Ops& o, const Loc&, auto&) {
        return std::vector{one("vxor.vi", with_mask({o[0], o[1], lit("-1", o[1])}, o, 2))};
      });
      for (auto [name, real] :
           {std::pair{"vwcvt.x.x.v", "vwadd.vx"}, {"vwcvtu.x.x.v", "vwaddu.vx"}})
        add(name, n, [real = real](const Ops& o, const Loc&, auto&) {
          return std::vector{one(real, with_mask({o[0], o[1], lit("zero", o[1])}, o, 2))};
        });
      // The spelling of vfexp that this project used before following the public toolchain.
      add("vfexp.v", n, [](const Ops& o, const Loc&, auto&) {
        return std::vector{one("vfexp", with_mask({o[0], o[1]}, o, 2))};
      });
      for (auto [name, real] : {std::pair{"vfneg.v", "vfsgnjn.vv"}, {"vfabs.v", "vfsgnjx.vv"}})
        add(name, n, [real = real](const Ops& o, const Loc&, auto&) {
          return std::vector{one(real, with_mask({o[0], o[1], o[1]}, o, 2))};
        });
    }
    for (size_t n : {3, 4})
      for (auto [name, real] : {std::pair{"vmsgt.vv", "vmslt.vv"},
                                {"vmsgtu.vv", "vmsltu.vv"},
                                {"vmsge.vv", "vmsle.vv"},
                                {"vmsgeu.vv", "vmsleu.vv"},
                                {"vmfgt.vv", "vmflt.vv"},
                                {"vmfge.vv", "vmfle.vv"}})
        add(name, n, [real = real](const Ops& o, const Loc&, auto&) {
          return std::vector{one(real, with_mask({o[0], o[2], o[1]}, o, 3))};
        });
    for (auto [name, real] : {std::pair{"vmnot.m", "vmnand.mm"}, {"vmmv.m", "vmand.mm"}})
      add(name, 2, [real = real](const Ops& o, const Loc&, auto&) {
        return std::vector{one(real, {o[0], o[1], o[1]})};
      });
    for (auto [name, real] : {std::pair{"vmclr.m", "vmxor.mm"}, {"vmset.m", "vmxnor.mm"}})
      add(name, 1, [real = real](const Ops& o, const Loc&, auto&) {
        return std::vector{one(real, {o[0], o[0], o[0]})};
      });
    return m;
  }();
  return t;
}

}  // namespace

std::optional<std::vector<Expanded>> expand_pseudo(const std::string& mnemonic,
                                                   const std::vector<Token>& operands,
                                                   const Loc& loc, const PseudoHooks& hooks) {
  auto it = table().find({mnemonic, operands.size()});
  if (it == table().end()) return std::nullopt;
  return it->second(operands, loc, hooks);
}

bool is_pseudo(std::string_view mnemonic) {
  auto it = table().lower_bound({std::string(mnemonic), 0});
  return it != table().end() && it->first.name == mnemonic;
}

}  // namespace detail

std::vector<std::string_view> pseudo_mnemonics() {
  std::vector<std::string_view> out;
  for (const auto& [key, expansion] : detail::table())
    if (out.empty() || out.back() != key.name) out.push_back(key.name);
  return out;
}

}  // namespace ventus::assembler
