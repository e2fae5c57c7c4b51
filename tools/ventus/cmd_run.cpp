// ventus run: run one kernel on the simulated device with arguments from the command line.
// Built when the driver (and with it the simulator) is: VENTUS_HAVE_DRIVER.
#ifdef VENTUS_HAVE_DRIVER
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

#include "commands.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

using ventus::Error;
namespace rt = ventus::rt;

enum class ElementType { I32, U32, F32 };

ElementType parse_type(std::string_view text, const std::string& spec) {
  if (text == "i32") return ElementType::I32;
  if (text == "u32") return ElementType::U32;
  if (text == "f32") return ElementType::F32;
  throw Error(fmt::format("--arg {}: unknown type '{}' (i32, u32 or f32)", spec, text));
}

uint64_t parse_unsigned(std::string_view text, const std::string& what) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2), base = 16;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc{} || p != text.data() + text.size())
    throw Error(fmt::format("{}: '{}' is not an unsigned number", what, text));
  return v;
}

// One element's 32 bits from its text.
uint32_t parse_element(std::string_view text, ElementType type, const std::string& what) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  switch (type) {
    case ElementType::F32: {
      const float f = std::strtof(s.c_str(), &end);
      if (s.empty() || *end != '\0') throw Error(fmt::format("{}: '{}' is not a number", what, s));
      return std::bit_cast<uint32_t>(f);
    }
    case ElementType::I32: {
      const long long v = std::strtoll(s.c_str(), &end, 0);
      if (s.empty() || *end != '\0' || errno || v < INT32_MIN || v > INT32_MAX)
        throw Error(fmt::format("{}: '{}' is not a 32-bit integer", what, s));
      return static_cast<uint32_t>(static_cast<int32_t>(v));
    }
    case ElementType::U32: {
      const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
      if (s.empty() || *end != '\0' || errno || v > UINT32_MAX || s[0] == '-')
        throw Error(fmt::format("{}: '{}' is not an unsigned 32-bit integer", what, s));
      return static_cast<uint32_t>(v);
    }
  }
  return 0;
}

std::string element_text(uint32_t bits, ElementType type) {
  switch (type) {
    case ElementType::F32: return fmt::format("{:.9g}", std::bit_cast<float>(bits));
    case ElementType::I32: return fmt::format("{}", static_cast<int32_t>(bits));
    case ElementType::U32: return fmt::format("{}", bits);
  }
  return {};
}

// splitmix64: a fixed generator, so random:N:SEED gives the same data everywhere.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// random elements: i32 in [-1000, 1000], u32 in [0, 1000], f32 multiples of 2^-10 in
// [-8, 8) (few significant bits, so sums and small products are exact and checkable).
uint32_t random_element(uint64_t& state, ElementType type) {
  const uint64_t r = splitmix64(state);
  switch (type) {
    case ElementType::I32: return static_cast<uint32_t>(static_cast<int32_t>(r % 2001) - 1000);
    case ElementType::U32: return static_cast<uint32_t>(r % 1001);
    case ElementType::F32:
      return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int32_t>(r % 16384) - 8192) /
                                     1024.0f);
  }
  return 0;
}

std::vector<uint8_t> read_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open file", path));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct KernelArgument {
  std::string name;  // optional NAME= prefix
  std::string spec;
  bool is_buffer = false;
  uint32_t local_bytes = 0;  // local:BYTES, a __local buffer argument
  ElementType type = ElementType::I32;
  uint32_t scalar = 0;
  std::vector<uint32_t> elements;  // buffer contents
};

KernelArgument parse_argument(const std::string& text) {
  KernelArgument a;
  a.spec = text;
  std::string_view rest = text;
  if (const size_t eq = rest.find('='); eq != std::string_view::npos) {
    a.name = std::string(rest.substr(0, eq));
    rest.remove_prefix(eq + 1);
  }
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos)
    throw Error(fmt::format("--arg {}: expected TYPE:VALUE or TYPE[]:CONTENTS", text));
  std::string_view type = rest.substr(0, colon);
  std::string_view value = rest.substr(colon + 1);
  if (type == "local") {
    const uint64_t bytes = parse_unsigned(value, "--arg " + text);
    if (bytes == 0 || bytes > (1u << 20)) throw Error(fmt::format("--arg {}: local buffer of 1 to 2^20 bytes", text));
    a.local_bytes = static_cast<uint32_t>(bytes);
    return a;
  }
  if (type.size() > 2 && type.substr(type.size() - 2) == "[]") {
    a.is_buffer = true;
    type.remove_suffix(2);
  }
  a.type = parse_type(type, text);
  const std::string what = "--arg " + text;
  if (!a.is_buffer) {
    a.scalar = parse_element(value, a.type, what);
    return a;
  }
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t c = value.find(':', start);
    parts.push_back(
        value.substr(start, c == std::string_view::npos ? std::string_view::npos : c - start));
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  const std::string_view kind = parts[0];
  const auto count = [&](size_t i) {
    if (parts.size() <= i) throw Error(fmt::format("{}: {} needs an element count", what, kind));
    const uint64_t n = parse_unsigned(parts[i], what);
    if (n == 0 || n > (uint64_t{1} << 28))
      throw Error(fmt::format("{}: element count {} (1 to 2^28)", what, n));
    return static_cast<size_t>(n);
  };
  if (kind == "zeros") {
    a.elements.assign(count(1), 0);
  } else if (kind == "iota") {
    const size_t n = count(1);
    for (size_t i = 0; i < n; ++i)
      a.elements.push_back(a.type == ElementType::F32
                               ? std::bit_cast<uint32_t>(static_cast<float>(i))
                               : static_cast<uint32_t>(i));
  } else if (kind == "random") {
    const size_t n = count(1);
    uint64_t state = parts.size() > 2 ? parse_unsigned(parts[2], what) : 1;
    for (size_t i = 0; i < n; ++i) a.elements.push_back(random_element(state, a.type));
  } else if (kind == "file") {
    if (parts.size() < 2) throw Error(fmt::format("{}: file needs a path", what));
    const std::string path(value.substr(5));
    const std::vector<uint8_t> bytes = read_binary(path);
    if (bytes.empty() || bytes.size() % 4 != 0)
      throw Error(fmt::format("{}: {} has {} bytes, not a positive multiple of 4", what, path,
                              bytes.size()));
    a.elements.resize(bytes.size() / 4);
    std::memcpy(a.elements.data(), bytes.data(), bytes.size());
  } else if (kind == "text") {
    if (parts.size() < 2) throw Error(fmt::format("{}: text needs a path", what));
    const std::string path(value.substr(5));
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("{}: cannot open {}", what, path));
    std::string word;
    while (in >> word) a.elements.push_back(parse_element(word, a.type, what + " (" + path + ")"));
    if (a.elements.empty()) throw Error(fmt::format("{}: {} holds no numbers", what, path));
  } else {
    for (size_t start = 0;;) {
      const size_t c = value.find(',', start);
      a.elements.push_back(parse_element(
          value.substr(start, c == std::string_view::npos ? value.npos : c - start), a.type, what));
      if (c == std::string_view::npos) break;
      start = c + 1;
    }
  }
  return a;
}

rt::Range parse_range(const std::string& text, const std::string& option) {
  std::vector<uint32_t> v;
  for (size_t start = 0;;) {
    const size_t c = text.find(',', start);
    const uint64_t n = parse_unsigned(
        std::string_view(text).substr(start, c == std::string::npos ? text.npos : c - start),
        option);
    if (n == 0 || n > UINT32_MAX) throw Error(fmt::format("{}: size {} (1 to 2^32-1)", option, n));
    v.push_back(static_cast<uint32_t>(n));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  if (v.size() > 3) throw Error(fmt::format("{}: '{}' has more than 3 dimensions", option, text));
  if (v.size() == 1) return rt::Range(v[0]);
  if (v.size() == 2) return rt::Range(v[0], v[1]);
  return rt::Range(v[0], v[1], v[2]);
}

rt::Program load_program(const std::vector<std::string>& inputs) {
  const std::vector<uint8_t> head = read_binary(inputs[0]);
  if (ventus::elf::has_magic(head)) {
    if (inputs.size() != 1)
      throw Error("an ELF program must be the only input (assembly files are linked together)");
    return rt::Program::from_elf_bytes(head, inputs[0]);
  }
  // Assembly text never holds a NUL byte; anything that does is some other binary file.
  for (const std::string& input : inputs) {
    const std::vector<uint8_t> bytes = read_binary(input);
    if (std::find(bytes.begin(), bytes.end(), uint8_t{0}) != bytes.end())
      throw Error(fmt::format("{}: neither an ELF file nor assembly text (it holds NUL bytes)",
                              input));
  }
  return rt::Program::from_assembly_files(inputs);
}

struct RunArgs {
  std::vector<std::string> inputs;
  std::string kernel;
  std::string global = "1";
  std::string local;
  std::string offset;
  std::vector<std::string> args;
  std::vector<std::string> dumps;
  std::string trace;
  uint32_t sms = ventus::sim::DeviceConfig{}.num_sms;
  uint32_t warps = ventus::sim::DeviceConfig{}.warp_slots_per_sm;
  uint32_t threads = 32;
  unsigned host_threads = 1;
  uint32_t lds_per_sm = ventus::sim::DeviceConfig{}.lds_bytes_per_sm;
  uint32_t workgroup_slots = ventus::sim::DeviceConfig{}.max_workgroups_per_sm;
  uint64_t budget = ventus::sim::DeviceConfig{}.instruction_budget;
  uint32_t local_mem = 0;
  uint32_t private_mem = 1024;
  uint32_t print_buffer = 1 << 20;
  bool quiet = false;
  bool progress = false;
};

void write_dump(const std::string& path, const std::vector<uint32_t>& words, ElementType type) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(fmt::format("--dump: cannot write {}", path));
  if (path.size() > 4 && path.substr(path.size() - 4) == ".txt") {
    for (uint32_t w : words) out << element_text(w, type) << '\n';
  } else {
    out.write(reinterpret_cast<const char*>(words.data()),
              static_cast<std::streamsize>(words.size() * 4));
  }
  if (!out) throw Error(fmt::format("--dump: writing {} failed", path));
}

void run(const RunArgs& a) {
  std::vector<KernelArgument> arguments;
  for (const std::string& s : a.args) arguments.push_back(parse_argument(s));
  const auto find_argument = [&](const std::string& key) -> size_t {
    for (size_t i = 0; i < arguments.size(); ++i)
      if (arguments[i].name == key) return i;
    const uint64_t index = parse_unsigned(key, "--dump " + key + " (an argument name or index)");
    if (index >= arguments.size())
      throw Error(fmt::format("--dump: there is no argument {} ({} given)", key, arguments.size()));
    return static_cast<size_t>(index);
  };
  std::vector<std::pair<size_t, std::string>> dumps;
  for (const std::string& d : a.dumps) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      throw Error(fmt::format("--dump: expected ARG=FILE, got '{}'", d));
    const size_t index = find_argument(d.substr(0, eq));
    if (!arguments[index].is_buffer)
      throw Error(fmt::format("--dump {}: argument {} is a scalar", d, index));
    dumps.emplace_back(index, d.substr(eq + 1));
  }

  const rt::Range global = parse_range(a.global, "--global");
  const rt::Range local = a.local.empty() ? rt::Range(std::min<uint32_t>(global.size[0], a.threads))
                                          : parse_range(a.local, "--local");
  rt::LaunchOptions options;
  options.threads_per_warp = a.threads;
  options.local_memory_bytes = a.local_mem;
  options.private_bytes_per_thread = a.private_mem;
  options.print_buffer_bytes = a.print_buffer;
  if (!a.offset.empty()) {
    const rt::Range offset = parse_range(a.offset, "--offset");
    for (int i = 0; i < 3; ++i)
      options.global_offset[i] = static_cast<int>(offset.dims) > i ? offset.size[i] : 0;
  }

  ventus::sim::DeviceConfig config;
  config.num_sms = a.sms;
  config.warp_slots_per_sm = a.warps;
  config.host_threads = a.host_threads;
  config.lds_bytes_per_sm = a.lds_per_sm;
  config.max_workgroups_per_sm = a.workgroup_slots;
  config.instruction_budget = a.budget;
  if (a.sms == 0 || a.warps == 0 || a.host_threads == 0 || a.workgroup_slots == 0)
    throw Error("--sms, --warps, --host-threads and --workgroup-slots must be at least 1");

  const rt::Program program = load_program(a.inputs);
  std::string kernel = a.kernel;
  if (kernel.empty()) {
    const std::vector<std::string> names = program.kernel_names();
    if (names.empty())
      throw Error("--kernel is needed: the program has no global function symbols (.globl K with "
                  ".type K, @function) to choose from");
    if (names.size() != 1)
      throw Error(fmt::format("--kernel is needed: the program has {} kernels ({})", names.size(),
                              fmt::join(names, ", ")));
    kernel = names[0];
  }
  const rt::LaunchShape shape = rt::launch_shape(config, global, local, options);

  rt::Device device(config);
  std::ofstream trace_file;
  std::mutex trace_mutex;
  if (!a.trace.empty()) {
    trace_file.open(a.trace);
    if (!trace_file) throw Error(fmt::format("--trace: cannot write {}", a.trace));
    device.set_trace_sink([&](std::string_view line) {
      std::lock_guard lock(trace_mutex);
      trace_file << line << '\n';
    });
  }
  std::vector<std::optional<rt::Buffer>> buffers(arguments.size());
  std::vector<rt::Arg> launch_args;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].is_buffer) {
      buffers[i] = rt::Buffer::from(device, arguments[i].elements);
      launch_args.emplace_back(*buffers[i]);
    } else if (arguments[i].local_bytes) {
      launch_args.push_back(rt::Arg::local(arguments[i].local_bytes));
    } else {
      launch_args.push_back(rt::Arg::raw(arguments[i].scalar));
    }
  }

  rt::Stats stats;
  if (a.progress || (!a.quiet && isatty(STDERR_FILENO))) {
    device.set_progress_handler([&kernel](const ventus::sim::LaunchProgress& p) {
      fmt::print(stderr,
                 "[ventus run] kernel '{}': {:.0f} s, {:.1f} M warp-instructions, "
                 "{} of {} workgroups done\n",
                 kernel, p.seconds, p.warp_instructions / 1e6, p.workgroups_done, p.workgroups);
    });
  }
  stats = rt::launch(device, program, kernel, global, local, launch_args, options);
  if (!a.trace.empty()) trace_file.flush();

  for (const auto& [index, path] : dumps) {
    std::vector<uint32_t> words = buffers[index]->download<uint32_t>();
    write_dump(path, words, arguments[index].type);
  }
  if (a.quiet) return;
  const auto dims = [](const rt::Range& r) {
    return r.dims == 1   ? fmt::format("{}", r.size[0])
           : r.dims == 2 ? fmt::format("{}x{}", r.size[0], r.size[1])
                         : fmt::format("{}x{}x{}", r.size[0], r.size[1], r.size[2]);
  };
  const double seconds = std::max(stats.seconds, 1e-9);
  fmt::print("kernel {}: global {}, local {}: {} workgroups of {} warps x {} threads on {} SMs\n",
             kernel, dims(global), dims(local), stats.workgroups, shape.warps_per_workgroup,
             shape.threads_per_warp, config.num_sms);
  fmt::print("  warp-instructions    {}\n", stats.warp_instructions);
  fmt::print("  thread-instructions  {}\n", stats.thread_instructions);
  fmt::print("  SIMT divergences     {}\n", stats.divergences);
  fmt::print("  barriers             {}\n", stats.barriers);
  fmt::print("  time                 {:.6f} s ({} host thread{})\n", stats.seconds,
             config.host_threads, config.host_threads == 1 ? "" : "s");
  fmt::print("  simulated            {:.1f} M thread-insn/s, {:.1f} M warp-insn/s\n",
             stats.thread_instructions / seconds / 1e6, stats.warp_instructions / seconds / 1e6);
}

ventus::cli::Registration reg(30, [](CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand("run", "Run a kernel on the simulated device");
  sub->footer(R"(Arguments (--arg, in kernel argument order; optional NAME= prefix for --dump):
  i32:-5  u32:7  f32:2.5          scalars (32-bit raw value in the argument buffer)
  TYPE[]:zeros:N                  a buffer of N zero elements (TYPE: i32 u32 f32)
  TYPE[]:iota:N                   0, 1, 2, ... N-1
  TYPE[]:random:N[:SEED]          fixed pseudo-random data: i32 in [-1000,1000], u32 in
                                  [0,1000], f32 multiples of 2^-10 in [-8,8)
  TYPE[]:file:PATH                raw little-endian 32-bit elements
  TYPE[]:text:PATH                whitespace-separated numbers
  local:BYTES                     a __local buffer of BYTES in the workgroup's local memory
  TYPE[]:1,2,3                    the elements listed
--dump ARG=FILE writes buffer ARG (name or index) after the run: FILE.txt as text (one
element per line, f32 with 9 significant digits), any other name as raw binary.

Example: ventus run examples/saxpy.s --global 5056 --local 64 \
           --arg x=f32[]:random:5000:1 --arg y=f32[]:random:5000:2 --arg f32:2.5 --arg i32:5000 \
           --dump y=y.txt)");
  sub->add_option("inputs", a->inputs, "kernel program: one ELF file, or assembly files to link")
      ->required();
  sub->add_option("-k,--kernel", a->kernel, "kernel to run (default: the only one)");
  sub->add_option("-g,--global", a->global, "global size X[,Y,Z]")->capture_default_str();
  sub->add_option("-l,--local", a->local,
                  "local (workgroup) size X[,Y,Z] (default: min(global, threads))");
  sub->add_option("--offset", a->offset, "global offset X[,Y,Z]");
  sub->add_option("-a,--arg", a->args, "kernel argument (see below), repeat in order");
  sub->add_option("--dump", a->dumps, "write buffer ARG to FILE after the run (ARG=FILE)");
  sub->add_option("--trace", a->trace, "write the commit log (docs/trace.md) to FILE");
  sub->add_option("--sms", a->sms, "streaming multiprocessors")->capture_default_str();
  sub->add_option("--warps", a->warps, "warp slots per SM")->capture_default_str();
  sub->add_option("--threads", a->threads, "threads per warp (1-32)")->capture_default_str();
  sub->add_option("--host-threads", a->host_threads, "host threads simulating SMs")
      ->capture_default_str();
  sub->add_option("--workgroup-slots", a->workgroup_slots, "workgroup slots per SM")
      ->capture_default_str();
  sub->add_option("--lds-per-sm", a->lds_per_sm, "local memory bytes per SM")
      ->capture_default_str();
  sub->add_option("--local-mem", a->local_mem,
                  "local data bytes per workgroup (after the 1 KiB warp stacks)")
      ->capture_default_str();
  sub->add_option("--private-mem", a->private_mem, "private memory bytes per thread")
      ->capture_default_str();
  sub->add_option("--print-buffer", a->print_buffer, "print buffer bytes (0: none)")
      ->capture_default_str();
  sub->add_option("--budget", a->budget, "warp-instruction budget of the launch (0: unlimited)")
      ->capture_default_str();
  sub->add_flag("-q,--quiet", a->quiet, "no summary");
  sub->add_flag("--progress", a->progress,
                "report instructions and workgroups done every 2 s (default when stderr is a terminal)");
  sub->callback([a] { run(*a); });
});

}  // namespace
#endif  // VENTUS_HAVE_DRIVER
