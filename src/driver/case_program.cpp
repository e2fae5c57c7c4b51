// Running a hardware case with a different program: the case's inputs and expected
// results check code compiled by this project (docs/compiler.md).
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <map>

#include "ventus/case.h"
#include "ventus/error.h"

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
  std::ifstream in(listing);
  if (!in) throw Error(fmt::format("{}: cannot read the listing", listing.string()));
  std::map<uint32_t, std::string> symbols;
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 13 || line.compare(8, 2, " <") != 0 || line.compare(line.size() - 2, 2, ">:") != 0) continue;
    if (line.find_first_not_of("0123456789abcdef") != 8) continue;
    std::string name = line.substr(10, line.size() - 12);
    if (name.empty() || name[0] == '.') continue;
    symbols[static_cast<uint32_t>(std::stoul(line.substr(0, 8), nullptr, 16))] = name;
  }
  if (in.bad()) throw Error(fmt::format("{}: reading the listing failed", listing.string()));
  return symbols;
}

}  // namespace

Case with_program(const Case& c, const elf::Image& program, const std::filesystem::path& listing) {
  const std::map<uint32_t, std::string> names = listing_symbols(listing);
  // The program's memory image from its lowest loadable address.
  uint32_t low = ~0u, high = 0;
  for (const elf::Section& s : program.sections)
    if (s.alloc && s.size) {
      low = std::min(low, s.address);
      high = std::max(high, s.address + s.size);
    }
  if (low > high) throw Error("the program has no loadable sections");
  std::vector<uint8_t> image(high - low, 0);
  for (const elf::Section& s : program.sections)
    if (s.alloc && !s.nobits) std::memcpy(image.data() + (s.address - low), s.bytes.data(), s.bytes.size());

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
    if (low != code->base || image.size() > code->alloc_size)
      throw Error(fmt::format("case {}: the program ({:#x}..{:#x}) does not fit the code buffer at {:#x}", c.name,
                              low, high, code->base));
    uint32_t entry = 0;
    std::memcpy(&entry, knl->data.data(), 4);
    auto name = names.find(entry);
    if (name == names.end())
      throw Error(fmt::format("case {}: launch {}: no symbol at the entry {:#010x} in {}", c.name, l.name, entry,
                              listing.string()));
    std::optional<uint32_t> address = program.symbol_address(name->second);
    if (!address) throw Error(fmt::format("case {}: the program has no kernel '{}'", c.name, name->second));
    std::memcpy(knl->data.data(), &*address, 4);
    code->data = image;
    code->size = static_cast<uint32_t>(image.size());
    l.start_addr = program.entry;
  }
  return out;
}

}  // namespace ventus::cases
