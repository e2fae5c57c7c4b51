// Running a hardware case with a different program: the case's inputs and expected
// results check code compiled by this project (docs/compiler.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "ventus/case.h"
#include "ventus/error.h"
#include "ventus/file.h"

namespace ventus::cases {

namespace {

// Function symbols of an objdump listing: lines "800000a8 <Fan1>:" (address -> name);
// local labels (".LBB0_4") are skipped.
std::map<uint32_t, std::string> listing_symbols(const std::filesystem::path& listing) {
  // A directory opens as a stream and reads as empty: it would look like a listing
  // without the kernel's symbol.
  std::error_code ec;
  if (std::filesystem::is_directory(listing, ec))
    throw Error(fmt::format("{}: is a directory, not the listing", listing.string()));
  std::istringstream in(read_input_file(listing.string(), {.accept_streams = true}));
  std::map<uint32_t, std::string> symbols;
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 13 || line.compare(8, 2, " <") != 0 || line.compare(line.size() - 2, 2, ">:") != 0) continue;
    if (line.find_first_not_of("0123456789abcdef") != 8) continue;
    std::string name = line.substr(10, line.size() - 12);
    if (name.empty() || name[0] == '.') continue;
    symbols[static_cast<uint32_t>(std::stoul(line.substr(0, 8), nullptr, 16))] = name;
  }
  return symbols;
}

// The kernel a launch without a listing ran: its name less the "_<n>" that numbers the
// launches of one kernel (FORMAT.md: the launch files are <kernel>_<n>.metadata/.data).
std::string kernel_of_launch(const std::string& launch) {
  const size_t underscore = launch.rfind('_');
  if (underscore == std::string::npos || underscore == 0 || underscore + 1 == launch.size() ||
      launch.find_first_not_of("0123456789", underscore + 1) != std::string::npos)
    return launch;
  return launch.substr(0, underscore);
}

}  // namespace

Case with_program(const Case& c, const elf::Image& program, const std::filesystem::path& listing) {
  const bool has_listing = std::filesystem::exists(listing);
  const std::map<uint32_t, std::string> names =
      has_listing ? listing_symbols(listing) : std::map<uint32_t, std::string>{};
  // The program's memory image from its lowest loadable address (64-bit bounds: a section
  // may end at 4 GiB).
  uint64_t low = UINT64_MAX, high = 0;
  for (const elf::Section& s : program.sections)
    if (s.alloc && s.size) {
      const uint64_t end = uint64_t{s.address} + s.size;
      if (end > (uint64_t{1} << 32))
        throw Error(fmt::format("the program's section {} [{:#x}, +{}) leaves the address space",
                                s.name, s.address, s.size));
      low = std::min<uint64_t>(low, s.address);
      high = std::max(high, end);
    }
  if (low > high) throw Error("the program has no loadable sections");
  std::vector<uint8_t> image;  // built once it is known to fit the code buffer

  Case out = c;
  for (CaseLaunch& l : out.launches) {
    CaseBuffer* code = nullptr;
    CaseBuffer* knl = nullptr;
    for (CaseBuffer& b : l.buffers) {
      if (b.base == l.start_addr) code = &b;
      if (b.base == l.metadata_base) knl = &b;
    }
    if (!code || !knl || knl->data.size() < 4)
      throw Error(fmt::format("case {}: launch {}: no code or kernel metadata buffer", c.name, l.name));
    if (low != code->base || high - low > code->alloc_size)
      throw Error(fmt::format("case {}: the program ({:#x}..{:#x}) does not fit the code buffer at {:#x}", c.name,
                              low, high, code->base));
    if (image.empty()) {
      image.assign(high - low, 0);
      for (const elf::Section& s : program.sections)
        if (s.alloc && !s.nobits && s.size)
          std::memcpy(image.data() + (s.address - low), s.bytes.data(),
                      std::min<size_t>(s.bytes.size(), s.size));
    }
    uint32_t entry = 0;
    std::memcpy(&entry, knl->data.data(), 4);
    std::string kernel = kernel_of_launch(l.name);
    if (has_listing) {
      auto name = names.find(entry);
      if (name == names.end())
        throw Error(fmt::format("case {}: launch {}: no symbol at the entry {:#010x} in {}", c.name,
                                l.name, entry, listing.string()));
      kernel = name->second;
    }
    std::optional<uint32_t> address = program.symbol_address(kernel);
    if (!address)
      throw Error(fmt::format(
          "case {}: launch {}: the program has no kernel '{}'{}", c.name, l.name, kernel,
          has_listing ? "" : " (the launch's name without its _<n>; the case has no listing)"));
    std::memcpy(knl->data.data(), &*address, 4);
    code->data = image;
    code->size = static_cast<uint32_t>(image.size());
    l.start_addr = program.entry;
  }
  return out;
}

}  // namespace ventus::cases
