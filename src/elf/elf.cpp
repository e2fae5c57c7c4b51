// ELF32 RISC-V executables through libelf: reading (with every structural check a hostile
// file needs) and writing statically linked executables with one PT_LOAD per section.
#include "ventus/elf.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <unordered_map>

#include "ventus/error.h"

namespace ventus::elf {
namespace {

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};
using ElfHandle = std::unique_ptr<Elf, ElfCloser>;

void init_libelf() {
  static const bool ok = elf_version(EV_CURRENT) != EV_NONE;
  if (!ok) throw Error(fmt::format("libelf initialisation failed: {}", elf_errmsg(-1)));
}

std::string libelf_error() {
  return elf_errmsg(-1) ? elf_errmsg(-1) : "unknown libelf error";
}

// Prefer symbols that name code or data over bare labels when several share an address.
int symbol_rank(const Symbol& s) {
  return (s.function ? 4 : 0) + (s.global ? 2 : 0) + (s.object ? 1 : 0);
}

}  // namespace

std::optional<uint32_t> Image::symbol_address(std::string_view name) const {
  for (const Symbol& s : symbols)
    if (s.name == name) return s.value;
  return std::nullopt;
}

const Symbol* Image::symbol_at(uint32_t address) const {
  const Symbol* best = nullptr;
  for (const Symbol& s : symbols) {
    if (s.section.empty() || s.value > address) continue;
    if (!best || s.value > best->value ||
        (s.value == best->value && symbol_rank(s) > symbol_rank(*best)))
      best = &s;
  }
  return best;
}

Image read(std::span<const uint8_t> bytes, const std::string& name) {
  init_libelf();
  // libelf wants a mutable buffer and keeps pointing into it while the handle lives.
  std::vector<char> buffer(bytes.begin(), bytes.end());
  if (buffer.size() < EI_NIDENT || std::string_view(buffer.data(), 4) !=
                                       "\x7f"
                                       "ELF")
    throw Error(fmt::format("{}: not an ELF file (bad magic number)", name));
  ElfHandle e(elf_memory(buffer.data(), buffer.size()));
  if (!e || elf_kind(e.get()) != ELF_K_ELF)
    throw Error(fmt::format("{}: not an ELF file ({})", name, libelf_error()));
  if (buffer[EI_CLASS] != ELFCLASS32)
    throw Error(fmt::format("{}: not a 32-bit ELF file (EI_CLASS = {})", name, +buffer[EI_CLASS]));
  if (buffer[EI_DATA] != ELFDATA2LSB)
    throw Error(fmt::format("{}: not a little-endian ELF file", name));
  const Elf32_Ehdr* ehdr = elf32_getehdr(e.get());
  if (!ehdr) throw Error(fmt::format("{}: unreadable ELF header ({})", name, libelf_error()));
  if (ehdr->e_machine != EM_RISCV)
    throw Error(fmt::format("{}: not a RISC-V ELF file (e_machine = {})", name, ehdr->e_machine));

  // The header tables must lie inside the file: libelf reads a truncated file as one
  // without sections, and a program of nothing is no answer to a damaged file.
  const auto table_fits = [&](uint64_t offset, uint64_t count, uint64_t entry_size) {
    return offset <= buffer.size() && count * entry_size <= buffer.size() - offset;
  };
  if (ehdr->e_phnum > 0 && (ehdr->e_phentsize != sizeof(Elf32_Phdr) ||
                            !table_fits(ehdr->e_phoff, ehdr->e_phnum, ehdr->e_phentsize)))
    throw Error(
        fmt::format("{}: program header table (offset {:#x}, {} entries of {} bytes) does not fit "
                    "in the file ({} bytes)",
                    name, ehdr->e_phoff, ehdr->e_phnum, ehdr->e_phentsize, buffer.size()));
  if (ehdr->e_shoff == 0) throw Error(fmt::format("{}: no section header table", name));
  // libelf hands out headers in place: a misaligned table would be read through misaligned
  // pointers. Linkers always align both tables to 4 bytes.
  if (ehdr->e_shoff % 4 != 0 || (ehdr->e_phnum > 0 && ehdr->e_phoff % 4 != 0))
    throw Error(
        fmt::format("{}: header table offset not 4-byte aligned (section headers at {:#x}, program "
                    "headers at {:#x})",
                    name, ehdr->e_shoff, ehdr->e_phoff));
  // e_shnum = 0 with a table means the count is in section 0's header: check that one.
  if (ehdr->e_shentsize != sizeof(Elf32_Shdr) ||
      !table_fits(ehdr->e_shoff, std::max<uint64_t>(ehdr->e_shnum, 1), ehdr->e_shentsize))
    throw Error(
        fmt::format("{}: section header table (offset {:#x}, {} entries of {} bytes) does not fit "
                    "in the file ({} bytes)",
                    name, ehdr->e_shoff, ehdr->e_shnum, ehdr->e_shentsize, buffer.size()));

  size_t section_count = 0, shstrndx = 0;
  if (elf_getshdrnum(e.get(), &section_count) != 0)
    throw Error(fmt::format("{}: unreadable section count ({})", name, libelf_error()));
  if (section_count > 0 && elf_getshdrstrndx(e.get(), &shstrndx) != 0)
    throw Error(fmt::format("{}: unreadable section name table index ({})", name, libelf_error()));
  if (section_count > 0 && shstrndx >= section_count)
    throw Error(fmt::format("{}: section name table index {} out of range (only {} sections)", name,
                            shstrndx, section_count));

  Image image;
  image.entry = ehdr->e_entry;
  std::unordered_map<size_t, std::string> section_names;
  Elf_Scn* symtab = nullptr;
  for (Elf_Scn* scn = elf_nextscn(e.get(), nullptr); scn; scn = elf_nextscn(e.get(), scn)) {
    const size_t index = elf_ndxscn(scn);
    const Elf32_Shdr* shdr = elf32_getshdr(scn);
    if (!shdr)
      throw Error(
          fmt::format("{}: section {}: unreadable header ({})", name, index, libelf_error()));
    const char* sname = elf_strptr(e.get(), shstrndx, shdr->sh_name);
    if (!sname)
      throw Error(fmt::format("{}: section {}: name offset {} outside the section name table", name,
                              index, shdr->sh_name));
    section_names[index] = sname;
    if (shdr->sh_type == SHT_SYMTAB) {
      if (symtab) throw Error(fmt::format("{}: more than one symbol table", name));
      symtab = scn;
      continue;
    }
    if (shdr->sh_type == SHT_STRTAB || shdr->sh_type == SHT_NULL) continue;
    Section s;
    s.name = sname;
    s.address = shdr->sh_addr;
    s.size = shdr->sh_size;
    s.align = std::max<uint32_t>(1, shdr->sh_addralign);
    s.alloc = shdr->sh_flags & SHF_ALLOC;
    s.exec = shdr->sh_flags & SHF_EXECINSTR;
    s.write = shdr->sh_flags & SHF_WRITE;
    s.nobits = shdr->sh_type == SHT_NOBITS;
    if (!s.nobits) {
      if (shdr->sh_offset > buffer.size() || shdr->sh_size > buffer.size() - shdr->sh_offset)
        throw Error(
            fmt::format("{}: section '{}' (offset {:#x}, size {:#x}) extends past the end of "
                        "the file ({} bytes)",
                        name, s.name, shdr->sh_offset, shdr->sh_size, buffer.size()));
      const auto* begin = reinterpret_cast<const uint8_t*>(buffer.data()) + shdr->sh_offset;
      s.bytes.assign(begin, begin + shdr->sh_size);
    }
    image.sections.push_back(std::move(s));
  }

  if (symtab) {
    const Elf32_Shdr* shdr = elf32_getshdr(symtab);
    if (shdr->sh_link >= section_count)
      throw Error(fmt::format("{}: symbol table names string table {} (only {} sections)", name,
                              shdr->sh_link, section_count));
    Elf_Data* data = elf_getdata(symtab, nullptr);
    if (!data || (data->d_size > 0 && !data->d_buf))
      throw Error(fmt::format("{}: unreadable symbol table ({})", name, libelf_error()));
    if (data->d_size % sizeof(Elf32_Sym) != 0)
      throw Error(fmt::format("{}: symbol table size {} is not a multiple of {}", name,
                              data->d_size, sizeof(Elf32_Sym)));
    const size_t count = data->d_size / sizeof(Elf32_Sym);
    for (size_t i = 1; i < count; ++i) {
      Elf32_Sym sym;
      std::memcpy(&sym, static_cast<const char*>(data->d_buf) + i * sizeof(Elf32_Sym), sizeof sym);
      const unsigned type = ELF32_ST_TYPE(sym.st_info);
      if (type == STT_SECTION || type == STT_FILE) continue;
      const char* sname = elf_strptr(e.get(), shdr->sh_link, sym.st_name);
      if (!sname)
        throw Error(fmt::format("{}: symbol {}: name offset {} outside the string table", name, i,
                                sym.st_name));
      Symbol s;
      s.name = sname;
      s.value = sym.st_value;
      s.size = sym.st_size;
      s.function = type == STT_FUNC;
      s.object = type == STT_OBJECT;
      s.global = ELF32_ST_BIND(sym.st_info) != STB_LOCAL;
      if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
        auto it = section_names.find(sym.st_shndx);
        if (it == section_names.end())
          throw Error(fmt::format("{}: symbol '{}' refers to section {} (only {} sections)", name,
                                  s.name, sym.st_shndx, section_count));
        s.section = it->second;
      }
      image.symbols.push_back(std::move(s));
    }
    std::stable_sort(image.symbols.begin(), image.symbols.end(),
                     [](const Symbol& a, const Symbol& b) { return a.value < b.value; });
  }
  return image;
}

Image read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open file", path));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return read(bytes, path);
}

std::vector<uint8_t> write(const Image& image) {
  init_libelf();
  const int fd = memfd_create("ventus-elf", MFD_CLOEXEC);
  if (fd < 0) throw Error("cannot create an in-memory file for the ELF writer");
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } fd_closer{fd};
  ElfHandle e(elf_begin(fd, ELF_C_WRITE, nullptr));
  if (!e) throw Error(fmt::format("ELF writer: {}", libelf_error()));
  Elf32_Ehdr* ehdr = elf32_newehdr(e.get());
  ehdr->e_ident[EI_DATA] = ELFDATA2LSB;
  ehdr->e_machine = EM_RISCV;
  ehdr->e_type = ET_EXEC;
  ehdr->e_version = EV_CURRENT;
  ehdr->e_entry = image.entry;
  ehdr->e_flags = 0;

  const auto loadable = [](const Section& s) { return s.alloc && s.size > 0; };
  const size_t segment_count =
      std::count_if(image.sections.begin(), image.sections.end(), loadable);
  Elf32_Phdr* phdrs = segment_count ? elf32_newphdr(e.get(), segment_count) : nullptr;

  std::string shstrtab(1, '\0');
  const auto add_name = [&](const std::string& n) {
    const auto offset = static_cast<uint32_t>(shstrtab.size());
    shstrtab += n;
    shstrtab += '\0';
    return offset;
  };
  const auto new_section = [&](const std::string& n, uint32_t type, uint32_t flags, uint32_t addr,
                               const void* bytes, size_t size, uint32_t align, Elf_Type data_type) {
    Elf_Scn* scn = elf_newscn(e.get());
    Elf_Data* d = elf_newdata(scn);
    d->d_buf = const_cast<void*>(bytes);
    d->d_size = size;
    d->d_type = data_type;
    d->d_align = align;
    d->d_version = EV_CURRENT;
    Elf32_Shdr* shdr = elf32_getshdr(scn);
    shdr->sh_name = add_name(n);
    shdr->sh_type = type;
    shdr->sh_flags = flags;
    shdr->sh_addr = addr;
    shdr->sh_addralign = align;
    return scn;
  };

  std::unordered_map<std::string, size_t> section_index;
  std::vector<Elf_Scn*> section_scns;
  for (const Section& s : image.sections) {
    const uint32_t flags =
        (s.alloc ? SHF_ALLOC : 0) | (s.exec ? SHF_EXECINSTR : 0) | (s.write ? SHF_WRITE : 0);
    Elf_Scn* scn = new_section(s.name, s.nobits ? SHT_NOBITS : SHT_PROGBITS, flags, s.address,
                               s.nobits ? nullptr : s.bytes.data(),
                               s.nobits ? s.size : s.bytes.size(), s.align, ELF_T_BYTE);
    section_index[s.name] = elf_ndxscn(scn);
    section_scns.push_back(scn);
  }

  // Symbol table: the null symbol, locals, then globals (sh_info = first global).
  std::string strtab(1, '\0');
  std::vector<Elf32_Sym> syms(1, Elf32_Sym{});
  for (int pass = 0; pass < 2; ++pass)
    for (const Symbol& s : image.symbols) {
      if (s.global != (pass == 1)) continue;
      Elf32_Sym sym{};
      sym.st_name = static_cast<uint32_t>(strtab.size());
      strtab += s.name;
      strtab += '\0';
      sym.st_value = s.value;
      sym.st_size = s.size;
      const unsigned type = s.function ? STT_FUNC : s.object ? STT_OBJECT : STT_NOTYPE;
      sym.st_info = ELF32_ST_INFO(s.global ? STB_GLOBAL : STB_LOCAL, type);
      auto it = section_index.find(s.section);
      sym.st_shndx = it == section_index.end() ? SHN_ABS : static_cast<uint16_t>(it->second);
      syms.push_back(sym);
    }
  const auto first_global =
      static_cast<uint32_t>(1 + std::count_if(image.symbols.begin(), image.symbols.end(),
                                              [](auto& s) { return !s.global; }));
  Elf_Scn* symscn = new_section(".symtab", SHT_SYMTAB, 0, 0, syms.data(),
                                syms.size() * sizeof(Elf32_Sym), 4, ELF_T_SYM);
  Elf_Scn* strscn =
      new_section(".strtab", SHT_STRTAB, 0, 0, strtab.data(), strtab.size(), 1, ELF_T_BYTE);
  Elf32_Shdr* symhdr = elf32_getshdr(symscn);
  symhdr->sh_link = static_cast<uint32_t>(elf_ndxscn(strscn));
  symhdr->sh_info = first_global;
  symhdr->sh_entsize = sizeof(Elf32_Sym);
  // The name of .shstrtab itself must be in the table before its data is attached.
  const uint32_t shstrtab_name = add_name(".shstrtab");
  Elf_Scn* shstrscn = elf_newscn(e.get());
  Elf_Data* d = elf_newdata(shstrscn);
  d->d_buf = shstrtab.data();
  d->d_size = shstrtab.size();
  d->d_type = ELF_T_BYTE;
  d->d_align = 1;
  d->d_version = EV_CURRENT;
  Elf32_Shdr* shhdr = elf32_getshdr(shstrscn);
  shhdr->sh_name = shstrtab_name;
  shhdr->sh_type = SHT_STRTAB;
  shhdr->sh_addralign = 1;
  ehdr->e_shstrndx = static_cast<uint16_t>(elf_ndxscn(shstrscn));

  if (elf_update(e.get(), ELF_C_NULL) < 0)
    throw Error(fmt::format("ELF writer: {}", libelf_error()));
  size_t p = 0;
  for (size_t i = 0; i < image.sections.size(); ++i) {
    const Section& s = image.sections[i];
    if (!loadable(s)) continue;
    const Elf32_Shdr* shdr = elf32_getshdr(section_scns[i]);
    Elf32_Phdr& ph = phdrs[p++];
    ph.p_type = PT_LOAD;
    ph.p_offset = shdr->sh_offset;
    ph.p_vaddr = ph.p_paddr = s.address;
    ph.p_filesz = s.nobits ? 0 : s.size;
    ph.p_memsz = s.size;
    ph.p_flags = PF_R | (s.write ? PF_W : 0) | (s.exec ? PF_X : 0);
    ph.p_align = s.align;
  }
  if (segment_count) elf_flagphdr(e.get(), ELF_C_SET, ELF_F_DIRTY);
  if (elf_update(e.get(), ELF_C_WRITE) < 0)
    throw Error(fmt::format("ELF writer: {}", libelf_error()));
  e.reset();

  const off_t size = lseek(fd, 0, SEEK_END);
  std::vector<uint8_t> out(size > 0 ? static_cast<size_t>(size) : 0);
  if (pread(fd, out.data(), out.size(), 0) != static_cast<ssize_t>(out.size()))
    throw Error("ELF writer: cannot read back the written file");
  return out;
}

void write_file(const std::string& path, const Image& image) {
  const std::vector<uint8_t> bytes = write(image);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(fmt::format("{}: cannot open for writing", path));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();  // the bytes still buffered are written here: its failure is a failed write
  if (!out) throw Error(fmt::format("{}: write failed", path));
}

}  // namespace ventus::elf
