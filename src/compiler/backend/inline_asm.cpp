#include "inline_asm.h"

#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>

#include <charconv>

#include "mir.h"
#include "ventus/isa.h"

namespace ventus::cc::backend {

namespace {

std::string joined(const std::vector<std::string>& codes) {
  std::string out;
  for (const std::string& c : codes) out += c;
  return out;
}

// "{t0}" / "{v5}" / "{x7}": the register, as mir.h numbers it.
std::optional<uint32_t> braced_register(std::string_view code) {
  if (code.size() < 3 || code.front() != '{' || code.back() != '}') return std::nullopt;
  code = code.substr(1, code.size() - 2);
  if (auto x = isa::parse_xreg(code)) return xreg(*x);
  if (auto v = isa::parse_vreg(code)) return vreg_phys(*v);
  return std::nullopt;
}

}  // namespace

AsmConstraints parse_asm_constraints(const llvm::InlineAsm& asm_value) {
  AsmConstraints result;
  const auto fail = [&](const std::string& text, const std::string& why) {
    result.error = fmt::format("the inline assembly's constraint '{}' {}", text, why);
    return result;
  };
  for (const llvm::InlineAsm::ConstraintInfo& info : asm_value.ParseConstraints()) {
    AsmConstraint c;
    const std::string code = joined(info.Codes);
    c.text = code;
    c.early_clobber = info.isEarlyClobber;
    if (info.isMultipleAlternative) return fail(code, "has alternatives (not supported)");
    if (info.isIndirect)
      return fail(code, "is a memory operand (not supported: pass the address in \"r\" or \"vr\")");
    if (info.Type == llvm::InlineAsm::isClobber) {
      c.role = AsmConstraint::Role::Clobber;
      if (code == "{memory}" || code == "{cc}") {
        c.cls = AsmConstraint::Class::Memory;
      } else if (auto reg = braced_register(code)) {
        c.cls = AsmConstraint::Class::Physical;
        c.physical = *reg;
      } else {
        return fail("~" + code, "names no Ventus register");
      }
      result.list.push_back(std::move(c));
      continue;
    }
    c.role = info.Type == llvm::InlineAsm::isOutput ? AsmConstraint::Role::Output
                                                    : AsmConstraint::Role::Input;
    if (c.role == AsmConstraint::Role::Input && !code.empty() &&
        code.find_first_not_of("0123456789") == std::string::npos) {
      int tied = 0;
      std::from_chars(code.data(), code.data() + code.size(), tied);
      if (static_cast<size_t>(tied) >= result.list.size() ||
          result.list[tied].role != AsmConstraint::Role::Output)
        return fail(code, "ties the input to no output");
      c.tied_to = tied;
      c.cls = result.list[tied].cls;
    } else if (code == "r") {
      c.cls = AsmConstraint::Class::Scalar;
    } else if (code == "vr") {
      c.cls = AsmConstraint::Class::Vector;
    } else if ((code == "i" || code == "n") && c.role == AsmConstraint::Role::Input) {
      c.cls = AsmConstraint::Class::Immediate;
    } else {
      return fail(code,
                  "is not supported (supported: \"r\", \"vr\", \"i\", \"n\", \"=\", \"+\", "
                  "\"&\", a matching digit, and clobbers of registers and \"memory\")");
    }
    result.list.push_back(std::move(c));
  }
  return result;
}

bool asm_is_scalar(const llvm::InlineAsm& asm_value) {
  const AsmConstraints constraints = parse_asm_constraints(asm_value);
  if (!constraints.error.empty()) return false;
  for (const AsmConstraint& c : constraints.list)
    if (c.role != AsmConstraint::Role::Clobber && c.cls == AsmConstraint::Class::Vector)
      return false;
  return true;
}

std::optional<std::string> substitute_asm_operands(
    std::string_view asm_template, size_t operands,
    const std::function<std::string(size_t)>& operand, std::string_view unique,
    std::string* error) {
  std::string out;
  for (size_t i = 0; i < asm_template.size(); ++i) {
    const char c = asm_template[i];
    if (c != '$') {
      out += c;
      continue;
    }
    if (i + 1 < asm_template.size() && asm_template[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    std::string_view rest = asm_template.substr(i + 1);
    if (rest.starts_with("{:uid}")) {  // GCC's %=
      out += unique;
      i += 6;
      continue;
    }
    const bool braced = !rest.empty() && rest.front() == '{';
    if (braced) rest.remove_prefix(1);
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    size_t index = 0;
    std::from_chars(rest.data(), rest.data() + digits, index);
    // ${N:c} (GCC's %cN, a constant without punctuation) prints what $N prints here.
    const bool plain_constant = braced && rest.substr(digits).starts_with(":c}");
    if (digits == 0 ||
        (braced && !plain_constant && (digits >= rest.size() || rest[digits] != '}'))) {
      *error = braced && digits < rest.size() && rest[digits] == ':'
                   ? "an operand modifier other than %c (%z, %a, ...) is not supported"
                   : "a '%' that names no operand (write %% for a literal %)";
      return std::nullopt;
    }
    if (index >= operands) {
      *error = fmt::format("%{} names no operand (the statement has {})", index, operands);
      return std::nullopt;
    }
    out += operand(index);
    i += digits + (braced ? 2 : 0) + (plain_constant ? 2 : 0);
  }
  return out;
}

namespace {
constexpr std::string_view kBegin = "\t# inline assembly at ";
constexpr std::string_view kEnd = "\t# end of inline assembly";
}  // namespace

std::string asm_begin_marker(const std::string& location, const std::string& function) {
  // location ends in ": "; the marker keeps it whole so that the diagnostic can reuse it.
  return fmt::format("{}{}in {}", kBegin, location, function);
}

std::string_view asm_end_marker() {
  return kEnd;
}

std::optional<std::string> inline_asm_diagnostic(const std::string& assembly,
                                                 const std::string& assembler_error) {
  // "NAME:LINE:COL: error: MESSAGE" of the first error.
  const std::string first = assembler_error.substr(0, assembler_error.find('\n'));
  const size_t error_at = first.find(": error: ");
  if (error_at == std::string::npos) return std::nullopt;
  const std::string position = first.substr(0, error_at);
  const size_t col_colon = position.rfind(':');
  if (col_colon == std::string::npos || col_colon == 0) return std::nullopt;
  const size_t line_colon = position.rfind(':', col_colon - 1);
  if (line_colon == std::string::npos) return std::nullopt;
  size_t line = 0;
  const char* begin = position.data() + line_colon + 1;
  if (std::from_chars(begin, position.data() + col_colon, line).ec != std::errc{} || line == 0)
    return std::nullopt;
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < assembly.size();) {
    size_t end = assembly.find('\n', start);
    if (end == std::string::npos) end = assembly.size();
    lines.emplace_back(assembly.data() + start, end - start);
    start = end + 1;
  }
  if (line > lines.size()) return std::nullopt;
  for (size_t i = line - 1; i-- > 0;) {
    if (lines[i] == kEnd) return std::nullopt;
    if (!lines[i].starts_with(kBegin)) continue;
    // "FILE:LINE:COL: in kernel 'k'"
    const std::string_view origin = lines[i].substr(kBegin.size());
    const size_t in = origin.rfind("in ");
    std::string text;
    for (size_t k = i + 1; k < lines.size() && lines[k] != kEnd; ++k) {
      std::string_view l = lines[k];
      while (!l.empty() && (l.front() == '\t' || l.front() == ' ')) l.remove_prefix(1);
      text += (text.empty() ? "" : "; ") + std::string(l);
    }
    return fmt::format(
        "{}error: the inline assembly in {} does not assemble: {} (the statement with its "
        "operands: \"{}\")\n",
        origin.substr(0, in), origin.substr(in + 3), first.substr(error_at + 9), text);
  }
  return std::nullopt;
}

}  // namespace ventus::cc::backend
