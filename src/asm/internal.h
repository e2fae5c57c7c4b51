// Pieces shared by the assembler's source files: locations, errors, expressions,
// operand tokens and the pseudo-instruction table.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ventus::assembler::detail {

struct Loc {
  int file = 0;
  int line = 0;
  int column = 0;
};

// One error at a source location; collected by the driver, never escapes the library.
struct AsmError {
  Loc loc;
  std::string message;
};
[[noreturn]] void fail(const Loc& loc, std::string message);
// Thrown while evaluating before layout when a value is not known yet (a forward reference
// or an address); the caller decides whether that is an error.
struct NotYet {};

// A value during assembly: an offset into a chunk (one file's part of one section) before
// layout, or an absolute number (chunk = -1).
struct Value {
  int64_t value = 0;
  int chunk = -1;
};

// How deep parentheses and %hi(...)-style operators may nest in one expression, and how
// deep symbol definitions (.equ/.set referring forward to other such symbols) may chain
// before their value is known. Each level costs the recursive parser or evaluator a few
// hundred bytes to a few KiB of stack (more under AddressSanitizer): the limits keep both
// well within the smallest stacks the assembler may run on (a 512 KiB thread).
// docs/assembler.md ("Limits").
constexpr int kMaxExpressionNesting = 100;
constexpr int kMaxSymbolChain = 256;

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;
// Chains of one precedence level ("a + b - c + ...") and of unary operators ("- ~ - x") are
// one node each, whatever their length, so that only parentheses make a tree deep.
struct Expr {
  enum class Kind { Number, Symbol, Dot, Unary, Binary, Hi, Lo, PcrelHi, PcrelLo };
  Kind kind = Kind::Number;
  int64_t number = 0;  // Number; Dot: offset in its chunk
  int chunk = -1;      // Dot: the chunk
  std::string name;    // Symbol
  std::string op;      // Unary: the operators, outermost first ("-~" is -(~x))
  ExprPtr lhs;         // the operand of Unary and the % operators; Binary: the first operand
  // Binary: the operators and the operands after the first, applied left to right.
  struct Term {
    std::string op;
    ExprPtr operand;
    Loc loc;  // of the operator
  };
  std::vector<Term> terms;
  Loc loc;
};

// Parses an expression. `dot` is the current location; `local_label` renames numeric local
// label references ("1f", "1b") to the names their definitions received. Parentheses nested
// deeper than kMaxExpressionNesting are an error.
struct ExprContext {
  Value dot;
  std::function<std::string(const std::string& ref, const Loc& loc)> local_label;
};
ExprPtr parse_expression(std::string_view text, const Loc& loc, const ExprContext& context);
// Whether the expression is a bare number (a branch offset rather than a target).
bool is_plain_number(const Expr& e);

// Evaluation: symbols and %pcrel_lo targets come from the resolver. When `linked` is set
// chunk-relative values may be turned into addresses by `address_of`.
struct Resolver {
  std::function<Value(const std::string& name, const Loc& loc)> symbol;
  std::function<int64_t(const Value& v)> address_of;                          // null before layout
  std::function<int64_t(const std::string& label, const Loc& loc)> pcrel_lo;  // low 12 bits
  int64_t pc = 0;  // address of the instruction (for %pcrel_hi), after layout
};
// Throws AsmError when the value cannot be known yet (before layout) or is undefined.
Value evaluate(const Expr& e, const Resolver& r);
// Whether a value is known before layout (no chunk-relative parts that need addresses).
std::optional<int64_t> try_constant(const Expr& e, const Resolver& r);

int64_t hi20(int64_t value);
int64_t lo12(int64_t value);

// Escape sequences of strings and character constants: text[i] is the character after the
// backslash; on return i is the last character of the escape. \n \t \r \b \f \v \a \\ \" \'
// \0..\377 (up to three octal digits) and \xNN (hex digits, value modulo 256). Returns
// nullopt with *why set for an unknown or empty escape.
std::optional<uint8_t> decode_escape(std::string_view text, size_t& i, std::string* why);
// The index of the quote closing a character constant that opens at text[open] ('a', '\n'),
// or npos when none closes it.
size_t char_literal_end(std::string_view text, size_t open);

// An operand as written: its text and the column where it starts.
struct Token {
  std::string text;
  int column = 0;
};
// Splits "a, b(c), d" at top-level commas.
std::vector<Token> split_operands(std::string_view text, int first_column);

// Pseudo-instructions: expansion into real instructions given as text, each with its
// operands; `unique_label` makes a fresh label name for auipc pairs.
struct Expanded {
  std::string mnemonic;
  std::vector<Token> operands;
  std::string label;  // a label to define at this instruction ("" = none)
};
struct PseudoHooks {
  std::function<std::string()> unique_label;
  // The constant value of an operand (li); fails with an AsmError when it is none.
  std::function<int64_t(const Token& operand)> constant;
};
// Returns nullopt when `mnemonic` with this many operands is no pseudo-instruction.
std::optional<std::vector<Expanded>> expand_pseudo(const std::string& mnemonic,
                                                   const std::vector<Token>& operands,
                                                   const Loc& loc, const PseudoHooks& hooks);
bool is_pseudo(std::string_view mnemonic);

}  // namespace ventus::assembler::detail
