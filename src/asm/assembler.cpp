// Assembler and static linker. Pass 1 parses every file into chunks (one file's part of one
// section) with instruction and data sizes fixed; layout then places the chunks; pass 2
// evaluates every expression with final addresses and encodes the instructions from the
// rows' operand slots.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "internal.h"
#include "ventus/asm.h"
#include "ventus/error.h"
#include "ventus/isa.h"

namespace ventus::assembler {
namespace {

using namespace detail;
using isa::OperandKind;
using isa::OperandStyle;

// Thrown when the error limit is reached.
struct TooManyErrors {};

struct SectionFlags {
  bool alloc = false, write = false, exec = false, nobits = false;
};

SectionFlags default_flags(const std::string& name) {
  const auto starts = [&](std::string_view p) {
    return name == p || name.rfind(std::string(p) + ".", 0) == 0;
  };
  if (starts(".text")) return {true, false, true, false};
  if (starts(".rodata") || starts(".srodata")) return {true, false, false, false};
  if (starts(".data") || starts(".sdata") || starts(".tohost")) return {true, true, false, false};
  if (starts(".bss") || starts(".sbss")) return {true, true, false, true};
  return {};
}

// Input sections merge into the usual output sections, as GNU ld's default script does.
std::string output_section(const std::string& name) {
  for (auto [prefix, out] : {std::pair{".text", ".text"},
                             {".rodata", ".rodata"},
                             {".srodata", ".rodata"},
                             {".data", ".data"},
                             {".sdata", ".data"},
                             {".bss", ".bss"},
                             {".sbss", ".bss"}})
    if (name == prefix || name.rfind(std::string(prefix) + ".", 0) == 0) return out;
  return name;
}

struct Chunk {
  int file = 0;
  std::string section;  // output section
  SectionFlags flags;
  // The contents up to the last byte stored; the rest up to `size` is zero fill, stored only
  // when more bytes follow it (nobits chunks only count `size`).
  std::vector<uint8_t> bytes;
  uint32_t size = 0;
  uint32_t align = 1;
  uint32_t address = 0;  // after layout
};

struct SymbolDef {
  bool is_label = true;
  Value value;   // label: chunk + offset; equ: its value once known
  ExprPtr expr;  // equ whose value is evaluated on use
  Loc loc;
};

struct FileState {
  std::string name;
  std::unordered_map<std::string, SymbolDef> defs;
  std::set<std::string> globals;
  std::map<std::string, std::string> types;  // "function" / "object"
  std::map<std::string, ExprPtr> sizes;
  std::map<std::string, int> local_label_count;  // numeric local labels defined so far
};

struct PendingOperand {
  const isa::OperandSlot* slot = nullptr;  // the row's slot this operand fills
  OperandKind kind = OperandKind::Rd;
  int reg = -1;       // register operands
  ExprPtr expr;       // immediates evaluated in pass 2
  int64_t fixed = 0;  // mask bit, rounding mode, CSR by name, vtype, fence bits
  // A 5-bit immediate behind a regexti prefix: the decoder reads {prefix_hi, field} as an
  // 11-bit value, so the prefix holds imm[10:5] (decided in pass 1) and the field imm[4:0].
  bool after_regexti = false;
  uint32_t prefix_hi = 0;
};

struct PendingInsn {
  Loc loc;
  int chunk;
  uint32_t offset;
  const isa::InsnInfo* row;
  std::vector<PendingOperand> operands;
  // An explicit prefix/prefixi/prefix.mem: the register (and immediate) extension the next
  // instruction needs, merged into its fields in pass 2.
  uint64_t merged = 0, merged_mask = 0;
};

struct PendingData {
  Loc loc;
  int chunk;
  uint32_t offset;
  unsigned size;
  ExprPtr expr;
};

// A 5-bit immediate that a regexti prefix extends (isa::OperandKindInfo::widened_by_regexti).
bool has_widened_immediate(const isa::InsnInfo& row) {
  return std::any_of(row.operands.begin(), row.operands.end(),
                     [&](auto& s) { return isa::kind_info(s.kind).widened_by_regexti; });
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string suggestion(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  for (std::string_view c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  if (best.empty() || best_distance > std::max<size_t>(2, word.size() / 3)) return "";
  return fmt::format("; did you mean '{}'?", best);
}

const std::vector<std::string_view>& all_mnemonics() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const auto& row : isa::instructions()) v.push_back(row.mnemonic);
    for (std::string_view p : pseudo_mnemonics()) v.push_back(p);
    return v;
  }();
  return names;
}

const std::vector<std::string_view> kDirectives = {
    ".text",   ".data",    ".rodata", ".bss",       ".section", ".globl",  ".global", ".local",
    ".type",   ".size",    ".word",   ".long",      ".4byte",   ".half",   ".short",  ".2byte",
    ".byte",   ".1byte",   ".dword",  ".quad",      ".8byte",   ".string", ".asciz",  ".ascii",
    ".align",  ".p2align", ".balign", ".space",     ".zero",    ".skip",   ".equ",    ".set",
    ".option", ".file",    ".ident",  ".attribute", ".insn"};

std::string display_name(const std::string& name) {
  const size_t mark = name.find('\x02');
  return mark == std::string::npos ? name : name.substr(0, mark);
}

constexpr uint32_t kNop = 0x00000013;
// The most bytes one .space/.skip/.zero may add (docs/assembler.md).
constexpr uint64_t kMaxFill = uint64_t{1} << 28;

// The lowest address any section can be placed at: .text's start, or a lower explicit one.
uint64_t lowest_start(const Options& options) {
  uint64_t lowest = kDefaultTextStart;
  if (auto it = options.section_start.find(".text"); it != options.section_start.end())
    lowest = it->second;
  for (const auto& [name, address] : options.section_start)
    lowest = std::min<uint64_t>(lowest, address);
  return lowest;
}

class Assembler {
 public:
  Assembler(const std::vector<SourceFile>& sources, const Options& options)
      : sources_(sources), options_(options), lowest_start_(lowest_start(options)) {}

  elf::Image run() {
    try {
      for (size_t f = 0; f < sources_.size(); ++f) pass1(static_cast<int>(f));
      if (errors_.empty()) layout();
      if (errors_.empty()) pass2();
      if (errors_.empty()) {
        elf::Image image = build_image();
        if (errors_.empty()) return image;
      }
    } catch (const TooManyErrors&) {
    }
    throw Error(format_errors());
  }

 private:
  // ------------------------------------------------------------------ errors
  void report(const AsmError& e) {
    // One mistake may be met twice (an auipc pair evaluates its target in both halves).
    for (const AsmError& known : errors_)
      if (known.loc.file == e.loc.file && known.loc.line == e.loc.line &&
          known.loc.column == e.loc.column && known.message == e.message)
        return;
    errors_.push_back(e);
    if (errors_.size() >= options_.max_errors) throw TooManyErrors{};
  }
  // Messages quote source text, which may hold any bytes: control and non-ASCII bytes are
  // shown as \xNN so that a message stays one readable line.
  static std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7f)
        out += fmt::format("\\x{:02x}", u);
      else
        out += c;
    }
    return out;
  }

  std::string format_errors() const {
    std::string out;
    for (const AsmError& e : errors_) {
      if (!out.empty()) out += '\n';
      // Layout errors (overlapping or oversized sections) belong to no source line.
      if (e.loc.line == 0)
        out += fmt::format("link: error: {}", printable(e.message));
      else
        out += fmt::format("{}:{}:{}: error: {}", sources_[e.loc.file].name, e.loc.line,
                           e.loc.column, printable(e.message));
    }
    if (errors_.size() >= options_.max_errors)
      out += fmt::format("\ntoo many errors ({}), stopping", errors_.size());
    return out;
  }

  // ------------------------------------------------------------------ pass 1
  void pass1(int file) {
    files_.push_back({});
    FileState& fs = files_.back();
    fs.name = sources_[file].name;
    file_ = file;
    option_depth_ = 0;
    switch_section(".text", default_flags(".text"), {file, 1, 1});
    const std::string& text = sources_[file].text;
    size_t pos = 0;
    int line_number = 0;
    while (pos <= text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      ++line_number;
      process_line(std::string_view(text).substr(pos, end - pos), line_number);
      pos = end + 1;
    }
  }

  // Splits a line at ';' and cuts comments, both outside string literals.
  void process_line(std::string_view line, int line_number) {
    bool in_string = false;
    size_t start = 0, quote = 0;
    for (size_t i = 0; i <= line.size(); ++i) {
      const bool at_end = i == line.size();
      if (!at_end && in_string) {
        if (line[i] == '\\')
          ++i;
        else if (line[i] == '"')
          in_string = false;
        continue;
      }
      if (at_end && in_string) {
        report({{file_, line_number, static_cast<int>(quote) + 1}, "unterminated string"});
        return;
      }
      if (!at_end && line[i] == '"') {
        in_string = true;
        quote = i;
        continue;
      }
      // A character constant may hold '#', ';' or '"'.
      if (!at_end && line[i] == '\'') {
        if (const size_t close = char_literal_end(line, i); close != std::string_view::npos) {
          i = close;
          continue;
        }
      }
      const bool comment =
          !at_end &&
          (line[i] == '#' || (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/'));
      if (at_end || comment || line[i] == ';') {
        statement(line.substr(start, i - start), line_number, static_cast<int>(start) + 1);
        if (at_end || comment) break;
        start = i + 1;
      }
    }
  }

  Loc loc_at(int line, int column) const { return {file_, line, column}; }

  void statement(std::string_view text, int line, int column) {
    try {
      size_t i = 0;
      const auto skip = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      };
      for (;;) {
        skip();
        size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) ||
                                   text[j] == '_' || text[j] == '.' || text[j] == '$'))
          ++j;
        size_t k = j;
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
        if (j > i && k < text.size() && text[k] == ':') {
          define_label(std::string(text.substr(i, j - i)),
                       loc_at(line, column + static_cast<int>(i)));
          i = k + 1;
          continue;
        }
        break;
      }
      skip();
      if (i >= text.size()) return;
      size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      std::string word(text.substr(i, j - i));
      std::transform(word.begin(), word.end(), word.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      const Loc at = loc_at(line, column + static_cast<int>(i));
      const std::string_view rest = text.substr(j);
      const int rest_column = column + static_cast<int>(j);
      if (word[0] == '.')
        directive(word, rest, rest_column, at);
      else
        instruction(word, split_operands(rest, rest_column), at, "");
    } catch (const AsmError& e) {
      report(e);
    }
  }

  // ------------------------------------------------------------------ sections and symbols
  Chunk& chunk() { return chunks_[current_chunk_]; }
  uint32_t offset() const { return chunks_[current_chunk_].size; }

  void switch_section(const std::string& name, SectionFlags flags, const Loc& loc) {
    const std::string out = output_section(name);
    auto it = chunk_index_.find({file_, out});
    if (it != chunk_index_.end()) {
      current_chunk_ = it->second;
      return;
    }
    if (auto known = section_flags_.find(out); known != section_flags_.end()) {
      const SectionFlags& k = known->second;
      if (k.alloc != flags.alloc || k.write != flags.write || k.exec != flags.exec ||
          k.nobits != flags.nobits)
        fail(loc, fmt::format("section '{}' was declared with other flags before", name));
    } else {
      section_flags_[out] = flags;
      section_order_.push_back(out);
    }
    Chunk c;
    c.file = file_;
    c.section = out;
    c.flags = flags;
    c.align = flags.exec ? 4 : 1;
    chunks_.push_back(std::move(c));
    current_chunk_ = static_cast<int>(chunks_.size()) - 1;
    chunk_index_[{file_, out}] = current_chunk_;
  }

  void define(const std::string& name, SymbolDef def, bool redefinable = false) {
    FileState& fs = files_[file_];
    if (auto it = fs.defs.find(name); it != fs.defs.end() && !(redefinable && !it->second.is_label))
      fail(def.loc, fmt::format("symbol '{}' is already defined at {}:{}:{}", display_name(name),
                                fs.name, it->second.loc.line, it->second.loc.column));
    fs.defs[name] = std::move(def);
  }

  void define_label(const std::string& name, const Loc& loc) {
    std::string real = name;
    if (std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); }))
      real = fmt::format("{}\x02{}", name, ++files_[file_].local_label_count[name]);
    define(real, {true, {offset(), current_chunk_}, nullptr, loc});
  }

  ExprContext expr_context() {
    ExprContext ctx;
    ctx.dot = {offset(), current_chunk_};
    ctx.local_label = [this](const std::string& ref, const Loc&) {
      const std::string number = ref.substr(0, ref.size() - 1);
      const int count = files_[file_].local_label_count[number];
      return fmt::format("{}\x02{}", number, ref.back() == 'f' ? count + 1 : count);
    };
    return ctx;
  }

  ExprPtr expression(const Token& t, int line) {
    if (t.text.empty()) fail(loc_at(line, t.column), "expected an expression");
    return parse_expression(t.text, loc_at(line, t.column), expr_context());
  }

  // Symbol lookup for a file: its own definitions, then globals of every file.
  const SymbolDef* find_symbol(int file, const std::string& name, int* owner) const {
    if (auto it = files_[file].defs.find(name); it != files_[file].defs.end()) {
      *owner = file;
      return &it->second;
    }
    if (auto g = global_owner_.find(name); g != global_owner_.end()) {
      *owner = g->second;
      return &files_[g->second].defs.at(name);
    }
    return nullptr;
  }

  Resolver resolver(int file, bool linked, int64_t pc = 0) {
    Resolver r;
    r.pc = pc;
    r.symbol = [this, file, linked](const std::string& name, const Loc& loc) -> Value {
      int owner = file;
      const SymbolDef* def = find_symbol(file, name, &owner);
      if (!def) {
        if (linked)
          if (auto it = linker_symbols_.find(name); it != linker_symbols_.end())
            return {it->second, -1};
        if (!linked) throw NotYet{};
        if (name.find('\x02') != std::string::npos)
          fail(loc, fmt::format("undefined local label '{}' ({}f refers forward, {}b backward)",
                                display_name(name), display_name(name), display_name(name)));
        fail(loc, fmt::format("undefined symbol '{}'", name));
      }
      if (def->is_label || !def->expr) return def->value;
      return evaluate_symbol(*def, name, owner, linked, loc);
    };
    if (linked) {
      r.address_of = [this](const Value& v) {
        return static_cast<int64_t>(chunks_[v.chunk].address) + v.value;
      };
      r.pcrel_lo = [this, file](const std::string& label, const Loc& loc) {
        return pcrel_lo(file, label, loc);
      };
    }
    return r;
  }

  // The value of a symbol defined by an expression that referred forward (.equ/.set): its
  // expression evaluated now, in its own file. Each definition is evaluated once per
  // top-level evaluation (once for good after layout), so that chains and diamonds of such
  // symbols cost their size rather than their number of paths; chains deeper than
  // kMaxSymbolChain are an error rather than a stack overflow.
  Value evaluate_symbol(const SymbolDef& def, const std::string& name, int owner, bool linked,
                        const Loc& use) {
    if (linked)
      if (auto known = linked_values_.find(&def); known != linked_values_.end())
        return known->second;
    // A fresh map rather than clear(), which costs the bucket count every time.
    if (chain_.empty() && !unlinked_values_.empty()) unlinked_values_ = {};
    if (!linked)
      if (auto known = unlinked_values_.find(&def); known != unlinked_values_.end())
        return known->second;
    if (std::find(chain_.begin(), chain_.end(), &def) != chain_.end())
      fail(use, fmt::format("symbol '{}' is defined in terms of itself", name));
    if (chain_.size() >= kMaxSymbolChain)
      fail(use, fmt::format("symbol '{}': its definition depends on a chain of more than {} "
                            "symbols defined later (.equ/.set); define them before use",
                            name, kMaxSymbolChain));
    chain_.push_back(&def);
    struct Pop {
      std::vector<const SymbolDef*>& chain;
      ~Pop() { chain.pop_back(); }
    } pop{chain_};
    const Value v = evaluate(*def.expr, resolver(owner, linked));
    (linked ? linked_values_ : unlinked_values_)[&def] = v;
    return v;
  }

  int64_t constant(const Token& t, int line, std::string_view what) {
    const ExprPtr e = expression(t, line);
    Resolver r = resolver(file_, false);
    if (auto v = try_constant(*e, r)) return *v;
    fail(loc_at(line, t.column), fmt::format("{} must be a constant known at this point", what));
  }

  // ------------------------------------------------------------------ directives
  // Checks the bytes a statement adds to the current chunk before any is stored, so that a
  // program too large for the 32-bit address space fails at its line rather than after
  // gigabytes of fill. The allocated sections share the space from the lowest address a
  // section can start at up to 4 GiB; any one section must fit in 4 GiB; the contents of
  // all sections together stay within Options::max_contents_bytes.
  void reserve(uint64_t n, const Loc& loc) {
    const Chunk& c = chunk();
    constexpr uint64_t kAddressSpace = uint64_t{1} << 32;
    if (c.size + n >= kAddressSpace)
      fail(loc, fmt::format("{} more bytes make section '{}' larger than 4 GiB", n, c.section));
    if (!c.flags.nobits && contents_bytes_ + n > options_.max_contents_bytes)
      fail(loc, fmt::format("{} more bytes in '{}' make the program's contents {} bytes, more "
                            "than the limit of {}",
                            n, c.section, contents_bytes_ + n, options_.max_contents_bytes));
    const uint64_t available = kAddressSpace - lowest_start_;
    if (c.flags.alloc && allocated_bytes_ + n > available)
      fail(loc, fmt::format("{} more bytes in '{}' make the program's sections {} bytes, more "
                            "than the {:#x} bytes from {:#x} to the end of the 32-bit address "
                            "space",
                            n, c.section, allocated_bytes_ + n, available, lowest_start_));
    if (!c.flags.nobits) contents_bytes_ += n;
    if (c.flags.alloc) allocated_bytes_ += n;
  }

  void emit_bytes(const void* data, size_t n, const Loc& loc) {
    Chunk& c = chunk();
    if (c.flags.nobits)
      fail(loc,
           fmt::format("cannot store data in '{}' (it has no contents); use .space", c.section));
    reserve(n, loc);
    c.bytes.resize(c.size);  // the zero fill before these bytes
    const auto* p = static_cast<const uint8_t*>(data);
    c.bytes.insert(c.bytes.end(), p, p + n);
    c.size += static_cast<uint32_t>(n);
  }
  void emit_fill(uint64_t n, uint8_t fill, const Loc& loc) {
    Chunk& c = chunk();
    if (n > kMaxFill)
      fail(loc, fmt::format("{} bytes is too large (at most {} at once)", n, kMaxFill));
    if (c.flags.nobits && fill != 0)
      fail(loc, "a section without contents can only be filled with zeros");
    reserve(n, loc);
    if (c.flags.nobits || fill == 0) {
      c.size += static_cast<uint32_t>(n);
      return;
    }
    c.bytes.resize(c.size);
    c.bytes.insert(c.bytes.end(), n, fill);
    c.size += static_cast<uint32_t>(n);
  }

  // `max_skip`: GNU as's third operand, the most padding worth inserting; with more
  // needed the statement adds nothing.
  void align_to(uint64_t alignment, const Loc& loc, std::optional<uint8_t> fill,
                std::optional<uint64_t> max_skip = std::nullopt) {
    if (alignment == 0 || (alignment & (alignment - 1)) || alignment > (1u << 16))
      fail(loc, fmt::format("alignment {} is not a power of two up to 65536", alignment));
    Chunk& c = chunk();
    c.align = std::max<uint32_t>(c.align, static_cast<uint32_t>(alignment));
    const uint32_t pad = static_cast<uint32_t>((alignment - c.size % alignment) % alignment);
    if (max_skip && pad > *max_skip) return;
    if (!fill && c.flags.exec && c.size % 4 == 0 && alignment >= 4) {
      for (uint32_t i = 0; i < pad; i += 4) emit_bytes(&kNop, 4, loc);
      return;
    }
    emit_fill(pad, fill.value_or(0), loc);
  }

  // A fill operand: one byte, written signed or unsigned (GNU as truncates silently).
  uint8_t fill_byte(const Token& t, int line) {
    const int64_t v = constant(t, line, "fill value");
    if (v < -128 || v > 255)
      fail(loc_at(line, t.column), fmt::format("fill value {} does not fit in a byte", v));
    return static_cast<uint8_t>(v);
  }

  std::vector<uint8_t> parse_string(const Token& t, int line) {
    const Loc loc = loc_at(line, t.column);
    const std::string& s = t.text;
    if (s.size() < 2 || s.front() != '"') fail(loc, "expected a string in double quotes");
    std::vector<uint8_t> out;
    size_t i = 1;
    for (; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] != '\\') {
        out.push_back(static_cast<uint8_t>(s[i]));
        continue;
      }
      if (++i >= s.size()) break;
      std::string why;
      const auto byte = decode_escape(s, i, &why);
      if (!byte)
        fail({loc.file, loc.line, loc.column + static_cast<int>(i) - 1}, why + " in string");
      out.push_back(*byte);
    }
    if (i >= s.size()) fail(loc, "unterminated string");
    if (i + 1 != s.size()) fail(loc, fmt::format("unexpected '{}' after string", s.substr(i + 1)));
    return out;
  }

  void data_item(const Token& t, int line, unsigned size) {
    const Loc loc = loc_at(line, t.column);
    const ExprPtr e = expression(t, line);
    const uint32_t at = offset();
    const uint64_t zero = 0;
    emit_bytes(&zero, size, loc);
    pending_data_.push_back({loc, current_chunk_, at, size, e});
  }

  void directive(const std::string& name, std::string_view rest, int rest_column, const Loc& loc) {
    const int line = loc.line;
    std::vector<Token> args = split_operands(rest, rest_column);
    const auto need = [&](size_t min, size_t max) {
      if (args.size() < min || args.size() > max)
        fail(loc, min == max ? fmt::format("{} takes {} argument{}", name, min, min == 1 ? "" : "s")
                             : fmt::format("{} takes {} to {} arguments", name, min, max));
      for (const Token& a : args)
        if (a.text.empty()) fail(loc_at(line, a.column), fmt::format("empty argument to {}", name));
    };
    const auto symbol_name = [&](const Token& t) {
      const bool ok = !t.text.empty() &&
                      (std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_' ||
                       t.text[0] == '.' || t.text[0] == '$') &&
                      std::all_of(t.text.begin(), t.text.end(), [](unsigned char c) {
                        return std::isalnum(c) || c == '_' || c == '.' || c == '$';
                      });
      if (!ok) fail(loc_at(line, t.column), fmt::format("'{}' is not a symbol name", t.text));
      return t.text;
    };
    FileState& fs = files_[file_];
    if (name == ".text" || name == ".data" || name == ".rodata" || name == ".bss") {
      switch_section(name, default_flags(name), loc);
    } else if (name == ".section") {
      need(1, 3);
      std::string section = args[0].text;
      if (section.size() >= 2 && section.front() == '"' && section.back() == '"')
        section = section.substr(1, section.size() - 2);
      SectionFlags flags = default_flags(section);
      if (args.size() >= 2) {
        const std::string& f = args[1].text;
        if (f.size() < 2 || f.front() != '"' || f.back() != '"')
          fail(loc_at(line, args[1].column), "section flags must be a string such as \"aw\"");
        flags = {false, false, false, flags.nobits};
        for (char c : f.substr(1, f.size() - 2)) {
          if (c == 'a')
            flags.alloc = true;
          else if (c == 'w')
            flags.write = true;
          else if (c == 'x')
            flags.exec = true;
          else if (c != 'M' && c != 'S' && c != 'G' && c != 'T')
            fail(loc_at(line, args[1].column),
                 fmt::format("unknown section flag '{}' (expected a, w, x)", c));
        }
      }
      if (args.size() == 3) {
        const std::string& type = args[2].text;
        if (type == "@nobits" || type == "%nobits")
          flags.nobits = true;
        else if (type == "@progbits" || type == "%progbits")
          flags.nobits = false;
        else
          fail(loc_at(line, args[2].column),
               fmt::format("unknown section type '{}' (expected @progbits or @nobits)", type));
      }
      switch_section(section, flags, loc);
    } else if (name == ".globl" || name == ".global") {
      for (const Token& t : args) fs.globals.insert(symbol_name(t));
    } else if (name == ".local") {
      for (const Token& t : args) fs.globals.erase(symbol_name(t));
    } else if (name == ".type") {
      need(2, 2);
      const std::string& type = args[1].text;
      const std::string sym = symbol_name(args[0]);
      if (type == "@function" || type == "%function" || type == "\"function\"" ||
          type == "STT_FUNC")
        fs.types[sym] = "function";
      else if (type == "@object" || type == "%object" || type == "\"object\"" ||
               type == "STT_OBJECT")
        fs.types[sym] = "object";
      else if (type != "@notype" && type != "%notype")
        fail(loc_at(line, args[1].column),
             fmt::format("unknown symbol type '{}' (expected @function or @object)", type));
    } else if (name == ".size") {
      need(2, 2);
      fs.sizes[symbol_name(args[0])] = expression(args[1], line);
    } else if (name == ".word" || name == ".long" || name == ".4byte" || name == ".half" ||
               name == ".short" || name == ".2byte" || name == ".byte" || name == ".1byte" ||
               name == ".dword" || name == ".quad" || name == ".8byte") {
      const unsigned size = name == ".byte" || name == ".1byte"                       ? 1
                            : name == ".half" || name == ".short" || name == ".2byte" ? 2
                            : name == ".dword" || name == ".quad" || name == ".8byte" ? 8
                                                                                      : 4;
      if (args.empty()) fail(loc, fmt::format("{} needs at least one value", name));
      for (const Token& t : args) data_item(t, line, size);
    } else if (name == ".string" || name == ".asciz" || name == ".ascii") {
      if (args.empty()) fail(loc, fmt::format("{} needs a string", name));
      for (const Token& t : args) {
        std::vector<uint8_t> bytes = parse_string(t, line);
        if (name != ".ascii") bytes.push_back(0);
        emit_bytes(bytes.data(), bytes.size(), loc_at(line, t.column));
      }
    } else if (name == ".align" || name == ".p2align" || name == ".balign") {
      need(1, 3);
      const int64_t n = constant(args[0], line, "alignment");
      std::optional<uint8_t> fill;
      if (args.size() >= 2) fill = fill_byte(args[1], line);
      std::optional<uint64_t> max_skip;
      if (args.size() == 3) {
        const int64_t m = constant(args[2], line, "maximum padding");
        if (m < 0)
          fail(loc_at(line, args[2].column), fmt::format("negative maximum padding {}", m));
        max_skip = static_cast<uint64_t>(m);
      }
      if (name == ".balign")
        align_to(static_cast<uint64_t>(n), loc_at(line, args[0].column), fill, max_skip);
      else {
        if (n < 0 || n > 16)
          fail(loc_at(line, args[0].column), fmt::format("alignment 2^{} out of range [0, 16]", n));
        align_to(uint64_t{1} << n, loc_at(line, args[0].column), fill, max_skip);
      }
    } else if (name == ".space" || name == ".zero" || name == ".skip") {
      need(1, name == ".zero" ? 1 : 2);
      const int64_t n = constant(args[0], line, "size");
      if (n < 0) fail(loc_at(line, args[0].column), fmt::format("negative size {}", n));
      const uint8_t fill = args.size() == 2 ? fill_byte(args[1], line) : 0;
      emit_fill(static_cast<uint64_t>(n), fill, loc_at(line, args[0].column));
    } else if (name == ".equ" || name == ".set") {
      need(2, 2);
      const std::string sym = symbol_name(args[0]);
      const ExprPtr e = expression(args[1], line);
      SymbolDef def{false, {}, nullptr, loc};
      try {
        def.value = evaluate(*e, resolver(file_, false));
      } catch (const NotYet&) {
        def.expr = e;  // refers forward: evaluated on use
      }
      define(sym, std::move(def), name == ".set");
    } else if (name == ".option") {
      need(1, 1);
      const std::string& o = args[0].text;
      if (o == "push")
        ++option_depth_;
      else if (o == "pop") {
        if (option_depth_ == 0)
          fail(loc_at(line, args[0].column), ".option pop without .option push");
        --option_depth_;
      } else if (o == "rvc")
        fail(loc_at(line, args[0].column), ".option rvc: Ventus has no compressed instructions");
      else if (o != "norelax" && o != "relax" && o != "norvc" && o != "nopic" && o != "pic")
        fail(loc_at(line, args[0].column), fmt::format("unknown .option '{}'", o));
    } else if (name == ".insn") {
      insn_directive(args, loc);
    } else if (name == ".file" || name == ".ident" || name == ".attribute") {
      // Tool and ABI annotations: nothing to do for a statically linked Ventus program.
    } else {
      fail(loc, fmt::format("unknown directive '{}'{}", name, suggestion(name, kDirectives)));
    }
  }

  // ------------------------------------------------------------------ .insn
  // ".insn FORMAT opcode, fields..., operands" (GNU as's r, r4, i, s, b, u, j formats; the
  // fields and immediates constant, a b or j target an expression) or ".insn WORD": the
  // word is built from the fields and
  // must be an instruction of the table (decode_op), whose operand slots then say which of
  // the written registers must be vector registers. Registers above 31 get the regext
  // prefix an instruction written by its mnemonic would get.
  void insn_directive(const std::vector<Token>& args, const Loc& loc) {
    const int line = loc.line;
    if (args.empty() || args[0].text.empty()) fail(loc, ".insn takes a format and its fields");
    const std::string& first = args[0].text;
    const size_t space = first.find_first_of(" \t");
    const auto value = [&](const Token& t, std::string_view what, int64_t min, int64_t max) {
      const int64_t v = constant(t, line, fmt::format(".insn's {}", what));
      if (v < min || v > max)
        fail(loc_at(line, t.column),
             fmt::format(".insn's {} is {}, outside {}..{}", what, v, min, max));
      return v;
    };
    // Registers by field: rd, rs1, rs2, rs3 (isa::register_slot numbering); -1 when the
    // format has none there, `vector` when written as v<N>.
    int reg[4] = {-1, -1, -1, -1};
    bool vector[4] = {false, false, false, false};
    std::string reg_text[4];
    const auto registers = [&](const Token& t, int field) {
      if (const auto x = isa::parse_xreg(t.text))
        reg[field] = static_cast<int>(*x);
      else if (const auto v = isa::parse_vreg(t.text))
        reg[field] = static_cast<int>(*v), vector[field] = true;
      else
        fail(loc_at(line, t.column), fmt::format(".insn: expected a register, got '{}'", t.text));
      reg_text[field] = t.text;
    };
    // "offset(rs1)": the offset token and the base register.
    const auto memory = [&](const Token& t, int64_t& offset) {
      const size_t open = t.text.rfind('(');
      if (open == std::string::npos || t.text.back() != ')')
        fail(loc_at(line, t.column),
             fmt::format(".insn: expected 'offset(register)', got '{}'", t.text));
      const std::string off = t.text.substr(0, open);
      offset = off.find_first_not_of(" \t") == std::string::npos
                   ? 0
                   : value({off, t.column}, "offset", -2048, 2047);
      registers({t.text.substr(open + 1, t.text.size() - open - 2),
                 t.column + static_cast<int>(open) + 1},
                1);
    };
    uint32_t word = 0;
    std::string form;
    // b and j: the target, an expression as for the row's mnemonic (a label, ". + 16").
    const Token* target = nullptr;
    if (space == std::string::npos) {
      if (args.size() != 1)
        fail(loc, ".insn: expected a format (r, r4, i, s, b, u, j) or one word");
      word = static_cast<uint32_t>(value(args[0], "word", 0, 0xffffffffLL));
      form = fmt::format(".insn {:#010x}", word);
    } else {
      const std::string format = first.substr(0, space);
      std::vector<Token> f = args;
      const size_t opcode_at = first.find_first_not_of(" \t", space);
      f[0] = {first.substr(opcode_at), args[0].column + static_cast<int>(opcode_at)};
      const auto count = [&](size_t n, std::string_view syntax) {
        if (f.size() != n)
          fail(loc, fmt::format(".insn {} takes {} operands: {}", format, n, syntax));
      };
      // Any 7-bit opcode, as in GNU as: one the table does not know (a low-bit pair other
      // than 11 included) is refused below with the word it makes.
      const auto opcode = [&] { return static_cast<uint32_t>(value(f[0], "opcode", 0, 127)); };
      const auto funct3 = [&] { return static_cast<uint32_t>(value(f[1], "funct3", 0, 7)) << 12; };
      const auto field = [](int r, int shift) { return static_cast<uint32_t>(r & 31) << shift; };
      if (format == "r") {
        count(6, "opcode, funct3, funct7, rd, rs1, rs2");
        registers(f[3], 0), registers(f[4], 1), registers(f[5], 2);
        word = opcode() | funct3() | static_cast<uint32_t>(value(f[2], "funct7", 0, 127)) << 25 |
               field(reg[0], 7) | field(reg[1], 15) | field(reg[2], 20);
      } else if (format == "r4") {
        count(7, "opcode, funct3, funct2, rd, rs1, rs2, rs3");
        registers(f[3], 0), registers(f[4], 1), registers(f[5], 2), registers(f[6], 3);
        word = opcode() | funct3() | static_cast<uint32_t>(value(f[2], "funct2", 0, 3)) << 25 |
               field(reg[0], 7) | field(reg[1], 15) | field(reg[2], 20) | field(reg[3], 27);
      } else if (format == "i") {
        int64_t imm = 0;
        if (f.size() == 4) {
          registers(f[2], 0), memory(f[3], imm);
        } else {
          count(5, "opcode, funct3, rd, rs1, simm12 (or rd, simm12(rs1))");
          registers(f[2], 0), registers(f[3], 1);
          imm = value(f[4], "immediate", -2048, 2047);
        }
        word = opcode() | funct3() | field(reg[0], 7) | field(reg[1], 15) |
               static_cast<uint32_t>(imm & 0xfff) << 20;
      } else if (format == "s") {
        count(4, "opcode, funct3, rs2, simm12(rs1)");
        int64_t imm = 0;
        registers(f[2], 2), memory(f[3], imm);
        word = opcode() | funct3() | field(reg[1], 15) | field(reg[2], 20) |
               static_cast<uint32_t>(imm & 0x1f) << 7 |
               static_cast<uint32_t>(imm >> 5 & 0x7f) << 25;
      } else if (format == "b" || format == "sb") {
        count(5, "opcode, funct3, rs1, rs2, target");
        registers(f[2], 1), registers(f[3], 2);
        word = opcode() | funct3() | field(reg[1], 15) | field(reg[2], 20);
        target = &args[4];
      } else if (format == "u") {
        count(3, "opcode, rd, imm20");
        registers(f[1], 0);
        word = opcode() | field(reg[0], 7) |
               static_cast<uint32_t>(value(f[2], "immediate", 0, 0xfffff)) << 12;
      } else if (format == "j" || format == "uj") {
        count(3, "opcode, rd, target");
        registers(f[1], 0);
        word = opcode() | field(reg[0], 7);
        target = &args[2];
      } else {
        fail(loc_at(line, args[0].column),
             fmt::format(".insn: unknown format '{}' (r, r4, i, s, b, u, j)", format));
      }
      std::string written;
      for (const Token& t : args) written += (written.empty() ? "" : ", ") + t.text;
      form = ".insn " + written;
    }
    const std::optional<isa::Op> op = isa::decode_op(word);
    if (!op || isa::info(*op).length != 4)
      fail(loc, fmt::format("'{}' encodes {:#010x}, which is no instruction of the Ventus "
                            "instruction table",
                            form, word));
    const isa::InsnInfo& row = isa::info(*op);
    uint32_t ext[4] = {0, 0, 0, 0};
    bool is_register[4] = {false, false, false, false};
    for (const isa::OperandSlot& slot : row.operands) {
      if (!isa::is_register_kind(slot.kind)) continue;
      const int r = isa::register_slot(slot.kind);
      if (r < 0 || reg[r] < 0) continue;
      is_register[r] = true;
      if (isa::is_vector_register_kind(slot.kind) != vector[r])
        fail(loc, fmt::format("'{}' is '{}', whose {} must be a {} register, not '{}' (syntax: {})",
                              form, row.mnemonic, r == 0 ? "rd" : fmt::format("rs{}", r),
                              vector[r] ? "scalar" : "vector", reg_text[r], syntax_of(row)));
      ext[r] = static_cast<uint32_t>(reg[r]) >> 5;
    }
    for (int r = 0; r < 4; ++r)
      if (reg[r] > 31 && !is_register[r])
        fail(loc, fmt::format("'{}' is '{}', which has no register operand where '{}' is written",
                              form, row.mnemonic, reg_text[r]));
    if (target) {
      // The row's own encoding places the offset (and any regext) as its mnemonic would.
      std::vector<Token> operands;
      for (const isa::OperandSlot& slot : row.operands)
        operands.push_back(isa::is_register_kind(slot.kind)
                               ? Token{reg_text[isa::register_slot(slot.kind)], target->column}
                               : *target);
      encode_pass1(row, operands, loc, "");
      return;
    }
    if (ext[0] | ext[1] | ext[2] | ext[3]) {
      if (isa::reads_rd_field(row)) ext[3] = ext[0];
      const uint32_t prefix = isa::info(isa::Op::REGEXT).match |
                              (ext[0] | ext[1] << 3 | ext[2] << 6 | ext[3] << 9) << 20;
      emit_bytes(&prefix, 4, loc);
    }
    emit_bytes(&word, 4, loc);
  }

  // ------------------------------------------------------------------ instructions
  void instruction(const std::string& mnemonic, const std::vector<Token>& operands, const Loc& loc,
                   const std::string& label) {
    for (const Token& t : operands)
      if (t.text.empty()) fail({loc.file, loc.line, t.column}, "empty operand");
    PseudoHooks hooks;
    hooks.unique_label = [this] { return fmt::format(".Lventus.pcrel.{}", unique_++); };
    hooks.constant = [&](const Token& t) {
      return constant(t, loc.line, fmt::format("the value of {}", mnemonic));
    };
    const isa::InsnInfo* row = isa::find_mnemonic(mnemonic);
    const bool real_fits =
        row && operand_count_matches(*row, operands.size()) && !symbol_access(*row, operands, loc);
    if (!real_fits) {
      if (auto expansion = expand_pseudo(mnemonic, operands, loc, hooks)) {
        for (const Expanded& x : *expansion) instruction(x.mnemonic, x.operands, loc, x.label);
        return;
      }
    }
    if (!row) {
      if (is_pseudo(mnemonic))
        fail(loc, fmt::format("wrong number of operands ({}) for '{}'", operands.size(), mnemonic));
      fail(loc, fmt::format("unknown instruction '{}'{}", mnemonic,
                            suggestion(mnemonic, all_mnemonics())));
    }
    encode_pass1(*row, operands, loc, label);
  }

  // "lw a0, symbol" (a scalar load whose memory operand is no "offset(register)"): the
  // auipc pseudo form rather than the row.
  // A plain number there ("lw a0, 100") is a forgotten base register, not an address (GNU
  // as rejects it too): the row then reports the expected "offset(register)".
  bool symbol_access(const isa::InsnInfo& row, const std::vector<Token>& operands, const Loc& loc) {
    if (row.cls != isa::InsnClass::Load || operands.size() != 2) return false;
    const Token& t = operands[1];
    if (t.text.empty() || t.text.back() == ')') return false;
    try {
      return !is_plain_number(
          *parse_expression(t.text, {loc.file, loc.line, t.column}, expr_context()));
    } catch (const AsmError&) {
      return true;  // the symbol form reports the bad expression
    }
  }

  // Whether a row could take this many written operands (optional mask/rm, vtype words,
  // off(base) written as one operand).
  static bool operand_count_matches(const isa::InsnInfo& row, size_t n) {
    size_t min = 0, max = 0;
    for (const auto& s : row.operands) {
      const OperandStyle style = isa::kind_info(s.kind).style;
      if (style == OperandStyle::Mask || style == OperandStyle::RoundingMode ||
          style == OperandStyle::Modifier)
        ++max;
      else if (style == OperandStyle::Vtype)
        ++min, max += 4;
      else if (!s.mem_base || row.operands.empty() || &s == &row.operands.front() ||
               !(&s - 1)->mem_offset)
        ++min, ++max;
    }
    return n >= min && n <= max;
  }

  // The row's syntax as written in assembly (without the table's role markers).
  std::string syntax_of(const isa::InsnInfo& row) const {
    std::string s(row.mnemonic);
    if (!row.syntax.empty()) s += " " + std::string(row.syntax);
    std::erase(s, isa::detail::kTiedMarker);
    return s;
  }

  int parse_register(OperandKind kind, const Token& t, const Loc& at, const isa::InsnInfo& row) {
    const bool vector = isa::is_vector_register_kind(kind);
    const auto x = isa::parse_xreg(t.text);
    const auto v = isa::parse_vreg(t.text);
    const auto checked = [&](unsigned r) {
      if (isa::is_pair_register_kind(kind) && r % 2 != 0)
        fail(at, fmt::format("'{}' names a 64-bit register pair here, which must start at an even "
                             "register; '{}' is odd (syntax: {})",
                             row.mnemonic, t.text, syntax_of(row)));
      return static_cast<int>(r);
    };
    if (vector && v) return checked(*v);
    if (!vector && x) return checked(*x);
    if (vector && x)
      fail(at,
           fmt::format(
               "wrong register class: '{}' is a scalar register, '{}' needs a vector register here "
               "(v0-v255)",
               t.text, row.mnemonic));
    if (!vector && v)
      fail(at,
           fmt::format(
               "wrong register class: '{}' is a vector register, '{}' needs a scalar register here "
               "(x0-x63 or an ABI name)",
               t.text, row.mnemonic));
    fail(at, fmt::format("expected a {} register, got '{}' (syntax: {})",
                         vector ? "vector" : "scalar", t.text, syntax_of(row)));
  }

  void encode_pass1(const isa::InsnInfo& row, const std::vector<Token>& tokens, const Loc& loc,
                    const std::string& label) {
    PendingInsn insn{loc, current_chunk_, 0, &row, {}};
    size_t next = 0;
    const auto tok_loc = [&](const Token& t) { return Loc{loc.file, loc.line, t.column}; };
    const auto missing = [&]() -> Loc {
      fail(loc,
           fmt::format("too few operands for '{}' (syntax: {})", row.mnemonic, syntax_of(row)));
    };
    for (size_t s = 0; s < row.operands.size(); ++s) {
      const isa::OperandSlot& slot = row.operands[s];
      PendingOperand op;
      op.slot = &slot;
      op.kind = slot.kind;
      const bool have = next < tokens.size();
      switch (isa::kind_info(slot.kind).style) {
        case OperandStyle::Modifier: continue;  // keyword operands follow all others
        case OperandStyle::Mask:
          op.fixed = 1;
          if (have && tokens[next].text == "v0.t")
            op.fixed = 0, ++next;
          else if (have && tokens[next].text.size() > 2 && tokens[next].text.ends_with(".t"))
            fail(tok_loc(tokens[next]),
                 fmt::format("only v0 can mask an instruction: expected 'v0.t', got '{}'",
                             tokens[next].text));
          insn.operands.push_back(op);
          continue;
        case OperandStyle::RoundingMode: {
          op.fixed = 7;
          if (have) {
            const auto rm = isa::parse_rounding_mode(tokens[next].text);
            if (!rm)
              fail(tok_loc(tokens[next]),
                   fmt::format("unknown rounding mode '{}' (expected rne, rtz, rdn, rup, rmm, dyn)",
                               tokens[next].text));
            op.fixed = *rm;
            ++next;
          }
          insn.operands.push_back(op);
          continue;
        }
        case OperandStyle::Vtype: {
          if (!have) missing();
          std::vector<std::string_view> words;
          const Loc at = tok_loc(tokens[next]);
          for (; next < tokens.size(); ++next) words.push_back(tokens[next].text);
          std::string why;
          const auto v = isa::parse_vtype(words, &why);
          if (!v) fail(at, why);
          if (!isa::operand_fits(slot.kind, *v, &why)) fail(at, "vtype " + why);
          op.fixed = *v;
          insn.operands.push_back(op);
          continue;
        }
        default: break;
      }
      if (slot.mem_base) {
        // "(base)" alone: a memory operand without offset.
        if (!have) missing();
        const Token& t = tokens[next++];
        if (t.text.size() < 2 || t.text.front() != '(' || t.text.back() != ')')
          fail(tok_loc(t),
               fmt::format("expected '(register)', got '{}' (syntax: {})", t.text, syntax_of(row)));
        op.reg = parse_register(slot.kind, {t.text.substr(1, t.text.size() - 2), t.column + 1},
                                {loc.file, loc.line, t.column + 1}, row);
        insn.operands.push_back(op);
        continue;
      }
      if (!have) missing();
      const Token& t = tokens[next++];
      if (slot.mem_offset) {
        // "offset(base)": the base register is the next slot.
        const size_t open = t.text.rfind('(');
        if (open == std::string::npos || t.text.back() != ')')
          fail(tok_loc(t), fmt::format("expected 'offset(register)', got '{}' (syntax: {})", t.text,
                                       syntax_of(row)));
        const std::string offset_text = t.text.substr(0, open);
        op.expr = offset_text.find_first_not_of(" \t") == std::string::npos
                      ? parse_expression("0", tok_loc(t), expr_context())
                      : expression({offset_text, t.column}, loc.line);
        insn.operands.push_back(op);
        const isa::OperandSlot& base = row.operands[++s];
        PendingOperand base_op;
        base_op.slot = &base;
        base_op.kind = base.kind;
        const std::string reg_text = t.text.substr(open + 1, t.text.size() - open - 2);
        base_op.reg =
            parse_register(base.kind, {reg_text, t.column + static_cast<int>(open) + 1},
                           {loc.file, loc.line, t.column + static_cast<int>(open) + 1}, row);
        insn.operands.push_back(base_op);
        continue;
      }
      const OperandStyle style = isa::kind_info(slot.kind).style;
      if (isa::is_register_kind(slot.kind)) {
        op.reg = parse_register(slot.kind, t, tok_loc(t), row);
        std::string why;
        if (slot.width != 0 && !isa::operand_fits(slot, op.reg, &why))
          fail(tok_loc(t), fmt::format("register '{}' does not fit the {}-bit field of '{}'",
                                       t.text, slot.width, row.mnemonic));
      } else if (style == OperandStyle::FixedV0) {
        if (t.text != "v0") fail(tok_loc(t), fmt::format("expected 'v0', got '{}'", t.text));
      } else if (style == OperandStyle::Csr) {
        if (auto n = isa::csr_by_name(t.text))
          op.fixed = *n, op.reg = -2;
        else
          op.expr = expression(t, loc.line);
      } else if (style == OperandStyle::Fence) {
        const auto bits = isa::parse_fence(t.text);
        if (!bits)
          fail(tok_loc(t), fmt::format("bad fence operand '{}' (letters from iorw)", t.text));
        op.fixed = *bits;
        op.reg = -2;
      } else {
        op.expr = expression(t, loc.line);
      }
      insn.operands.push_back(op);
    }
    modifiers(row, tokens, next, loc, insn);
    if (next < tokens.size())
      fail(tok_loc(tokens[next]),
           fmt::format("too many operands for '{}' (syntax: {})", row.mnemonic, syntax_of(row)));

    // Registers above 31 in 5-bit fields: a regext / regexti prefix carries the high bits.
    uint32_t ext[4] = {0, 0, 0, 0};
    for (const PendingOperand& op : insn.operands)
      if (isa::is_register_kind(op.kind) && op.reg > 31 && op.slot->width == 0) {
        const int slot = isa::register_slot(op.kind);
        ext[slot] = static_cast<uint32_t>(op.reg) >> 5;
      }
    // A vector .vi immediate beyond 5 bits needs regexti too (the guide's {imm_hi6, rs2ext,
    // rdext} prefix). The prefix is decided here, so only a value known now can be widened.
    PendingOperand* immediate = nullptr;
    std::optional<int64_t> known;
    for (PendingOperand& op : insn.operands)
      if (isa::kind_info(op.kind).widened_by_regexti && op.expr) {
        immediate = &op;
        known = try_constant(*op.expr, resolver(file_, false));
      }
    const bool wide_immediate = immediate && isa::kind_info(immediate->kind).is_signed &&
                                row.cls == isa::InsnClass::Vector && known &&
                                (*known < -16 || *known > 15) && *known >= -1024 && *known <= 1023;
    PendingInsn* explicit_prefix = previous_prefix();
    if ((ext[0] | ext[1] | ext[2] | ext[3] | wide_immediate) && explicit_prefix) {
      merge_into_prefix(*explicit_prefix, row, ext, immediate, known, wide_immediate, loc);
    } else if (ext[0] | ext[1] | ext[2] | ext[3] | wide_immediate) {
      uint32_t prefix;
      if (has_widened_immediate(row)) {
        if (ext[1] | ext[3])
          fail(loc,
               fmt::format("'{}' has a 5-bit immediate: regexti can extend only rd/vd and rs2/vs2",
                           row.mnemonic));
        uint32_t imm_hi = 0;
        if (immediate) {
          immediate->after_regexti = true;
          immediate->prefix_hi = imm_hi = known ? static_cast<uint32_t>(*known >> 5) & 0x3f : 0;
        }
        prefix = isa::info(isa::Op::REGEXTI).match | (ext[0] | ext[2] << 3 | imm_hi << 6) << 20;
      } else {
        if (isa::reads_rd_field(row)) ext[3] = ext[0];
        prefix = isa::info(isa::Op::REGEXT).match |
                 (ext[0] | ext[1] << 3 | ext[2] << 6 | ext[3] << 9) << 20;
      }
      emit_bytes(&prefix, 4, loc);
    }
    if (!label.empty()) define(label, {true, {offset(), current_chunk_}, nullptr, loc});
    insn.offset = offset();
    emit_bytes(&row.match, row.length, loc);  // little-endian: the low word first
    pending_insns_.push_back(std::move(insn));
  }

  // The explicit prefix/prefixi/prefix.mem emitted just before this point, if any.
  PendingInsn* previous_prefix() {
    if (pending_insns_.empty()) return nullptr;
    PendingInsn& last = pending_insns_.back();
    const isa::Op op = last.row->op;
    const bool is_prefix =
        op == isa::Op::PREFIX || op == isa::Op::PREFIXI || op == isa::Op::PREFIX_MEMORY;
    return is_prefix && last.chunk == current_chunk_ && last.offset + 4 == offset() ? &last
                                                                                    : nullptr;
  }

  // Registers above 31 (and a wide .vi immediate) after an explicit prefix: their high bits go
  // into the prefix's fields rather than into a regext of their own (which would leave the
  // prefix without its instruction).
  void merge_into_prefix(PendingInsn& prefix, const isa::InsnInfo& row, uint32_t (&ext)[4],
                         PendingOperand* immediate, std::optional<int64_t> known,
                         bool wide_immediate, const Loc& loc) {
    const isa::Op op = prefix.row->op;
    const auto put = [&](const char* key, uint32_t value) {
      if (!value) return;
      const isa::OperandSlot* slot = nullptr;
      for (const isa::OperandSlot& s : prefix.row->operands)
        if (s.kind == OperandKind::Modifier && s.key == key) slot = &s;
      if (!slot)
        fail(loc, fmt::format("'{}' has no '{}' field for the registers of '{}'",
                              prefix.row->mnemonic, key, row.mnemonic));
      prefix.merged = isa::set_operand(prefix.merged, *slot, value);
      prefix.merged_mask = isa::set_operand(prefix.merged_mask, *slot, -1);
    };
    const bool has_immediate = has_widened_immediate(row);
    if (has_immediate && op == isa::Op::PREFIXI) {
      if (ext[1] | ext[3])
        fail(loc, fmt::format("'{}' has a 5-bit immediate: prefixi can extend only rd/vd and "
                              "rs2/vs2",
                              row.mnemonic));
      if (immediate && known) {
        immediate->after_regexti = true;
        immediate->prefix_hi = static_cast<uint32_t>(*known >> 5) & 0x3f;
        put("imm", immediate->prefix_hi);
      }
    } else if (wide_immediate) {
      fail(loc,
           fmt::format("an immediate beyond 5 bits needs prefixi, not '{}'", prefix.row->mnemonic));
    } else if (!has_immediate && isa::reads_rd_field(row)) {
      ext[3] = ext[0];
    }
    put("rd", ext[0]);
    put("rs1", ext[1]);
    put("rs2", ext[2]);
    put("rs3", ext[3]);
  }

  // The keyword operands after the positional ones: "key=value" (a constant expression) or a
  // bare "key" meaning key=1, each at most once, in any order.
  void modifiers(const isa::InsnInfo& row, const std::vector<Token>& tokens, size_t& next,
                 const Loc& loc, PendingInsn& insn) {
    std::vector<std::string_view> keys;
    for (const isa::OperandSlot& s : row.operands)
      if (s.kind == OperandKind::Modifier) keys.push_back(s.key);
    if (keys.empty()) return;
    std::set<std::string_view> seen;
    for (; next < tokens.size(); ++next) {
      const Token& t = tokens[next];
      const Loc at{loc.file, loc.line, t.column};
      const size_t eq = t.text.find('=');
      const std::string key = t.text.substr(0, std::min(eq, t.text.size()));
      const auto trimmed = [](std::string_view v) {
        while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
        return v;
      };
      const std::string_view name = trimmed(key);
      const auto slot = std::find_if(row.operands.begin(), row.operands.end(), [&](auto& s) {
        return s.kind == OperandKind::Modifier && s.key == name;
      });
      if (slot == row.operands.end()) {
        std::string list;
        for (std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(at, fmt::format("'{}' is no modifier of '{}' (modifiers: {}; written key=value)",
                             t.text, row.mnemonic, list));
      }
      if (!seen.insert(slot->key).second)
        fail(at, fmt::format("modifier '{}' given twice", slot->key));
      PendingOperand op;
      op.slot = &*slot;
      op.kind = OperandKind::Modifier;
      if (eq == std::string::npos)
        op.fixed = 1;
      else
        op.expr =
            expression({t.text.substr(eq + 1), t.column + static_cast<int>(eq) + 1}, loc.line);
      insn.operands.push_back(std::move(op));
    }
  }

  // ------------------------------------------------------------------ layout
  void layout() {
    // Globals: each name defined by exactly one file.
    for (size_t f = 0; f < files_.size(); ++f)
      for (const std::string& g : files_[f].globals) {
        auto it = files_[f].defs.find(g);
        if (it == files_[f].defs.end()) continue;
        if (auto prev = global_owner_.find(g); prev != global_owner_.end()) {
          const SymbolDef& first = files_[prev->second].defs.at(g);
          report({it->second.loc,
                  fmt::format("duplicate symbol '{}': also defined at {}:{}:{}", g,
                              files_[prev->second].name, first.loc.line, first.loc.column)});
          continue;
        }
        global_owner_[g] = static_cast<int>(f);
      }
    const auto rank = [&](const std::string& s) {
      const SectionFlags& f = section_flags_.at(s);
      if (!f.alloc) return 5;
      if (f.exec) return s == ".text" ? 0 : 1;
      if (!f.write) return 2;
      if (!f.nobits) return 3;
      return 4;
    };
    std::stable_sort(section_order_.begin(), section_order_.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    uint64_t cursor = kDefaultTextStart;
    if (auto it = options_.section_start.find(".text"); it != options_.section_start.end())
      cursor = it->second;
    // Each output section's chunks in input order.
    std::unordered_map<std::string, std::vector<int>> chunks_of;
    for (size_t i = 0; i < chunks_.size(); ++i)
      chunks_of[chunks_[i].section].push_back(static_cast<int>(i));
    for (const std::string& name : section_order_) {
      const SectionFlags& flags = section_flags_.at(name);
      const std::vector<int>& members = chunks_of[name];
      uint32_t align = flags.exec ? 4 : 1;
      for (const int i : members) align = std::max(align, chunks_[i].align);
      uint64_t start = flags.alloc ? (cursor + align - 1) / align * align : 0;
      if (auto it = options_.section_start.find(name); it != options_.section_start.end())
        start = it->second;
      uint64_t end = start;
      for (const int i : members) {
        Chunk& c = chunks_[i];
        end = (end + c.align - 1) / c.align * c.align;
        c.address = static_cast<uint32_t>(end);
        end += c.size;
      }
      if (end > 0x100000000ull)
        report({{0, 0, 0},
                fmt::format("section '{}' at {:#x} does not fit below 4 GiB", name, start)});
      placed_.push_back(
          {name, static_cast<uint32_t>(start), static_cast<uint32_t>(end - start), align});
      // Like GNU ld: the next section follows this one, also when it was placed explicitly.
      if (flags.alloc) cursor = end;
    }
    report_overlaps();
    // Symbols the GNU linker script provides.
    // The start file clears [_edata, _end): the span of the sections without contents,
    // wherever they were placed; empty when there are none.
    uint64_t edata = UINT64_MAX, end = 0, data_start = 0;
    bool have_data = false;
    for (const Placed& p : placed_) {
      const SectionFlags& f = section_flags_.at(p.name);
      if (!f.alloc) continue;
      if (f.nobits) {
        edata = std::min<uint64_t>(edata, p.address);
        end = std::max<uint64_t>(end, uint64_t{p.address} + p.size);
      }
      if (f.write && !f.nobits && (!have_data || p.name == ".data"))
        data_start = p.address, have_data = true;
    }
    if (edata == UINT64_MAX) edata = end = cursor;
    if (!have_data) data_start = edata;
    linker_symbols_["_edata"] = static_cast<int64_t>(edata);
    linker_symbols_["__bss_start"] = static_cast<int64_t>(edata);
    linker_symbols_["_end"] = static_cast<int64_t>(end);
    linker_symbols_["__global_pointer$"] = static_cast<int64_t>(data_start + 0x800);
  }

  // Overlapping allocated sections, in address order: each section that starts below the
  // end of an earlier one is reported with the one reaching furthest (n log n, for programs
  // of thousands of sections).
  void report_overlaps() {
    std::vector<const Placed*> by_address;
    for (const Placed& p : placed_)
      if (section_flags_.at(p.name).alloc && p.size) by_address.push_back(&p);
    std::stable_sort(by_address.begin(), by_address.end(),
                     [](const Placed* a, const Placed* b) { return a->address < b->address; });
    const Placed* furthest = nullptr;
    const auto end = [](const Placed* p) { return uint64_t{p->address} + p->size; };
    for (const Placed* p : by_address) {
      if (furthest && p->address < end(furthest)) {
        // Named in placement order, as the sections appear in the program.
        const Placed *a = std::min(furthest, p), *b = std::max(furthest, p);
        report({{0, 0, 0},
                fmt::format("sections '{}' [{:#x}, {:#x}) and '{}' [{:#x}, {:#x}) overlap", a->name,
                            a->address, end(a), b->name, b->address, end(b))});
      }
      if (!furthest || end(p) > end(furthest)) furthest = p;
    }
  }

  // ------------------------------------------------------------------ pass 2
  int64_t pcrel_lo(int file, const std::string& label, const Loc& loc) {
    const Value v = resolver(file, true).symbol(label, loc);
    const int64_t address = v.chunk >= 0 ? chunks_[v.chunk].address + v.value : v.value;
    auto it = auipc_at_.find(address);
    if (it == auipc_at_.end())
      fail(loc, fmt::format("%pcrel_lo({}): the label does not mark an auipc with %pcrel_hi",
                            display_name(label)));
    const PendingInsn& auipc = *it->second;
    const int64_t auipc_address = chunks_[auipc.chunk].address + auipc.offset;
    const Expr& hi = *auipc.operands[1].expr;
    const Value target = evaluate(*hi.lhs, resolver(auipc.loc.file, true, auipc_address));
    const int64_t t =
        target.chunk >= 0 ? chunks_[target.chunk].address + target.value : target.value;
    return lo12(t - auipc_address);
  }

  void pass2() {
    for (const PendingInsn& insn : pending_insns_)
      if (insn.row->op == isa::Op::AUIPC && insn.operands.size() == 2 && insn.operands[1].expr &&
          insn.operands[1].expr->kind == Expr::Kind::PcrelHi) {
        const int64_t address = chunks_[insn.chunk].address + insn.offset;
        auipc_at_[address] = &insn;
        // An auipc of x32..x63 follows its regext prefix, where a label on its line points.
        if (insn.operands[0].reg > 31) auipc_at_[address - 4] = &insn;
      }
    for (const PendingInsn& insn : pending_insns_) {
      try {
        encode_pass2(insn);
      } catch (const AsmError& e) {
        report(e);
      }
    }
    for (const PendingData& d : pending_data_) {
      try {
        const Value v = evaluate(*d.expr, resolver(d.loc.file, true));
        const int64_t x = v.chunk >= 0 ? chunks_[v.chunk].address + v.value : v.value;
        if (d.size < 8) {
          const int64_t bits = 8 * d.size;
          if (x < -(int64_t{1} << (bits - 1)) || x >= (int64_t{1} << bits))
            fail(d.loc, fmt::format("value {} does not fit in {} byte{}", x, d.size,
                                    d.size == 1 ? "" : "s"));
        }
        for (unsigned i = 0; i < d.size; ++i)
          chunks_[d.chunk].bytes[d.offset + i] =
              static_cast<uint8_t>(static_cast<uint64_t>(x) >> (8 * i));
      } catch (const AsmError& e) {
        report(e);
      }
    }
  }

  void encode_pass2(const PendingInsn& insn) {
    const uint32_t pc = chunks_[insn.chunk].address + insn.offset;
    uint64_t word = insn.row->match;
    for (const PendingOperand& op : insn.operands) {
      const isa::OperandSlot& slot = *op.slot;
      if (op.reg >= 0) {
        // 5-bit fields hold the low bits (a regext prefix the rest); wider fields all of them.
        word = isa::set_operand(word, slot, slot.width ? op.reg : op.reg & 31);
        continue;
      }
      if (!op.expr) {
        word = isa::set_operand(word, slot, op.fixed);
        continue;
      }
      Value v;
      try {
        v = evaluate(*op.expr, resolver(insn.loc.file, true, pc));
      } catch (AsmError& e) {
        // A CSR operand is a name far more often than a symbol.
        if (op.kind == OperandKind::Csr && op.expr->kind == Expr::Kind::Symbol)
          e.message += " (and no CSR has this name)";
        throw;
      }
      int64_t value = v.chunk >= 0 ? chunks_[v.chunk].address + v.value : v.value;
      std::string why;
      if (op.after_regexti) {
        // The prefix emitted in pass 1 holds imm[10:5]; the value must agree with it.
        const bool is_signed = isa::kind_info(op.kind).is_signed;
        const int64_t low = is_signed ? -1024 : 0, high = is_signed ? 1023 : 31;
        if (value < low || value > high ||
            ((static_cast<uint64_t>(value) >> 5) & 0x3f) != op.prefix_hi)
          fail(op.expr->loc,
               fmt::format("immediate {} of '{}' does not fit its regexti prefix (bits 10:5 = {}): "
                           "the value must be a constant known where it is used",
                           value, insn.row->mnemonic, op.prefix_hi));
        word = isa::set_operand(word, slot, value & 31);
        continue;
      }
      if (isa::is_pc_relative(op.kind)) {
        if (!is_plain_number(*op.expr)) value -= pc;
        if (!isa::operand_fits(op.kind, value, &why))
          fail(op.expr->loc,
               value % 2 ? fmt::format("misaligned branch target: offset {} is odd", value)
                         : fmt::format("branch target out of range: offset {}", why.substr(6)));
      } else if (op.kind == OperandKind::Modifier) {
        if (!isa::operand_fits(slot, value, &why))
          fail(op.expr->loc,
               fmt::format("modifier {} of '{}': {}", slot.key, insn.row->mnemonic, why));
      } else if (!isa::operand_fits(slot, value, &why)) {
        const bool widenable = isa::kind_info(op.kind).widened_by_regexti &&
                               isa::kind_info(op.kind).is_signed &&
                               insn.row->cls == isa::InsnClass::Vector;
        fail(
            op.expr->loc,
            fmt::format("immediate out of range for '{}': {}{}", insn.row->mnemonic, why,
                        widenable ? value >= -1024 && value <= 1023
                                        ? " (a constant known where it is used would get a regexti "
                                          "prefix for up to 11 bits)"
                                        : " (up to [-1024, 1023] with a regexti prefix)"
                                  : ""));
      }
      word = isa::set_operand(word, slot, value);
    }
    if (insn.merged_mask) {
      const uint64_t written = word & insn.merged_mask;
      if (written != 0 && written != insn.merged)
        fail(insn.loc, fmt::format("the register fields written in '{}' disagree with the "
                                   "registers of the next instruction",
                                   insn.row->mnemonic));
      word |= insn.merged;
    }
    std::memcpy(chunks_[insn.chunk].bytes.data() + insn.offset, &word, insn.row->length);
  }

  // ------------------------------------------------------------------ output
  elf::Image build_image() {
    elf::Image image;
    std::unordered_map<std::string, size_t> section_of;  // output section -> image.sections
    for (const Placed& p : placed_) {
      const SectionFlags& f = section_flags_.at(p.name);
      elf::Section s;
      s.name = p.name;
      s.address = p.address;
      s.size = p.size;
      s.align = p.align;
      s.alloc = f.alloc;
      s.exec = f.exec;
      s.write = f.write;
      s.nobits = f.nobits;
      if (!f.nobits) s.bytes.assign(p.size, 0);
      section_of[p.name] = image.sections.size();
      image.sections.push_back(std::move(s));
    }
    for (const Chunk& c : chunks_) {
      elf::Section& s = image.sections[section_of.at(c.section)];
      if (!s.nobits)
        std::copy(c.bytes.begin(), c.bytes.end(), s.bytes.begin() + (c.address - s.address));
    }
    for (size_t f = 0; f < files_.size(); ++f) {
      const FileState& fs = files_[f];
      for (const auto& [name, def] : fs.defs) {
        if (name.rfind(".L", 0) == 0 || name.find('\x02') != std::string::npos) continue;
        elf::Symbol s;
        s.name = name;
        s.global = fs.globals.count(name) > 0;
        if (def.is_label) {
          s.value = chunks_[def.value.chunk].address + static_cast<uint32_t>(def.value.value);
          s.section = chunks_[def.value.chunk].section;
        } else {
          try {
            const Value v =
                def.expr ? evaluate(*def.expr, resolver(static_cast<int>(f), true)) : def.value;
            s.value =
                static_cast<uint32_t>(v.chunk >= 0 ? chunks_[v.chunk].address + v.value : v.value);
            if (v.chunk >= 0) s.section = chunks_[v.chunk].section;
          } catch (const AsmError& e) {
            report(e);
          }
        }
        if (auto t = fs.types.find(name); t != fs.types.end()) {
          s.function = t->second == "function";
          s.object = t->second == "object";
        }
        if (auto sz = fs.sizes.find(name); sz != fs.sizes.end()) {
          try {
            const Value v = evaluate(*sz->second, resolver(static_cast<int>(f), true));
            const int64_t size = v.chunk >= 0 ? chunks_[v.chunk].address + v.value : v.value;
            // GNU as writes such a size modulo 2^32, or drops it.
            if (size < 0 || size > UINT32_MAX)
              fail(sz->second->loc,
                   fmt::format("size {} of '{}' is not in [0, 4 GiB)", size, display_name(name)));
            s.size = static_cast<uint32_t>(size);
          } catch (const AsmError& e) {
            report(e);
          }
        }
        image.symbols.push_back(std::move(s));
      }
    }
    std::stable_sort(image.symbols.begin(), image.symbols.end(),
                     [](const elf::Symbol& a, const elf::Symbol& b) {
                       return a.value != b.value ? a.value < b.value : a.name < b.name;
                     });
    const auto entry = image.symbol_address("_start");
    image.entry = entry ? *entry : placed_.empty() ? kDefaultTextStart : placed_.front().address;
    return image;
  }

  struct Placed {
    std::string name;
    uint32_t address, size, align;
  };

  const std::vector<SourceFile>& sources_;
  const Options& options_;
  std::vector<AsmError> errors_;
  std::vector<FileState> files_;
  std::vector<Chunk> chunks_;
  std::map<std::pair<int, std::string>, int> chunk_index_;
  std::map<std::string, SectionFlags> section_flags_;
  std::vector<std::string> section_order_;
  std::vector<PendingInsn> pending_insns_;
  std::vector<PendingData> pending_data_;
  std::unordered_map<std::string, int> global_owner_;
  std::map<std::string, int64_t> linker_symbols_;
  std::map<int64_t, const PendingInsn*> auipc_at_;
  // evaluate_symbol: the definitions being evaluated (innermost last), and the values found.
  std::vector<const SymbolDef*> chain_;
  std::unordered_map<const SymbolDef*, Value> unlinked_values_, linked_values_;
  std::vector<Placed> placed_;
  const uint64_t lowest_start_;
  uint64_t allocated_bytes_ = 0;  // in the chunks of allocated sections so far
  uint64_t contents_bytes_ = 0;   // in the chunks of sections with contents so far
  int file_ = 0;
  int current_chunk_ = 0;
  int option_depth_ = 0;
  int unique_ = 0;
};

}  // namespace

elf::Image assemble(const std::vector<SourceFile>& sources, const Options& options) {
  std::vector<SourceFile> all;
  if (options.start_files) all.push_back({"<start.S>", std::string(start_file())});
  all.insert(all.end(), sources.begin(), sources.end());
  return Assembler(all, options).run();
}

}  // namespace ventus::assembler
