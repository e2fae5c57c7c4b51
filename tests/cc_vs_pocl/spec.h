// Test specifications of OpenCL C kernels: the `// @` header of a .cl file says which
// buffers to create, which kernels to launch over which NDRanges, and how to compare the
// results of two implementations (docs/compiler-tests.md has the format).
//
//   // @buffer a f32[1000] random -10 10 seed=1
//   // @buffer c f32[1000] zeros
//   // @run vadd a c int:1000
//   // @range global=1024 local=64
//   // @check c ulp 1
//
// The library knows nothing of OpenCL or of the device: it parses, generates the initial
// buffer contents, plans the launches of each configuration and compares results, so a
// tool (`ventus run`, the pocl runner, the Ventus runner) can share it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ventus::clspec {

enum class Scalar { i8, u8, i16, u16, i32, u32, f32, i64, u64 };

// A buffer element or by-value argument type: a scalar or an OpenCL vector of 2, 3, 4, 8
// or 16 of them (3-vectors occupy 4 elements, as in OpenCL).
struct ElementType {
  Scalar scalar = Scalar::i32;
  uint32_t width = 1;

  uint32_t scalar_bytes() const;
  uint32_t components() const { return width == 3 ? 4 : width; }  // stored scalars
  uint32_t bytes() const { return scalar_bytes() * components(); }
  bool is_float() const { return scalar == Scalar::f32; }
  bool is_signed() const;
  std::string name() const;  // the OpenCL name: "float4", "uchar", "int"
  bool operator==(const ElementType&) const = default;
};

// "f32", "u8", "i64", "float4", "uchar16", "long" ... ; nullopt for anything else.
std::optional<ElementType> parse_type(std::string_view text);

struct Init {
  enum class Kind { zeros, iota, random, constant, values };
  Kind kind = Kind::zeros;
  double first = 0, step = 1;  // iota: first + i * step over the scalars
  double low = 0, high = 1;    // random: integers in [low, high], floats in [low, high)
  uint64_t seed = 0;
  std::vector<double> values;  // constant (one value) / values (repeated to fill)
};

struct BufferSpec {
  std::string name;
  ElementType type;
  uint64_t count = 0;  // elements of `type`
  Init init;
  int line = 0;
  uint64_t bytes() const { return count * type.bytes(); }
};

// Sizes of an NDRange (global, local or offset) in 1 to 3 dimensions.
struct Dims {
  uint32_t dims = 1;
  uint32_t size[3] = {1, 1, 1};
  std::string text() const;  // "64" or "64,32"
};

struct ArgSpec {
  enum class Kind { buffer, scalar, local };
  Kind kind = Kind::scalar;
  size_t buffer = 0;           // buffer: index into Spec::buffers
  ElementType type;            // scalar: its type
  std::vector<double> values;  // scalar: one value per component
  bool iteration = false;      // scalar: the value is the repetition index ($i)
  uint32_t local_bytes = 0;    // local: the size of the __local buffer
  // The argument's bytes (scalars only), little-endian, `iteration` substituted.
  std::vector<uint8_t> bytes(uint32_t iteration_index) const;
  std::string text() const;  // for messages
};

struct RunSpec {
  std::string kernel;
  std::vector<ArgSpec> args;
  std::optional<Dims> global, local, offset;  // override the configuration's
  uint32_t repeat = 1;
  int group = -1;  // index into Spec::groups for runs between `@repeat N` and `@end`
  int line = 0;
};

// `@repeat N` ... `@end`: the runs between them, in order, N times ($i counts).
struct GroupSpec {
  uint32_t count = 1;
  int line = 0;
};

struct RangeSpec {
  Dims global, local;
  std::optional<Dims> offset;
  int line = 0;
  std::string text() const;
};

struct CheckSpec {
  size_t buffer = 0;
  bool exact = true;
  // Floats: an element passes when any given bound holds.
  std::optional<double> ulp, abs, rel;
  int line = 0;
  std::string text() const;
};

struct Spec {
  std::string file;
  std::string description;           // the header's first comment lines without `@`
  std::vector<std::string> options;  // build options for both compilers (-D..., -cl-...)
  std::vector<BufferSpec> buffers;
  std::vector<RunSpec> runs;
  std::vector<GroupSpec> groups;
  std::vector<RangeSpec> ranges;
  std::vector<CheckSpec> checks;

  size_t configurations() const { return ranges.empty() ? 1 : ranges.size(); }
  std::optional<size_t> find_buffer(std::string_view name) const;
};

// Parses the `// @` directives of an OpenCL C source. Throws ventus::Error("FILE:LINE:
// ...") for a malformed or inconsistent specification.
Spec parse(std::string_view source, const std::string& file_name);
Spec parse_file(const std::string& path);  // also keeps the source
std::string read_text_file(const std::string& path);

// The initial bytes of a buffer (deterministic: the same spec gives the same bytes).
std::vector<uint8_t> initial_contents(const BufferSpec& buffer);

// One kernel launch of a configuration, in order.
struct Launch {
  const RunSpec* run = nullptr;
  uint32_t iteration = 0;  // $i: the run's repeat= index or its group's
  Dims global, local, offset;
  std::string text() const;  // "vadd global=1024 local=64 (i=3)"
};
std::vector<Launch> plan(const Spec& spec, size_t configuration);

// Comparison of a checked buffer's bytes from a reference and from the implementation
// under test. Floats: `exact` means bit-equal except that any two NaNs are equal; `ulp`
// counts representable floats between the values (+0 and -0 are 0 apart).
struct Comparison {
  uint64_t compared = 0;    // scalars compared
  uint64_t mismatches = 0;  // scalars that failed
  std::string report;       // the first mismatches, one per line
};
Comparison compare(const CheckSpec& check, const BufferSpec& buffer,
                   const std::vector<uint8_t>& reference, const std::vector<uint8_t>& actual,
                   std::string_view reference_name = "pocl",
                   std::string_view actual_name = "ventus", size_t max_reported = 8);

uint64_t ulp_distance(float a, float b);  // neither NaN
std::string format_scalar(Scalar scalar, const uint8_t* bytes);

}  // namespace ventus::clspec
