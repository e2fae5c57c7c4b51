// Constant expressions with GNU as operators, %hi/%lo/%pcrel_hi/%pcrel_lo, and operand
// splitting.
#include <fmt/format.h>

#include <cctype>
#include <climits>

#include "internal.h"

namespace ventus::assembler::detail {

void fail(const Loc& loc, std::string message) {
  throw AsmError{loc, std::move(message)};
}

std::optional<uint8_t> decode_escape(std::string_view text, size_t& i, std::string* why) {
  if (i >= text.size()) {
    *why = "a backslash ends the text (nothing to escape)";
    return std::nullopt;
  }
  const char c = text[i];
  if (c >= '0' && c <= '7') {
    unsigned v = 0;
    for (int k = 0; k < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++k, ++i)
      v = v * 8 + (text[i] - '0');
    --i;
    return static_cast<uint8_t>(v);
  }
  if (c == 'x' || c == 'X') {
    if (i + 1 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
      *why = "\\x needs hexadecimal digits";
      return std::nullopt;
    }
    unsigned v = 0;
    while (i + 1 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
      const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text[++i])));
      v = (v * 16 + (std::isdigit(static_cast<unsigned char>(d)) ? d - '0' : d - 'a' + 10)) & 0xff;
    }
    return static_cast<uint8_t>(v);
  }
  switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'v': return '\v';
    case 'a': return '\a';
    case '\\': return '\\';
    case '"': return '"';
    case '\'': return '\'';
    default: break;
  }
  *why = fmt::format("unknown escape '\\{}'", c);
  return std::nullopt;
}

size_t char_literal_end(std::string_view text, size_t open) {
  size_t i = open + 1;
  if (i >= text.size() || text[i] == '\'') return std::string_view::npos;
  if (text[i] == '\\') {
    // The escape's length: octal and hex run over several characters.
    std::string why;
    ++i;
    if (!decode_escape(text, i, &why)) {
      // An unknown escape still has one character; the parser reports it.
      if (i >= text.size()) return std::string_view::npos;
    }
  }
  ++i;
  return i < text.size() && text[i] == '\'' ? i : std::string_view::npos;
}

namespace {

std::shared_ptr<Expr> node(Expr::Kind kind) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  return e;
}

bool is_symbol_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool is_symbol_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

class Parser {
 public:
  Parser(std::string_view text, const Loc& loc, const ExprContext& ctx)
      : text_(text), loc_(loc), ctx_(ctx) {}

  ExprPtr parse() {
    skip_space();
    if (pos_ >= text_.size()) fail(here(), "expected an expression");
    ExprPtr e = parse_binary(0);
    skip_space();
    if (pos_ < text_.size())
      fail(here(), fmt::format("unexpected '{}' in expression", text_.substr(pos_)));
    return e;
  }

 private:
  Loc here() const { return {loc_.file, loc_.line, loc_.column + static_cast<int>(pos_)}; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(std::string_view s) {
    skip_space();
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }

  // Binary operators by precedence level, loosest first.
  static constexpr std::string_view kLevels[][3] = {{"|", "", ""},  {"^", "", ""},
                                                    {"&", "", ""},  {"<<", ">>", ""},
                                                    {"+", "-", ""}, {"*", "/", "%"}};
  static constexpr int kNumLevels = 6;  // parse_binary(kNumLevels): one unary expression

  // The binary operator at pos_ and its level, or -1 when none is there.
  int peek_operator(std::string_view* op) {
    skip_space();
    for (int level = 0; level < kNumLevels; ++level)
      for (std::string_view candidate : kLevels[level])
        // "||" or "&&" are not operators here; "|" followed by "|" would be odd input anyway.
        if (!candidate.empty() && text_.substr(pos_, candidate.size()) == candidate) {
          *op = candidate;
          return level;
        }
    return -1;
  }

  // An expression of the operators of `min_level` and tighter (precedence climbing: one
  // frame per level actually used, not one per level that exists, so that parentheses cost
  // little stack). A run of one level's operators becomes one Binary node.
  ExprPtr parse_binary(int min_level) {
    ExprPtr lhs = parse_unary();
    std::string_view op;
    for (int level = peek_operator(&op); level >= min_level; level = peek_operator(&op)) {
      auto e = node(Expr::Kind::Binary);
      e->lhs = std::move(lhs);
      while (peek_operator(&op) == level) {
        const Loc at = here();
        pos_ += op.size();
        e->terms.push_back({std::string(op), parse_binary(level + 1), at});
      }
      e->loc = e->terms.front().loc;
      lhs = std::move(e);
    }
    return lhs;
  }

  ExprPtr parse_unary() {
    skip_space();
    const Loc at = here();
    std::string ops;
    for (;;) {
      skip_space();
      if (pos_ >= text_.size() ||
          std::string_view("-~+!").find(text_[pos_]) == std::string_view::npos)
        break;
      ops += text_[pos_++];
    }
    ExprPtr operand = parse_primary();
    if (ops.empty()) return operand;
    auto e = node(Expr::Kind::Unary);
    e->op = std::move(ops);
    e->lhs = std::move(operand);
    e->loc = at;
    return e;
  }

  // Entering parentheses or a %-operator's argument.
  void open_nesting(const Loc& at) {
    if (++depth_ > kMaxExpressionNesting)
      fail(at,
           fmt::format("expression nests parentheses more than {} deep", kMaxExpressionNesting));
  }

  ExprPtr parse_primary() {
    skip_space();
    const Loc at = here();
    if (pos_ >= text_.size()) fail(at, "expected an expression");
    const char c = text_[pos_];
    if (c == '(') {
      open_nesting(at);
      ++pos_;
      ExprPtr e = parse_binary(0);
      if (!eat(")")) fail(here(), "expected ')'");
      --depth_;
      return e;
    }
    if (c == '%') {
      ++pos_;
      size_t end = pos_;
      while (end < text_.size() && is_symbol_char(text_[end])) ++end;
      const std::string_view name = text_.substr(pos_, end - pos_);
      Expr::Kind kind;
      if (name == "hi")
        kind = Expr::Kind::Hi;
      else if (name == "lo")
        kind = Expr::Kind::Lo;
      else if (name == "pcrel_hi")
        kind = Expr::Kind::PcrelHi;
      else if (name == "pcrel_lo")
        kind = Expr::Kind::PcrelLo;
      else
        fail(at,
             fmt::format(
                 "unknown relocation operator '%{}' (expected %hi, %lo, %pcrel_hi or %pcrel_lo)",
                 name));
      // As in GNU as: "%hi(%lo(x))" means nothing, and "%pcrel_hi(%pcrel_lo(l))" on the
      // auipc that l marks would need its own value.
      if (!relocation_.empty())
        fail(at, fmt::format("%{} inside %{}(...): relocation operators do not nest", name,
                             relocation_));
      pos_ = end;
      if (!eat("(")) fail(here(), fmt::format("expected '(' after %{}", name));
      open_nesting(at);
      relocation_ = name;
      auto e = node(kind);
      e->lhs = parse_binary(0);
      e->loc = at;
      if (!eat(")")) fail(here(), "expected ')'");
      relocation_ = {};
      --depth_;
      if (kind == Expr::Kind::PcrelLo && e->lhs->kind != Expr::Kind::Symbol)
        fail(at, "%pcrel_lo needs the label of its auipc");
      return e;
    }
    if (c == '\'') {
      // Character constant: 'a', '\n', '\x41', '\101'.
      const size_t close = char_literal_end(text_, pos_);
      if (close == std::string_view::npos)
        fail(at, "unterminated character constant (expected 'c' or '\\n')");
      int64_t value = static_cast<unsigned char>(text_[pos_ + 1]);
      if (text_[pos_ + 1] == '\\') {
        size_t i = pos_ + 2;
        std::string why;
        const auto byte = decode_escape(text_, i, &why);
        if (!byte) fail(at, why);
        value = *byte;
      }
      auto e = node(Expr::Kind::Number);
      e->number = value;
      e->loc = at;
      pos_ = close + 1;
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_number(at);
    if (is_symbol_start(c)) {
      size_t end = pos_;
      while (end < text_.size() && is_symbol_char(text_[end])) ++end;
      std::string name(text_.substr(pos_, end - pos_));
      pos_ = end;
      if (name == ".") {
        auto e = node(Expr::Kind::Dot);
        e->number = ctx_.dot.value;
        e->chunk = ctx_.dot.chunk;
        e->loc = at;
        return e;
      }
      auto e = node(Expr::Kind::Symbol);
      e->name = std::move(name);
      e->loc = at;
      return e;
    }
    fail(at, fmt::format("unexpected '{}' in expression", c));
  }

  ExprPtr parse_number(const Loc& at) {
    size_t end = pos_;
    while (end < text_.size() && std::isalnum(static_cast<unsigned char>(text_[end]))) ++end;
    const std::string_view tok = text_.substr(pos_, end - pos_);
    // Numeric local label reference: digits followed by 'f' or 'b'.
    if (tok.size() >= 2 && (tok.back() == 'f' || tok.back() == 'b') &&
        tok.find_first_not_of("0123456789") == tok.size() - 1) {
      if (!ctx_.local_label) fail(at, "local label references are not allowed here");
      auto e = node(Expr::Kind::Symbol);
      e->name = ctx_.local_label(std::string(tok), at);
      e->loc = at;
      pos_ = end;
      return e;
    }
    int base = 10;
    std::string_view digits = tok;
    if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
      base = 16, digits = tok.substr(2);
    else if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B'))
      base = 2, digits = tok.substr(2);
    else if (tok.size() > 1 && tok[0] == '0')
      base = 8, digits = tok.substr(1);
    uint64_t v = 0;
    for (char d : digits) {
      const int dv = std::isdigit(static_cast<unsigned char>(d)) ? d - '0'
                     : std::isxdigit(static_cast<unsigned char>(d))
                         ? std::tolower(static_cast<unsigned char>(d)) - 'a' + 10
                         : 99;
      if (dv >= base) fail(at, fmt::format("invalid number '{}'", tok));
      if (v > (UINT64_MAX - dv) / base) fail(at, fmt::format("number '{}' is too large", tok));
      v = v * base + dv;
    }
    if (v > static_cast<uint64_t>(INT64_MAX))
      fail(at, fmt::format("number '{}' is too large", tok));
    auto e = node(Expr::Kind::Number);
    e->number = static_cast<int64_t>(v);
    e->loc = at;
    pos_ = end;
    return e;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;                // parentheses and %-operators open at pos_
  std::string_view relocation_;  // the %-operator whose argument is being parsed
  Loc loc_;
  const ExprContext& ctx_;
};

int64_t absolute(const Value& v, const Resolver& r, const Loc& loc) {
  (void)loc;
  if (v.chunk < 0) return v.value;
  if (!r.address_of) throw NotYet{};
  return r.address_of(v);
}

}  // namespace

ExprPtr parse_expression(std::string_view text, const Loc& loc, const ExprContext& context) {
  return Parser(text, loc, context).parse();
}

bool is_plain_number(const Expr& e) {
  if (e.kind == Expr::Kind::Number) return true;
  return e.kind == Expr::Kind::Unary && e.op.find_first_not_of("+-") == std::string::npos &&
         e.lhs->kind == Expr::Kind::Number;
}

int64_t hi20(int64_t value) {
  return ((value + 0x800) >> 12) & 0xfffff;
}
int64_t lo12(int64_t value) {
  const int64_t low = value & 0xfff;
  return low >= 0x800 ? low - 0x1000 : low;
}

namespace {

// Constant arithmetic is on signed 64-bit numbers; a result that does not fit is an error
// (GNU as wraps it silently modulo 2^64).
[[noreturn]] void overflow(const Loc& loc, int64_t x, std::string_view op, int64_t y) {
  fail(loc, fmt::format("overflow in expression: {} {} {} does not fit in 64 bits", x, op, y));
}

Value binary(const Value& a, const std::string& op, const Value& b, const Loc& loc,
             const Resolver& r) {
  // Offsets in a chunk stay relocatable under + and - of numbers and - of the same chunk.
  const bool relocatable = (op == "+" && (a.chunk < 0 || b.chunk < 0)) ||
                           (op == "-" && (a.chunk == b.chunk || b.chunk < 0));
  const int64_t x = relocatable ? a.value : absolute(a, r, loc);
  const int64_t y = relocatable ? b.value : absolute(b, r, loc);
  int64_t out = 0;
  if (op == "+" || op == "-") {
    if (op == "+" ? __builtin_add_overflow(x, y, &out) : __builtin_sub_overflow(x, y, &out))
      overflow(loc, x, op, y);
    if (!relocatable) return {out, -1};
    if (op == "-" && a.chunk == b.chunk) return {out, -1};
    return {out, a.chunk >= 0 ? a.chunk : b.chunk};
  }
  if (op == "*") {
    if (__builtin_mul_overflow(x, y, &out)) overflow(loc, x, op, y);
    return {out, -1};
  }
  if (op == "/" || op == "%") {
    if (y == 0) fail(loc, "division by zero in expression");
    if (x == INT64_MIN && y == -1) overflow(loc, x, op, y);
    return {op == "/" ? x / y : x % y, -1};
  }
  if (op == "<<" || op == ">>") {
    if (y < 0 || y > 63) fail(loc, fmt::format("shift amount {} out of range [0, 63]", y));
    if (op == ">>") return {x >> y, -1};
    // x * 2^y: the bits shifted out must all equal the sign bit of the result.
    out = static_cast<int64_t>(static_cast<uint64_t>(x) << y);
    if ((out >> y) != x) overflow(loc, x, op, y);
    return {out, -1};
  }
  if (op == "&") return {x & y, -1};
  if (op == "|") return {x | y, -1};
  return {x ^ y, -1};
}

// The 32-bit value that %hi, %lo and %pcrel_hi split: a signed or unsigned 32-bit number.
int64_t split_operand(int64_t value, std::string_view what, const Loc& loc) {
  if (value < INT32_MIN || value > UINT32_MAX)
    fail(loc, fmt::format("value {:#x} of {} does not fit in 32 bits", value, what));
  return value;
}

}  // namespace

Value evaluate(const Expr& e, const Resolver& r) {
  switch (e.kind) {
    case Expr::Kind::Number: return {e.number, -1};
    case Expr::Kind::Dot: return {e.number, e.chunk};
    case Expr::Kind::Symbol: return r.symbol(e.name, e.loc);
    case Expr::Kind::Unary: {
      int64_t v = absolute(evaluate(*e.lhs, r), r, e.loc);
      for (auto op = e.op.rbegin(); op != e.op.rend(); ++op) {
        if (*op == '-') {
          if (v == INT64_MIN)
            fail(e.loc, fmt::format("overflow in expression: -({}) does not fit in 64 bits", v));
          v = -v;
        } else if (*op == '~') {
          v = ~v;
        } else if (*op == '!') {
          v = v == 0;
        }
      }
      return {v, -1};
    }
    case Expr::Kind::Binary: {
      Value acc = evaluate(*e.lhs, r);
      for (const Expr::Term& t : e.terms)
        acc = binary(acc, t.op, evaluate(*t.operand, r), t.loc, r);
      return acc;
    }
    case Expr::Kind::Hi:
      return {hi20(split_operand(absolute(evaluate(*e.lhs, r), r, e.loc), "%hi", e.loc)), -1};
    case Expr::Kind::Lo:
      return {lo12(split_operand(absolute(evaluate(*e.lhs, r), r, e.loc), "%lo", e.loc)), -1};
    case Expr::Kind::PcrelHi: {
      const Value target = evaluate(*e.lhs, r);
      if (!r.address_of) throw NotYet{};
      return {hi20(split_operand(absolute(target, r, e.loc), "%pcrel_hi", e.loc) - r.pc), -1};
    }
    case Expr::Kind::PcrelLo:
      if (!r.pcrel_lo) throw NotYet{};
      return {r.pcrel_lo(e.lhs->name, e.loc), -1};
  }
  return {};
}

std::optional<int64_t> try_constant(const Expr& e, const Resolver& r) {
  try {
    const Value v = evaluate(e, r);
    if (v.chunk >= 0) return std::nullopt;
    return v.value;
  } catch (const NotYet&) {
    return std::nullopt;
  }
}

std::vector<Token> split_operands(std::string_view text, int first_column) {
  std::vector<Token> out;
  int depth = 0;
  bool in_string = false;
  size_t start = 0;
  const auto push = [&](size_t end) {
    size_t b = start, e = end;
    while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
    out.push_back({std::string(text.substr(b, e - b)), first_column + static_cast<int>(b)});
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '\'') {
      // A character constant may hold ',', '(' or ')'.
      if (const size_t close = char_literal_end(text, i); close != std::string_view::npos)
        i = close;
    } else if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      push(i);
      start = i + 1;
    }
  }
  if (start < text.size() || !out.empty()) push(text.size());
  // "a," leaves an empty last operand; a fully blank operand list gives none.
  if (out.size() == 1 && out[0].text.empty()) out.clear();
  return out;
}

}  // namespace ventus::assembler::detail
