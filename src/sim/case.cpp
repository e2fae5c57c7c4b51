// Hardware test cases (../shared/cases/FORMAT.md): strict readers for case.txt, .metadata
// and .data, and the replay of a case on a device.
#include "ventus/case.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "ventus/abi.h"
#include "ventus/error.h"
#include "ventus/file.h"

namespace ventus::cases {
namespace {

namespace fs = std::filesystem;

// The lines of a file whose every line ends with '\n' (or "\r\n": the '\r' is dropped, so
// that a case edited on Windows reads the same). Only a file that may be empty may have
// no lines.
std::vector<std::string> read_lines(const fs::path& path, bool may_be_empty = false) {
  const std::string text = read_input_file(path.string());
  if (text.empty() && !may_be_empty) throw Error(fmt::format("{}: empty file", path.string()));
  if (!text.empty() && text.back() != '\n')
    throw Error(fmt::format("{}: the last line does not end with a newline", path.string()));
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const size_t length = end - start - (end > start && text[end - 1] == '\r' ? 1 : 0);
    lines.push_back(text.substr(start, length));
    start = end + 1;
  }
  return lines;
}

// A token as messages quote it: control and non-ASCII bytes as \xNN, long ones shortened.
std::string shown(std::string_view token) {
  constexpr size_t kLongest = 40;
  std::string out;
  for (const char c : token.substr(0, kLongest)) {
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u >= 0x7f ? fmt::format("\\x{:02x}", u) : std::string(1, c);
  }
  if (token.size() > kLongest) out += fmt::format("... ({} bytes)", token.size());
  return "'" + out + "'";
}

[[noreturn]] void fail(const fs::path& path, size_t line_index, const std::string& why) {
  throw Error(fmt::format("{}:{}: {}", path.string(), line_index + 1, why));
}

bool is_lower_hex(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Exactly 8 lowercase hex digits.
uint32_t parse_word(const fs::path& path, size_t line, const std::string& s) {
  if (s.size() != 8 || !is_lower_hex(s))
    fail(path, line, fmt::format("{} is not a word of 8 lowercase hex digits", shown(s)));
  return static_cast<uint32_t>(std::stoul(s, nullptr, 16));
}

std::vector<std::string> split(const fs::path& path, size_t line, const std::string& text) {
  std::vector<std::string> tokens;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(' ', start);
    tokens.push_back(text.substr(start, end - start));
    if (tokens.back().empty()) fail(path, line, "tokens must be separated by single spaces");
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return tokens;
}

uint32_t parse_decimal(const fs::path& path, size_t line, const std::string& s,
                       const std::string& what) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    fail(path, line, fmt::format("{} {} is not a decimal number", what, shown(s)));
  return static_cast<uint32_t>(std::stoul(s));
}

// NAME.metadata: 28 + 6n lines, each field a uint64 as two words, low word first.
CaseLaunch load_metadata(const fs::path& path) {
  const std::vector<std::string> lines = read_lines(path);
  size_t next = 0;
  auto field = [&](const char* name) -> uint32_t {
    if (next + 2 > lines.size())
      fail(path, lines.size() - 1, fmt::format("the file ends before field {}", name));
    const uint32_t low = parse_word(path, next, lines[next]);
    const uint32_t high = parse_word(path, next + 1, lines[next + 1]);
    if (high != 0) fail(path, next + 1, fmt::format("field {} does not fit in 32 bits", name));
    next += 2;
    return low;
  };
  CaseLaunch l;
  l.start_addr = field("start_addr");
  l.kernel_id = field("kernel_id");
  for (int d = 0; d < 3; ++d) {
    l.kernel_size[d] = field("kernel_size");
    // Zero workgroups would run nothing and let the case pass on its initial data.
    if (l.kernel_size[d] == 0)
      fail(path, next - 2,
           fmt::format("kernel_size {} is 0: a launch has at least one workgroup in each dimension",
                       "xyz"[d]));
  }
  l.wf_size = field("wf_size");
  if (l.wf_size == 0) fail(path, next - 2, "wf_size is 0: a warp has at least one thread");
  l.wg_size = field("wg_size");
  if (l.wg_size == 0) fail(path, next - 2, "wg_size is 0: a workgroup has at least one warp");
  l.metadata_base = field("metaDataBaseAddr");
  l.lds_size = field("ldsSize");
  l.pds_size = field("pdsSize");
  l.sgpr_usage = field("sgprUsage");
  l.vgpr_usage = field("vgprUsage");
  l.pds_base = field("pdsBaseAddr");
  const uint32_t n = field("num_buffer");
  const size_t need = 28 + size_t{6} * n;
  if (lines.size() != need)
    fail(path, std::min(lines.size(), need) - 1,
         fmt::format("{} buffers need {} lines; the file has {}", n, need, lines.size()));
  l.buffers.resize(n);
  for (auto& b : l.buffers) b.base = field("buffer_base");
  for (auto& b : l.buffers) b.size = field("buffer_size");
  for (auto& b : l.buffers) b.alloc_size = field("buffer_allocsize");
  // The lines of buffer i's fields.
  const auto size_line = [&](size_t i) { return 28 + 2 * size_t{n} + 2 * i; };
  const auto alloc_line = [&](size_t i) { return 28 + 4 * size_t{n} + 2 * i; };
  const auto end = [](const CaseBuffer& b) { return uint64_t{b.base} + b.alloc_size; };
  for (size_t i = 0; i < n; ++i) {
    const CaseBuffer& b = l.buffers[i];
    if (b.size > b.alloc_size)
      fail(path, size_line(i),
           fmt::format("buffer {} at {:#010x} has {:#x} bytes of data but only {:#x} allocated", i,
                       b.base, b.size, b.alloc_size));
    if (end(b) > (uint64_t{1} << 32))
      fail(path, alloc_line(i),
           fmt::format("buffer {} at {:#010x} with {:#x} bytes goes beyond the 32-bit address "
                       "space",
                       i, b.base, b.alloc_size));
  }
  // Two buffers of one launch sharing bytes would overwrite each other's initial data.
  std::vector<size_t> by_base;
  for (size_t i = 0; i < n; ++i)
    if (l.buffers[i].alloc_size > 0) by_base.push_back(i);
  std::stable_sort(by_base.begin(), by_base.end(),
                   [&](size_t a, size_t b) { return l.buffers[a].base < l.buffers[b].base; });
  for (size_t k = 1; k < by_base.size(); ++k) {
    const CaseBuffer &a = l.buffers[by_base[k - 1]], &b = l.buffers[by_base[k]];
    if (b.base < end(a))
      fail(path, alloc_line(std::max(by_base[k - 1], by_base[k])),
           fmt::format("buffers {} [{:#010x}, {:#010x}) and {} [{:#010x}, {:#010x}) overlap",
                       by_base[k - 1], a.base, end(a), by_base[k], b.base, end(b)));
  }
  return l;
}

// NAME.data: the buffers' bytes in metadata order, ceil(size / 4) words each.
void load_data(const fs::path& path, CaseLaunch& l) {
  const std::vector<std::string> lines = read_lines(path, true);
  uint64_t need = 0;
  for (const auto& b : l.buffers) need += (uint64_t{b.size} + 3) / 4;
  if (lines.size() != need)
    fail(path, lines.empty() ? 0 : lines.size() - 1,
         fmt::format("the metadata's buffers need {} lines; the file has {}", need, lines.size()));
  size_t line = 0;
  for (auto& b : l.buffers) {
    b.data.resize(b.size);
    for (uint32_t off = 0; off < b.size; off += 4, ++line) {
      const uint32_t w = parse_word(path, line, lines[line]);
      for (uint32_t k = 0; k < 4 && off + k < b.size; ++k)
        b.data[off + k] = static_cast<uint8_t>(w >> (8 * k));
    }
  }
}

}  // namespace

Case load_case(const fs::path& dir) {
  const fs::path path = dir / "case.txt";
  const std::vector<std::string> lines = read_lines(path);
  Case c;
  c.name = dir.filename().string();
  if (c.name.empty()) c.name = dir.parent_path().filename().string();
  if (lines[0].rfind("# ", 0) != 0) fail(path, 0, "the first line must be '# ' and a description");
  c.description = lines[0].substr(2);
  if (lines.size() < 2) fail(path, 0, "no config line");
  const auto config = split(path, 1, lines[1]);
  if (config.size() != 3 || config[0] != "config" || config[1].rfind("warps=", 0) != 0 ||
      config[2].rfind("threads=", 0) != 0)
    fail(path, 1, "expected 'config warps=W threads=T'");
  c.warps = parse_decimal(path, 1, config[1].substr(6), "warps");
  c.threads = parse_decimal(path, 1, config[2].substr(8), "threads");
  for (size_t i = 2; i < lines.size(); ++i) {
    if (lines[i].empty()) fail(path, i, "blank lines are not allowed");
    if (lines[i][0] == '#') fail(path, i, "only the first line may be a comment");
    const auto tokens = split(path, i, lines[i]);
    if (tokens[0] == "launch") {
      if (tokens.size() != 2) fail(path, i, "expected 'launch NAME'");
      if (tokens[1].find('/') != std::string::npos || tokens[1] == "." || tokens[1] == "..")
        fail(path, i,
             fmt::format("launch name {} is not a file name in the case folder", shown(tokens[1])));
      if (!c.expectations.empty()) fail(path, i, "launch lines come before expect lines");
      const fs::path metadata = dir / (tokens[1] + ".metadata");
      CaseLaunch l = load_metadata(metadata);
      l.name = tokens[1];
      load_data(dir / (tokens[1] + ".data"), l);
      if (l.wf_size != c.threads)
        fail(path, i,
             fmt::format("launch {} has wf_size {} but the config says threads={}", l.name,
                         l.wf_size, c.threads));
      if (l.wg_size > c.warps)
        fail(path, i,
             fmt::format("launch {} has wg_size {} but the config says warps={}", l.name, l.wg_size,
                         c.warps));
      c.launches.push_back(std::move(l));
    } else if (tokens[0] == "expect") {
      if (tokens.size() < 3 || tokens.size() > 10)
        fail(path, i, "expected 'expect ADDR W0 .. W7' (1 to 8 words)");
      if (tokens[1].size() != 10 || tokens[1].rfind("0x", 0) != 0 ||
          !is_lower_hex(tokens[1].substr(2)))
        fail(path, i,
             fmt::format("address {} is not 0x and 8 lowercase hex digits", shown(tokens[1])));
      Expectation e;
      e.address = static_cast<uint32_t>(std::stoul(tokens[1].substr(2), nullptr, 16));
      for (size_t k = 2; k < tokens.size(); ++k) e.words.push_back(parse_word(path, i, tokens[k]));
      if (e.address + 4 * uint64_t{e.words.size()} > (uint64_t{1} << 32))
        fail(path, i,
             fmt::format("{} words at {:#010x} go beyond the 32-bit address space", e.words.size(),
                         e.address));
      c.expectations.push_back(std::move(e));
    } else {
      fail(path, i,
           fmt::format("unknown line kind {} (config, launch or expect)", shown(tokens[0])));
    }
  }
  if (c.launches.empty()) fail(path, lines.size() - 1, "the case has no launch line");
  return c;
}

sim::KernelLaunch to_kernel_launch(const CaseLaunch& l) {
  sim::KernelLaunch k;
  k.kernel_name = l.name;
  k.start_pc = l.start_addr;
  for (int d = 0; d < 3; ++d) k.grid[d] = l.kernel_size[d];
  k.threads_per_warp = l.wf_size;
  k.warps_per_workgroup = l.wg_size;
  k.knl_address = l.metadata_base;
  // The compiler's start code puts each warp's stack abi::kWarpStackBytes apart in local
  // memory whatever ldsSize says (FORMAT.md), so a workgroup reserves at least that much.
  k.lds_bytes = static_cast<uint32_t>(std::min<uint64_t>(
      std::max<uint64_t>(l.lds_size, uint64_t{abi::kWarpStackBytes} * l.wg_size), UINT32_MAX));
  k.pds_bytes_per_thread = l.pds_size;
  k.pds_base = l.pds_base;
  k.sgpr_usage = l.sgpr_usage;
  k.vgpr_usage = l.vgpr_usage;
  return k;
}

CaseResult run_case(const Case& c, sim::Device& device, const sim::RunOptions& options,
                    uint64_t timeline_start) {
  CaseResult result;
  sim::Memory& memory = device.memory();
  // The memory checker's allocations: the buffers of the launches so far.
  std::optional<sim::Memcheck> memcheck;
  sim::RunOptions launch_options = options;
  if (options.memcheck) {
    memcheck = *options.memcheck;
    memcheck->allocations.clear();
    launch_options.memcheck = &*memcheck;
  }
  for (const CaseLaunch& l : c.launches) {
    for (const CaseBuffer& b : l.buffers) {
      if (b.alloc_size > 0) memory.map(b.base, b.alloc_size);
      if (b.size > 0 && !memory.write(b.base, b.data.data(), b.size))
        throw Error(fmt::format("case {}: launch {}: buffer at {:#010x} of {} bytes is not mapped",
                                c.name, l.name, b.base, b.size));
      if (memcheck && b.alloc_size > 0 &&
          std::none_of(memcheck->allocations.begin(), memcheck->allocations.end(),
                       [&](const sim::MemcheckRange& r) { return r.base == b.base; }))
        memcheck->allocations.push_back({b.base, b.alloc_size, ""});
    }
    if (memcheck) memcheck->read_knl(memory, l.metadata_base);
    if (options.timing && options.timeline)
      options.timeline->begin_launch(l.name,
                                     timeline_start + (result.timing ? result.timing->cycles : 0));
    const sim::LaunchResult r = device.run(to_kernel_launch(l), launch_options);
    if (r.timing) {
      if (!result.timing) result.timing.emplace();
      result.timing->add(*r.timing);
    }
    result.stats.warp_instructions += r.stats.warp_instructions;
    result.stats.thread_instructions += r.stats.thread_instructions;
    result.stats.divergences += r.stats.divergences;
    result.stats.barriers += r.stats.barriers;
    result.stats.workgroups += r.stats.workgroups;
    result.stats.seconds += r.stats.seconds;
    if (r.fault) {
      result.fault = r.fault;
      return result;
    }
  }
  for (const Expectation& e : c.expectations) {
    for (size_t i = 0; i < e.words.size(); ++i) {
      const uint32_t address = e.address + static_cast<uint32_t>(4 * i);
      uint32_t actual = 0;
      ++result.words_checked;
      if (!memory.read(address, &actual, 4)) {
        result.mismatches.push_back({address, e.words[i], std::nullopt});
      } else if (actual != e.words[i]) {
        result.mismatches.push_back({address, e.words[i], actual});
      }
    }
  }
  std::sort(result.mismatches.begin(), result.mismatches.end(),
            [](const Mismatch& a, const Mismatch& b) { return a.address < b.address; });
  result.passed = result.mismatches.empty();
  return result;
}

}  // namespace ventus::cases
