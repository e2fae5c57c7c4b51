#include "spec.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "ventus/error.h"

namespace ventus::clspec {

namespace {

[[noreturn]] void fail(const std::string& file, int line, const std::string& why) {
  throw Error(file + ":" + std::to_string(line) + ": " + why);
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    out.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::vector<std::string> tokens(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  std::string token;
  while (in >> token) out.push_back(token);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// A number: decimal or 0x integer, a decimal/exponent float, nan, inf, -inf.
std::optional<double> parse_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string text(s);
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "nan" || lower == "+nan") return std::numeric_limits<double>::quiet_NaN();
  if (lower == "-nan") return -std::numeric_limits<double>::quiet_NaN();
  if (lower == "inf" || lower == "+inf") return std::numeric_limits<double>::infinity();
  if (lower == "-inf") return -std::numeric_limits<double>::infinity();
  const bool negative = text[0] == '-';
  const std::string_view body = std::string_view(text).substr(negative || text[0] == '+' ? 1 : 0);
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(body.data() + 2, body.data() + body.size(), value, 16);
    if (ec != std::errc() || end != body.data() + body.size()) return std::nullopt;
    return negative ? -static_cast<double>(value) : static_cast<double>(value);
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

std::optional<uint32_t> parse_u32(std::string_view s) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<Dims> parse_dims(std::string_view s) {
  const std::vector<std::string> parts = split(s, ',');
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  Dims dims;
  dims.dims = static_cast<uint32_t>(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::optional<uint32_t> v = parse_u32(parts[i]);
    if (!v) return std::nullopt;
    dims.size[i] = *v;
  }
  return dims;
}

// The range of values a scalar type holds exactly (for checking literal values).
bool fits(Scalar scalar, double v) {
  if (scalar == Scalar::f32) return true;
  if (std::isnan(v) || std::isinf(v) || v != std::floor(v)) return false;
  switch (scalar) {
    case Scalar::i8: return v >= -128 && v <= 127;
    case Scalar::u8: return v >= 0 && v <= 255;
    case Scalar::i16: return v >= -32768 && v <= 32767;
    case Scalar::u16: return v >= 0 && v <= 65535;
    case Scalar::i32: return v >= -2147483648.0 && v <= 2147483647.0;
    case Scalar::u32: return v >= 0 && v <= 4294967295.0;
    case Scalar::f32: return true;
    case Scalar::i64: return v >= -0x1p63 && v < 0x1p63;
    case Scalar::u64: return v >= 0 && v < 0x1p64;
  }
  return false;
}

// Stores `value` as `scalar` at `out`; integers wrap modulo 2^bits (iota over many bytes).
void store(Scalar scalar, double value, uint8_t* out) {
  if (scalar == Scalar::f32) {
    const float f = static_cast<float>(value);
    std::memcpy(out, &f, 4);
    return;
  }
  // Values are integral here; u64 values of 2^63 and more do not fit int64_t.
  const uint64_t wide = value >= 0x1p63 ? static_cast<uint64_t>(value)
                                        : static_cast<uint64_t>(static_cast<int64_t>(value));
  const uint32_t bits = static_cast<uint32_t>(wide);
  switch (scalar) {
    case Scalar::i8:
    case Scalar::u8: out[0] = static_cast<uint8_t>(bits); break;
    case Scalar::i16:
    case Scalar::u16: {
      const uint16_t h = static_cast<uint16_t>(bits);
      std::memcpy(out, &h, 2);
      break;
    }
    case Scalar::i64:
    case Scalar::u64: std::memcpy(out, &wide, 8); break;
    default: std::memcpy(out, &bits, 4); break;
  }
}

// splitmix64: fixed pseudo-random inputs, the same on every host.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

uint64_t name_seed(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return h;
}

struct Parser {
  std::string file;
  Spec spec;
  bool in_group = false;

  ElementType type_of(int line, std::string_view text) {
    const std::optional<ElementType> type = parse_type(text);
    if (!type) fail(file, line, "unknown type '" + std::string(text) + "'");
    return *type;
  }

  double number(int line, std::string_view text, Scalar scalar, const char* what) {
    const std::optional<double> v = parse_number(text);
    if (!v) fail(file, line, std::string(what) + ": '" + std::string(text) + "' is not a number");
    if (!fits(scalar, *v))
      fail(file, line,
           std::string(what) + ": " + std::string(text) + " does not fit " +
               ElementType{scalar, 1}.name());
    return *v;
  }

  void buffer(int line, const std::vector<std::string>& t) {
    if (t.size() < 3) fail(file, line, "@buffer NAME TYPE[COUNT] INIT ...");
    BufferSpec b;
    b.line = line;
    b.name = t[0];
    if (!is_identifier(b.name)) fail(file, line, "bad buffer name '" + b.name + "'");
    if (spec.find_buffer(b.name)) fail(file, line, "buffer '" + b.name + "' defined twice");
    const size_t open = t[1].find('[');
    if (open == std::string::npos || t[1].back() != ']')
      fail(file, line, "expected TYPE[COUNT], got '" + t[1] + "'");
    b.type = type_of(line, std::string_view(t[1]).substr(0, open));
    const std::optional<uint32_t> count =
        parse_u32(std::string_view(t[1]).substr(open + 1, t[1].size() - open - 2));
    if (!count || *count == 0) fail(file, line, "bad element count in '" + t[1] + "'");
    b.count = *count;
    const Scalar s = b.type.scalar;
    const std::string& kind = t[2];
    const size_t extra = t.size() - 3;
    Init& init = b.init;
    init.seed = name_seed(b.name);
    if (kind == "zeros") {
      init.kind = Init::Kind::zeros;
      if (extra) fail(file, line, "zeros takes no values");
    } else if (kind == "iota") {
      init.kind = Init::Kind::iota;
      if (extra > 2) fail(file, line, "iota [FIRST [STEP]]");
      if (extra >= 1) init.first = number(line, t[3], Scalar::f32, "iota first");
      if (extra >= 2) init.step = number(line, t[4], Scalar::f32, "iota step");
    } else if (kind == "random") {
      init.kind = Init::Kind::random;
      std::vector<std::string> rest(t.begin() + 3, t.end());
      if (!rest.empty() && rest.back().rfind("seed=", 0) == 0) {
        const std::string seed = rest.back().substr(5);
        uint64_t v = 0;
        const auto [end, ec] = std::from_chars(seed.data(), seed.data() + seed.size(), v);
        if (ec != std::errc() || end != seed.data() + seed.size())
          fail(file, line, "bad seed '" + seed + "'");
        init.seed = v;
        rest.pop_back();
      }
      if (rest.size() != 2) fail(file, line, "random LOW HIGH [seed=N]");
      init.low = number(line, rest[0], s, "random low");
      init.high = number(line, rest[1], s, "random high");
      if (!(init.low <= init.high) || std::isinf(init.high - init.low))
        fail(file, line, "random: need finite LOW <= HIGH");
    } else if (kind == "const") {
      init.kind = Init::Kind::constant;
      if (extra != 1) fail(file, line, "const VALUE");
      init.values.push_back(number(line, t[3], s, "const"));
    } else if (kind == "values") {
      init.kind = Init::Kind::values;
      if (!extra) fail(file, line, "values V1 V2 ...");
      for (size_t i = 3; i < t.size(); ++i) init.values.push_back(number(line, t[i], s, "value"));
    } else {
      fail(file, line, "unknown initialisation '" + kind + "' (zeros iota random const values)");
    }
    spec.buffers.push_back(std::move(b));
  }

  Dims dims(int line, std::string_view key, std::string_view text) {
    const std::optional<Dims> d = parse_dims(text);
    if (!d) fail(file, line, "bad " + std::string(key) + " '" + std::string(text) + "'");
    return *d;
  }

  ArgSpec argument(int line, const std::string& token) {
    ArgSpec a;
    const size_t colon = token.find(':');
    if (colon == std::string::npos) {
      const std::optional<size_t> b = spec.find_buffer(token);
      if (!b) fail(file, line, "unknown buffer '" + token + "' (define it with @buffer first)");
      a.kind = ArgSpec::Kind::buffer;
      a.buffer = *b;
      return a;
    }
    const std::string head = token.substr(0, colon), value = token.substr(colon + 1);
    if (head == "local") {
      const std::optional<uint32_t> bytes = parse_u32(value);
      if (!bytes || *bytes == 0) fail(file, line, "local:BYTES, got '" + token + "'");
      a.kind = ArgSpec::Kind::local;
      a.local_bytes = *bytes;
      return a;
    }
    a.kind = ArgSpec::Kind::scalar;
    a.type = type_of(line, head);
    if (a.type.scalar != Scalar::i32 && a.type.scalar != Scalar::u32 &&
        a.type.scalar != Scalar::f32 && a.type.scalar != Scalar::i64 &&
        a.type.scalar != Scalar::u64)
      fail(file, line,
           "by-value arguments are int, uint, long, ulong, float or their vectors: '" + head +
               "'");
    const std::vector<std::string> parts = split(value, ',');
    if (parts.size() == 1 && parts[0] == "$i") {
      if (a.type.width != 1 || a.type.is_float())
        fail(file, line, "$i (the repetition) is an int or uint argument");
      a.iteration = true;
      a.values.push_back(0);
      return a;
    }
    if (parts.size() != a.type.width && parts.size() != 1)
      fail(file, line, "'" + token + "': " + std::to_string(a.type.width) + " values expected");
    for (const std::string& p : parts)
      a.values.push_back(number(line, p, a.type.scalar, head.c_str()));
    if (a.values.size() == 1) a.values.resize(a.type.width, a.values[0]);  // broadcast
    return a;
  }

  void run(int line, const std::vector<std::string>& t) {
    if (t.empty() || !is_identifier(t[0])) fail(file, line, "@run KERNEL ARGS...");
    RunSpec r;
    r.line = line;
    r.kernel = t[0];
    for (size_t i = 1; i < t.size(); ++i) {
      const std::string& token = t[i];
      const size_t eq = token.find('=');
      if (eq != std::string::npos) {
        const std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (key == "global")
          r.global = dims(line, key, value);
        else if (key == "local")
          r.local = dims(line, key, value);
        else if (key == "offset")
          r.offset = dims(line, key, value);
        else if (key == "repeat") {
          const std::optional<uint32_t> n = parse_u32(value);
          if (!n || *n == 0) fail(file, line, "bad repeat '" + value + "'");
          r.repeat = *n;
        } else {
          fail(file, line, "unknown run option '" + key + "' (global local offset repeat)");
        }
        continue;
      }
      r.args.push_back(argument(line, token));
    }
    if (in_group) {
      if (r.repeat != 1) fail(file, line, "repeat= inside @repeat ... @end");
      r.group = static_cast<int>(spec.groups.size()) - 1;
    }
    spec.runs.push_back(std::move(r));
  }

  void repeat(int line, const std::vector<std::string>& t) {
    if (in_group) fail(file, line, "@repeat inside @repeat (close the first with @end)");
    const std::optional<uint32_t> n = t.size() == 1 ? parse_u32(t[0]) : std::nullopt;
    if (!n || *n == 0) fail(file, line, "@repeat N");
    spec.groups.push_back({*n, line});
    in_group = true;
  }

  void end(int line, const std::vector<std::string>& t) {
    if (!in_group || !t.empty()) fail(file, line, "@end without @repeat");
    in_group = false;
    if (spec.runs.empty() || spec.runs.back().group != static_cast<int>(spec.groups.size()) - 1)
      fail(file, line, "@repeat ... @end holds no @run");
  }

  void range(int line, const std::vector<std::string>& t) {
    RangeSpec r;
    r.line = line;
    bool global = false, local = false;
    for (const std::string& token : t) {
      const size_t eq = token.find('=');
      const std::string key = token.substr(0, eq == std::string::npos ? token.size() : eq);
      const std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
      if (key == "global")
        r.global = dims(line, key, value), global = true;
      else if (key == "local")
        r.local = dims(line, key, value), local = true;
      else if (key == "offset")
        r.offset = dims(line, key, value);
      else
        fail(file, line, "@range global=X[,Y[,Z]] local=... [offset=...], got '" + token + "'");
    }
    if (!global || !local) fail(file, line, "@range needs global= and local=");
    spec.ranges.push_back(r);
  }

  void check(int line, const std::vector<std::string>& t) {
    if (t.size() < 2) fail(file, line, "@check BUFFER exact | [ulp N] [abs E] [rel R]");
    CheckSpec c;
    c.line = line;
    const std::optional<size_t> b = spec.find_buffer(t[0]);
    if (!b) fail(file, line, "unknown buffer '" + t[0] + "'");
    c.buffer = *b;
    const bool is_float = spec.buffers[*b].type.is_float();
    if (t[1] == "exact") {
      if (t.size() != 2) fail(file, line, "exact takes nothing more");
    } else {
      c.exact = false;
      if (!is_float) fail(file, line, "'" + t[0] + "' holds integers: check it exact");
      if (t.size() % 2 != 1) fail(file, line, "bounds come in pairs: ulp N, abs E, rel R");
      for (size_t i = 1; i + 1 < t.size(); i += 2) {
        const std::optional<double> v = parse_number(t[i + 1]);
        if (!v || !(*v >= 0)) fail(file, line, "bad bound '" + t[i + 1] + "'");
        if (t[i] == "ulp")
          c.ulp = *v;
        else if (t[i] == "abs")
          c.abs = *v;
        else if (t[i] == "rel")
          c.rel = *v;
        else
          fail(file, line, "unknown bound '" + t[i] + "' (exact, ulp, abs, rel)");
      }
    }
    for (const CheckSpec& other : spec.checks)
      if (other.buffer == c.buffer) fail(file, line, "'" + t[0] + "' is checked twice");
    spec.checks.push_back(c);
  }

  static void check_range(const std::string& file, int line, const Dims& global, const Dims& local,
                          const std::optional<Dims>& offset) {
    if (global.dims != local.dims)
      fail(file, line,
           "global " + global.text() + " and local " + local.text() + " differ in dimensions");
    if (offset && offset->dims != global.dims)
      fail(file, line,
           "offset " + offset->text() + " and global " + global.text() + " differ in dimensions");
    for (uint32_t d = 0; d < global.dims; ++d) {
      if (local.size[d] == 0 || global.size[d] == 0)
        fail(file, line,
             "sizes must be positive: global " + global.text() + " local " + local.text());
      if (global.size[d] % local.size[d])
        fail(file, line, "global " + global.text() + " is not a multiple of local " + local.text());
    }
  }

  void validate() {
    if (in_group) fail(file, spec.groups.back().line, "@repeat without @end");
    if (spec.runs.empty()) fail(file, 1, "no @run directive");
    if (spec.checks.empty()) fail(file, 1, "no @check directive");
    for (const RunSpec& r : spec.runs) {
      const bool own = r.global.has_value() || r.local.has_value();
      if (own && !(r.global && r.local))
        fail(file, r.line, "a run gives both global= and local= or neither");
      if (own) {
        check_range(file, r.line, *r.global, *r.local, r.offset);
      } else if (spec.ranges.empty()) {
        fail(file, r.line, "no global/local size: add global= local= or a @range line");
      }
      for (const ArgSpec& a : r.args)
        if (a.iteration && r.repeat == 1 && r.group < 0)
          fail(file, r.line, "$i without repeat=N is always 0");
    }
    for (const RangeSpec& r : spec.ranges) {
      check_range(file, r.line, r.global, r.local, r.offset);
      for (const RunSpec& run : spec.runs)
        if (!run.global && run.offset && run.offset->dims != r.global.dims)
          fail(file, run.line, "offset and @range global differ in dimensions");
    }
  }
};

std::string format_double(double v) {
  std::ostringstream out;
  out.precision(9);
  out << v;
  return out.str();
}

}  // namespace

uint32_t ElementType::scalar_bytes() const {
  switch (scalar) {
    case Scalar::i8:
    case Scalar::u8: return 1;
    case Scalar::i16:
    case Scalar::u16: return 2;
    case Scalar::i64:
    case Scalar::u64: return 8;
    default: return 4;
  }
}

bool ElementType::is_signed() const {
  return scalar == Scalar::i8 || scalar == Scalar::i16 || scalar == Scalar::i32 ||
         scalar == Scalar::f32 || scalar == Scalar::i64;
}

std::string ElementType::name() const {
  static const char* const names[] = {"char", "uchar", "short", "ushort", "int",
                                      "uint", "float", "long",  "ulong"};
  std::string n = names[static_cast<int>(scalar)];
  if (width > 1) n += std::to_string(width);
  return n;
}

std::optional<ElementType> parse_type(std::string_view text) {
  static const std::pair<const char*, Scalar> names[] = {
      {"i8", Scalar::i8},    {"u8", Scalar::u8},     {"i16", Scalar::i16},    {"u16", Scalar::u16},
      {"i32", Scalar::i32},  {"u32", Scalar::u32},   {"f32", Scalar::f32},    {"char", Scalar::i8},
      {"uchar", Scalar::u8}, {"short", Scalar::i16}, {"ushort", Scalar::u16}, {"int", Scalar::i32},
      {"uint", Scalar::u32}, {"float", Scalar::f32}, {"i64", Scalar::i64},   {"u64", Scalar::u64},
      {"long", Scalar::i64}, {"ulong", Scalar::u64}};
  for (const auto& [name, scalar] : names) {
    const std::string_view n(name);
    if (text.substr(0, n.size()) != n) continue;
    const std::string_view rest = text.substr(n.size());
    if (rest.empty()) return ElementType{scalar, 1};
    // Vector widths only after the OpenCL names ("float4"), not "f324".
    if (std::isdigit(static_cast<unsigned char>(n.back()))) continue;
    const std::optional<uint32_t> w = parse_u32(rest);
    if (w && (*w == 2 || *w == 3 || *w == 4 || *w == 8 || *w == 16)) return ElementType{scalar, *w};
  }
  return std::nullopt;
}

std::string Dims::text() const {
  std::string s = std::to_string(size[0]);
  for (uint32_t d = 1; d < dims; ++d) s += "," + std::to_string(size[d]);
  return s;
}

std::vector<uint8_t> ArgSpec::bytes(uint32_t iteration_index) const {
  std::vector<uint8_t> out(type.bytes());
  for (uint32_t c = 0; c < type.width; ++c)
    store(type.scalar, iteration ? iteration_index : values[c],
          out.data() + c * type.scalar_bytes());
  return out;
}

std::string ArgSpec::text() const {
  switch (kind) {
    case Kind::buffer: return "buffer #" + std::to_string(buffer);
    case Kind::local: return "local:" + std::to_string(local_bytes);
    case Kind::scalar: break;
  }
  std::string s = type.name() + ":";
  if (iteration) return s + "$i";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + format_double(values[i]);
  return s;
}

std::string RangeSpec::text() const {
  std::string s = "global=" + global.text() + " local=" + local.text();
  if (offset) s += " offset=" + offset->text();
  return s;
}

std::string CheckSpec::text() const {
  if (exact) return "exact";
  std::string s;
  if (ulp) s += "ulp " + format_double(*ulp);
  if (abs) s += std::string(s.empty() ? "" : " ") + "abs " + format_double(*abs);
  if (rel) s += std::string(s.empty() ? "" : " ") + "rel " + format_double(*rel);
  return s.empty() ? "ulp 0" : s;
}

std::optional<size_t> Spec::find_buffer(std::string_view name) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name) return i;
  return std::nullopt;
}

Spec parse(std::string_view source, const std::string& file_name) {
  Parser p;
  p.file = file_name;
  p.spec.file = file_name;
  int line_number = 0;
  bool in_header = true;
  for (const std::string& raw : split(source, '\n')) {
    ++line_number;
    std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line.substr(0, 2) != "//") {
      in_header = false;  // directives live in the leading comment block only
      continue;
    }
    std::string_view body = trim(line.substr(2));
    if (!in_header) continue;
    if (body.empty() || body[0] != '@') {
      if (p.spec.buffers.empty() && p.spec.runs.empty() && !body.empty()) {
        if (!p.spec.description.empty()) p.spec.description += ' ';
        p.spec.description += std::string(body);
      }
      continue;
    }
    const size_t hash = body.find('#');
    if (hash != std::string_view::npos) body = trim(body.substr(0, hash));
    std::vector<std::string> t = tokens(body.substr(1));
    if (t.empty()) fail(file_name, line_number, "empty directive");
    const std::string directive = t[0];
    t.erase(t.begin());
    if (directive == "buffer")
      p.buffer(line_number, t);
    else if (directive == "run")
      p.run(line_number, t);
    else if (directive == "range")
      p.range(line_number, t);
    else if (directive == "check")
      p.check(line_number, t);
    else if (directive == "repeat")
      p.repeat(line_number, t);
    else if (directive == "end")
      p.end(line_number, t);
    else if (directive == "options")
      p.spec.options.insert(p.spec.options.end(), t.begin(), t.end());
    else
      fail(file_name, line_number,
           "unknown directive '@" + directive + "' (buffer run repeat end range check options)");
  }
  p.validate();
  return std::move(p.spec);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Spec parse_file(const std::string& path) {
  return parse(read_text_file(path), path);
}

std::vector<uint8_t> initial_contents(const BufferSpec& buffer) {
  std::vector<uint8_t> out(buffer.bytes());
  const Init& init = buffer.init;
  const ElementType& type = buffer.type;
  const uint64_t scalars = buffer.count * type.components();
  const uint32_t size = type.scalar_bytes();
  Random random{init.seed};
  for (uint64_t i = 0; i < scalars; ++i) {
    double v = 0;
    switch (init.kind) {
      case Init::Kind::zeros: v = 0; break;
      case Init::Kind::iota: v = init.first + static_cast<double>(i) * init.step; break;
      case Init::Kind::constant: v = init.values[0]; break;
      case Init::Kind::values: v = init.values[i % init.values.size()]; break;
      case Init::Kind::random: {
        const uint64_t r = random.next();
        if (size == 8) {
          // 64-bit integers: drawn and stored as integers (doubles hold only 53 bits).
          const uint64_t low = type.scalar == Scalar::u64 && init.low >= 0x1p63
                                   ? static_cast<uint64_t>(init.low)
                                   : static_cast<uint64_t>(static_cast<int64_t>(init.low));
          const uint64_t high = type.scalar == Scalar::u64 && init.high >= 0x1p63
                                    ? static_cast<uint64_t>(init.high)
                                    : static_cast<uint64_t>(static_cast<int64_t>(init.high));
          const uint64_t span = high - low + 1;  // 0: the whole 64-bit range
          const uint64_t value = low + (span ? r % span : r);
          std::memcpy(out.data() + i * size, &value, 8);
          continue;
        }
        if (type.is_float()) {
          // 24 random bits: uniform in [low, high), rounded to float.
          v = init.low + (init.high - init.low) * static_cast<double>(r >> 40) / 16777216.0;
          if (static_cast<float>(v) >= static_cast<float>(init.high) && init.high > init.low)
            v = std::nextafter(static_cast<float>(init.high), -INFINITY);
        } else {
          const uint64_t span = static_cast<uint64_t>(init.high - init.low) + 1;
          v = init.low + static_cast<double>(r % span);
        }
        break;
      }
    }
    store(type.scalar, v, out.data() + i * size);
  }
  return out;
}

std::string Launch::text() const {
  std::string s = run->kernel + " global=" + global.text() + " local=" + local.text();
  bool any_offset = false;
  for (uint32_t d = 0; d < offset.dims; ++d) any_offset |= offset.size[d] != 0;
  if (any_offset) s += " offset=" + offset.text();
  if (run->repeat > 1 || run->group >= 0) s += " (i=" + std::to_string(iteration) + ")";
  return s;
}

std::vector<Launch> plan(const Spec& spec, size_t configuration) {
  std::vector<Launch> launches;
  const RangeSpec* range = spec.ranges.empty() ? nullptr : &spec.ranges.at(configuration);
  auto launch = [&](const RunSpec& run, uint32_t iteration) {
    Launch l;
    l.run = &run;
    l.iteration = iteration;
    l.global = run.global ? *run.global : range->global;
    l.local = run.local ? *run.local : range->local;
    if (run.offset)
      l.offset = *run.offset;
    else if (!run.global && range->offset)
      l.offset = *range->offset;
    else
      l.offset = Dims{l.global.dims, {0, 0, 0}};
    launches.push_back(l);
  };
  for (size_t r = 0; r < spec.runs.size();) {
    const int group = spec.runs[r].group;
    if (group < 0) {
      for (uint32_t i = 0; i < spec.runs[r].repeat; ++i) launch(spec.runs[r], i);
      ++r;
      continue;
    }
    size_t end = r;
    while (end < spec.runs.size() && spec.runs[end].group == group) ++end;
    for (uint32_t i = 0; i < spec.groups[group].count; ++i)
      for (size_t k = r; k < end; ++k) launch(spec.runs[k], i);
    r = end;
  }
  return launches;
}

uint64_t ulp_distance(float a, float b) {
  // Map floats onto a line of integers where neighbours differ by one (+0 = -0).
  auto key = [](float f) -> int64_t {
    const int32_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) : bits;
  };
  const int64_t d = key(a) - key(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

std::string format_scalar(Scalar scalar, const uint8_t* p) {
  switch (scalar) {
    case Scalar::i8: return std::to_string(static_cast<int8_t>(p[0]));
    case Scalar::u8: return std::to_string(p[0]);
    case Scalar::i16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return std::to_string(v);
    }
    case Scalar::u16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return std::to_string(v);
    }
    case Scalar::i32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return std::to_string(v);
    }
    case Scalar::u32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return std::to_string(v);
    }
    case Scalar::i64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return std::to_string(v);
    }
    case Scalar::u64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return std::to_string(v);
    }
    case Scalar::f32: {
      float f;
      uint32_t bits;
      std::memcpy(&f, p, 4);
      std::memcpy(&bits, p, 4);
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08x", bits);
      return format_double(f) + " (" + hex + ")";
    }
  }
  return "?";
}

Comparison compare(const CheckSpec& check, const BufferSpec& buffer,
                   const std::vector<uint8_t>& reference, const std::vector<uint8_t>& actual,
                   std::string_view reference_name, std::string_view actual_name,
                   size_t max_reported) {
  Comparison result;
  const ElementType& type = buffer.type;
  const uint32_t size = type.scalar_bytes();
  if (reference.size() != buffer.bytes() || actual.size() != buffer.bytes())
    throw Error("compare " + buffer.name + ": sizes differ (" + std::to_string(reference.size()) +
                ", " + std::to_string(actual.size()) + " bytes, expected " +
                std::to_string(buffer.bytes()) + ")");
  const uint64_t scalars = buffer.count * type.components();
  std::ostringstream report;
  for (uint64_t i = 0; i < scalars; ++i) {
    const uint8_t* r = reference.data() + i * size;
    const uint8_t* a = actual.data() + i * size;
    // The padding component of a 3-vector is undefined in OpenCL.
    if (type.width == 3 && i % 4 == 3) continue;
    ++result.compared;
    bool ok = std::memcmp(r, a, size) == 0;
    std::string distance;
    if (!ok && type.is_float()) {
      float fr, fa;
      std::memcpy(&fr, r, 4);
      std::memcpy(&fa, a, 4);
      if (std::isnan(fr) || std::isnan(fa)) {
        ok = std::isnan(fr) && std::isnan(fa);  // any NaN payload or sign
      } else if (!check.exact) {
        const uint64_t ulps = ulp_distance(fr, fa);
        const double diff = std::fabs(static_cast<double>(fr) - static_cast<double>(fa));
        ok = (check.ulp && static_cast<double>(ulps) <= *check.ulp) ||
             (check.abs && diff <= *check.abs) ||
             (check.rel && diff <= *check.rel * std::fabs(static_cast<double>(fr))) ||
             (!check.ulp && !check.abs && !check.rel && ulps == 0);
        distance = ", " + std::to_string(ulps) + " ulp, |diff| " + format_double(diff);
      } else {
        distance = ", " + std::to_string(ulp_distance(fr, fa)) + " ulp";
      }
    }
    if (ok) continue;
    if (result.mismatches++ < max_reported) {
      report << "    " << buffer.name << "[" << i / type.components() << "]";
      if (type.width > 1) report << ".s" << std::hex << i % type.components() << std::dec;
      report << ": " << reference_name << " " << format_scalar(type.scalar, r) << ", "
             << actual_name << " " << format_scalar(type.scalar, a) << distance << "\n";
    }
  }
  result.report = report.str();
  return result;
}

}  // namespace ventus::clspec
