// Differential fuzzing of the translating tier (src/jit): the input's bytes are the choices of
// a random-program generator (tests/qemu/random_program's scalar RV32IM/Zfinx/Zicsr
// instructions, inside shapes that stress translation: bounded loops, divergent vector
// branches with their joins, scalar branches, vector ALU and FP, scalar and vector loads and
// stores in range and out of range, several warps and workgroups, an instruction budget that
// can end inside a block). The program runs with translation off, forced (at either tier) and
// on; everything the launches leave must be the same: the fault (message, pc, instruction,
// warp), the statistics, and memory, which holds every warp's scratch area and, when the
// program ends, a dump of its scalar registers, fcsr, SIMT-stack position (the end is reached
// with the same pc only after every join) and vector registers, lane by lane. Any difference
// aborts with a report naming the warp, register, lane or address.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "random_program.h"
#include "ventus/asm.h"
#include "ventus/device.h"
#include "ventus/elf.h"

namespace {

using ventus::testing::Choices;

// Four input bytes per choice, then zeros: the program's shape follows the input's first bytes.
class InputChoices : public Choices {
 public:
  InputChoices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t next() override {
    uint32_t value = 0;
    for (int i = 0; i < 4 && offset_ < size_; ++i) value |= uint32_t{data_[offset_++]} << (8 * i);
    return value;
  }
  bool exhausted() const { return offset_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

// Each warp's memory area: a scratch area the random loads and stores reach, then the dump.
constexpr uint32_t kArea = 0x90000000;
constexpr uint32_t kScratchBytes = 1024;
constexpr uint32_t kScalarDump = kScratchBytes;         // x1..x15, fcsr
constexpr uint32_t kVectorDump = kScalarDump + 16 * 4;  // v0..v15, 32 lanes each
constexpr uint32_t kWarpBytes = kVectorDump + 16 * 32 * 4;
constexpr uint32_t kMaxWarps = 4 * 3;
constexpr uint32_t kAreaBytes = kMaxWarps * kWarpBytes;
constexpr uint32_t kUnmapped = 0x70000000;

// x1..x15 and v1..v15 are the program's; v0 is the mask. The shapes keep their own state in
// x16 (the warp's area), x17/x18 (loop counters), x19..x21 (temporaries), v20 (addresses),
// v21..v24 (the rounds and round counts of loops whose lanes leave at different rounds) and
// v31 (lane index).
constexpr unsigned kRandomRegisters = 16;
constexpr unsigned kMaxDepth = 3;

class ProgramWriter {
 public:
  explicit ProgramWriter(InputChoices& choices) : c_(choices) {}

  std::string program() {
    line("csrr x20, gidx");
    line("csrr x21, numw");
    line("mul x20, x20, x21");
    line("csrr x21, wid");
    line("add x20, x20, x21");
    line(fmt::format("li x21, {}", kWarpBytes));
    line("mul x20, x20, x21");
    line(fmt::format("li x16, {:#x}", kArea));
    line("add x16, x16, x20");
    line("vid.v v31");
    for (unsigned r = 1; r < kRandomRegisters; ++r)
      line(fmt::format("li x{}, {:#x}", r, ventus::testing::interesting_value(c_)));
    for (unsigned v = 1; v < kRandomRegisters; ++v) {
      line(fmt::format("vmv.v.x v{}, x{}", v, v));
      if (pick(2)) line(fmt::format("vmul.vv v{}, v{}, v31", v, v));  // lanes differ
    }
    line(fmt::format("vand.vi v0, v31, {}", 1 + pick(15)));
    line(fmt::format("csrwi frm, {}", pick(5)));
    const unsigned pieces = 2 + pick(10);
    for (unsigned i = 0; i < pieces; ++i) piece(0);
    dump();
    return text_;
  }

 private:
  uint32_t pick(uint32_t n) { return c_.next() % n; }
  unsigned x() { return 1 + pick(kRandomRegisters - 1); }
  unsigned v() { return 1 + pick(kRandomRegisters - 1); }
  void line(const std::string& s) { text_ += "    " + s + "\n"; }
  std::string label() { return fmt::format(".L{}", labels_++); }

  void piece(unsigned depth) {
    if (c_.exhausted()) return;
    switch (pick(depth < kMaxDepth ? 9 : 3)) {
      case 0: scalar(); break;
      case 1: vector(); break;
      case 2: memory(); break;
      case 3:
      case 4: vector_branch(depth); break;
      case 5: scalar_branch(depth); break;
      case 6: lanes_loop(depth); break;
      default: loop(depth);
    }
  }

  void pieces(unsigned depth) {
    const unsigned n = 1 + pick(3);
    for (unsigned i = 0; i < n; ++i) piece(depth + 1);
  }

  void scalar() {
    const unsigned n = 1 + pick(8);
    for (unsigned i = 0; i < n; ++i)
      line(assembly_of(ventus::testing::random_instruction(c_, kRandomRegisters)));
  }

  void vector() {
    static constexpr const char* kVV[] = {
        "vadd",  "vsub",   "vand",    "vor",   "vxor",   "vsll",    "vsrl",   "vsra",    "vmul",
        "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv",   "vremu",   "vrem",   "vminu",   "vmin",
        "vmaxu", "vmax",   "vmseq",   "vmsne", "vmsltu", "vmslt",   "vmsleu", "vmsle",   "vfadd",
        "vfsub", "vfmul",  "vfdiv",   "vfmin", "vfmax",  "vfsgnjn", "vfmacc", "vfnmsac", "vmflt"};
    static constexpr const char* kVX[] = {"vadd",  "vsub",   "vrsub", "vand",   "vxor",  "vsll",
                                          "vsra",  "vmul",   "vmulh", "vdivu",  "vdiv",  "vremu",
                                          "vrem",  "vminu",  "vmax",  "vmseq",  "vmsne", "vmsltu",
                                          "vmslt", "vmsleu", "vmsle", "vmsgtu", "vmsgt"};
    static constexpr const char* kVI[] = {"vadd",  "vrsub",  "vxor",  "vsrl",   "vand", "vmseq",
                                          "vmsne", "vmsleu", "vmsle", "vmsgtu", "vmsgt"};
    static constexpr const char* kMultiplyAdd[] = {"vmacc", "vnmsac", "vmadd", "vnmsub"};
    const unsigned n = 1 + pick(6);
    for (unsigned i = 0; i < n; ++i) {
      // fflags between fp rows: a translated block must have accrued the rows' flags by then.
      if (pick(8) == 0) line(fmt::format("csrr x{}, fflags", x()));
      const char* mask = pick(4) == 0 ? ", v0.t" : "";
      switch (pick(8)) {
        case 0:
          line(
              fmt::format("{}.vx v{}, v{}, x{}{}", kVX[pick(std::size(kVX))], v(), v(), x(), mask));
          break;
        case 1: {
          const std::string_view row = kVI[pick(std::size(kVI))];
          const int imm = static_cast<int>(pick(32)) - (row == "vsrl" ? 0 : 16);  // uimm5, simm5
          line(fmt::format("{}.vi v{}, v{}, {}{}", row, v(), v(), imm, mask));
          break;
        }
        case 2: {
          const char* row = kMultiplyAdd[pick(std::size(kMultiplyAdd))];
          if (pick(2))
            line(fmt::format("{}.vv v{}, v{}, v{}{}", row, v(), v(), v(), mask));
          else
            line(fmt::format("{}.vx v{}, x{}, v{}{}", row, v(), x(), v(), mask));
          break;
        }
        case 3:
          switch (pick(5)) {
            case 0: line(fmt::format("vmerge.vvm v{}, v{}, v{}, v0", v(), v(), v())); break;
            case 1: line(fmt::format("vmerge.vxm v{}, v{}, x{}, v0", v(), v(), x())); break;
            case 2:
              line(fmt::format("vmerge.vim v{}, v{}, {}, v0", v(), v(),
                               static_cast<int>(pick(32)) - 16));
              break;
            case 3: line(fmt::format("vmv.x.s x{}, v{}", x(), v())); break;
            default: line(fmt::format("vmv.s.x v{}, x{}", v(), x()));
          }
          break;
        default:
          line(
              fmt::format("{}.vv v{}, v{}, v{}{}", kVV[pick(std::size(kVV))], v(), v(), v(), mask));
      }
    }
  }

  // Scalar and vector accesses inside the warp's scratch area, and now and then one outside
  // every mapped page (a fault, at the same pc in both tiers).
  void memory() {
    static constexpr const char* kLoads[] = {"lw", "lh", "lhu", "lb", "lbu"};
    static constexpr const char* kStores[] = {"sw", "sh", "sh", "sb", "sb"};
    static constexpr uint32_t kAligned[] = {0x3fc, 0x3fe, 0x3fe, 0x3ff, 0x3ff};
    const uint32_t kind = pick(16);
    if (kind == 0) {
      line(fmt::format("li x20, {:#x}", kUnmapped + pick(64) * 4));
      line(fmt::format("lw x{}, 0(x20)", x()));
      return;
    }
    if (kind == 1) {  // lanes' addresses from data: most of them far outside the area
      line(fmt::format("vadd.vx v20, v{}, x16", v()));
      line(fmt::format("vsw12.v v{}, 0(v20)", v()));
      return;
    }
    if (kind < 9) {
      const uint32_t width = pick(5);
      line(fmt::format("andi x20, x{}, {:#x}", x(), kAligned[width]));
      line("add x20, x20, x16");
      line(fmt::format("{} x{}, 0(x20)", (pick(2) ? kLoads : kStores)[width], x()));
      return;
    }
    line(fmt::format("li x21, {:#x}", kScratchBytes - 4));
    line(fmt::format("vand.vx v20, v{}, x21", v()));
    line("vsrl.vi v20, v20, 2");
    line("vsll.vi v20, v20, 2");
    line("vadd.vx v20, v20, x16");
    // Words, halfwords and bytes at an offset in the lanes' words: now and then a misaligned
    // halfword (a fault, at the same pc in both tiers).
    static constexpr const char* kThreadLoads[] = {"vlw12", "vlh12", "vlhu12", "vlb12", "vlbu12"};
    static constexpr const char* kThreadStores[] = {"vsw12", "vsh12", "vsh12", "vsb12", "vsb12"};
    static constexpr uint32_t kOffsets[] = {0, 2, 2, 3, 3};  // the aligned offsets, as a mask
    const uint32_t width = pick(5);
    const uint32_t offset = pick(4) & (width != 0 && pick(16) == 0 ? 3 : kOffsets[width]);
    line(fmt::format("{}.v v{}, {}(v20)", (pick(2) ? kThreadLoads : kThreadStores)[width], v(),
                     offset));
  }

  // if/else on a per-lane condition; both paths reconverge at the join.
  void vector_branch(unsigned depth) {
    static constexpr const char* kBranches[] = {"vbeq", "vbne", "vblt", "vbge", "vbltu", "vbgeu"};
    const std::string other = label(), join = label();
    line("la x19, " + join);
    line("setrpc zero, x19, 0");
    const unsigned a = pick(3) == 0 ? 31 : v();  // v31: the lane index, a split at some lane
    line(fmt::format("{} v{}, v{}, {}", kBranches[pick(std::size(kBranches))], a, v(), other));
    pieces(depth);
    line("j " + join);
    text_ += other + ":\n";
    if (pick(2)) pieces(depth);
    text_ += join + ":\n";
    line("join zero, zero, 0");
  }

  void scalar_branch(unsigned depth) {
    static constexpr const char* kBranches[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
    const std::string skip = label();
    line(fmt::format("{} x{}, x{}, {}", kBranches[pick(std::size(kBranches))], x(), x(), skip));
    pieces(depth);
    text_ += skip + ":\n";
  }

  // A counted loop (counters x17 and x18 by nesting; deeper loops become plain pieces),
  // closed by a branch back to its top, or (as compilers often emit) tested at the top and
  // closed by a jump (a translated block loops over either).
  void loop(unsigned depth) {
    if (loops_ == 2) return pieces(depth);
    const unsigned counter = 17 + loops_++;
    const std::string top = label();
    line(fmt::format("li x{}, {}", counter, 1 + pick(6)));
    text_ += top + ":\n";
    if (pick(2) == 0) {
      pieces(depth);
      line(fmt::format("addi x{}, x{}, -1", counter, counter));
      line(fmt::format("bnez x{}, {}", counter, top));
    } else {
      const std::string exit = label();
      line(fmt::format("beqz x{}, {}", counter, exit));
      pieces(depth);
      line(fmt::format("addi x{}, x{}, -1", counter, counter));
      line(fmt::format("j {}", top));
      text_ += exit + ":\n";
    }
    --loops_;
  }

  // A loop whose lanes leave at different rounds (1 to 8 each, from a random register), as
  // compilers emit per-lane trip counts: left through a vector branch to the join after it,
  // the loop closed by a jump (spmv's rows), or closed by a vector branch back to its top with
  // the join after it (bfs's edges). Translated blocks loop over either.
  void lanes_loop(unsigned depth) {
    if (loops_ == 2) return pieces(depth);
    const unsigned rounds = 21 + 2 * loops_++, round = rounds + 1;
    const std::string top = label(), out = label();
    line(fmt::format("vand.vi v{}, v{}, 7", rounds, v()));
    line(fmt::format("vadd.vi v{}, v{}, 1", rounds, rounds));
    line(fmt::format("vmv.v.i v{}, 0", round));
    text_ += top + ":\n";
    pieces(depth);
    line(fmt::format("vadd.vi v{}, v{}, 1", round, round));
    line("la x19, " + out);
    line("setrpc zero, x19, 0");
    if (pick(2) == 0) {
      line(fmt::format("vbeq v{}, v{}, {}", round, rounds, out));
      line("j " + top);
    } else {
      line(fmt::format("vbltu v{}, v{}, {}", round, rounds, top));
    }
    text_ += out + ":\n";
    line("join zero, zero, 0");
    --loops_;
  }

  void dump() {
    for (unsigned r = 1; r < kRandomRegisters; ++r)
      line(fmt::format("sw x{}, {}(x16)", r, kScalarDump + 4 * (r - 1)));
    line("csrr x20, fcsr");
    line(fmt::format("sw x20, {}(x16)", kScalarDump + 60));
    line("vsll.vi v20, v31, 2");
    line(fmt::format("li x21, {}", kVectorDump));
    line("add x21, x21, x16");
    line("vadd.vx v20, v20, x21");
    line("li x21, 128");
    for (unsigned r = 0; r < kRandomRegisters; ++r) {
      line(fmt::format("vsw12.v v{}, 0(v20)", r));
      line("vadd.vx v20, v20, x21");
    }
    line("endprg x0, x0, x0");
  }

  InputChoices& c_;
  std::string text_;
  unsigned labels_ = 0;
  unsigned loops_ = 0;
};

struct Outcome {
  ventus::sim::LaunchResult result;
  std::vector<uint32_t> memory;
};

Outcome run(const ventus::elf::Image& image, const ventus::sim::KernelLaunch& launch,
            uint64_t budget, ventus::sim::JitMode mode) {
  ventus::sim::DeviceConfig config;
  config.instruction_budget = budget;
  ventus::sim::Device device(config);
  device.memory().map(kArea, kAreaBytes);
  for (const ventus::elf::Section& s : image.sections) {
    if (!s.alloc || s.size == 0) continue;
    device.memory().map(s.address, s.size);
    if (!s.nobits) device.memory().write(s.address, s.bytes.data(), s.bytes.size());
  }
  ventus::sim::RunOptions options;
  options.jit = mode;
  Outcome o;
  o.result = device.run(launch, options);
  o.memory.resize(kAreaBytes / 4);
  device.memory().read(kArea, o.memory.data(), kAreaBytes);
  return o;
}

std::string where(uint32_t word) {
  const uint32_t warp = word * 4 / kWarpBytes, offset = word * 4 % kWarpBytes;
  if (offset < kScalarDump) return fmt::format("warp {} scratch +{:#x}", warp, offset);
  if (offset < kVectorDump) {
    const uint32_t r = (offset - kScalarDump) / 4;
    return r == 15 ? fmt::format("warp {} fcsr", warp) : fmt::format("warp {} x{}", warp, r + 1);
  }
  const uint32_t element = (offset - kVectorDump) / 4;
  return fmt::format("warp {} v{} lane {}", warp, element / 32, element % 32);
}

std::string fault_of(const ventus::sim::LaunchResult& r) {
  if (!r.fault) return "none";
  const ventus::sim::Fault& f = *r.fault;
  return fmt::format("{} (pc {:#x}, instruction {:#010x}, workgroup {}, warp {})", f.describe(),
                     f.pc, f.instruction, f.workgroup[0], f.warp);
}

std::string differences(const Outcome& a, const Outcome& b) {
  std::string d;
  const auto field = [&](const char* name, auto x, auto y) {
    if (x != y) d += fmt::format("  {}: {} against {}\n", name, x, y);
  };
  field("fault", fault_of(a.result), fault_of(b.result));
  const ventus::sim::LaunchStats &s = a.result.stats, &t = b.result.stats;
  field("warp instructions", s.warp_instructions, t.warp_instructions);
  field("thread instructions", s.thread_instructions, t.thread_instructions);
  field("divergences", s.divergences, t.divergences);
  field("barriers", s.barriers, t.barriers);
  field("workgroups", s.workgroups, t.workgroups);
  field("decodes", s.decodes, t.decodes);
  unsigned shown = 0;
  for (size_t i = 0; i < a.memory.size(); ++i) {
    if (a.memory[i] == b.memory[i]) continue;
    if (++shown > 20) {
      d += "  (more memory differs)\n";
      break;
    }
    d += fmt::format("  {:#x} ({}): {:#010x} against {:#010x}\n", kArea + 4 * i, where(i),
                     a.memory[i], b.memory[i]);
  }
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  InputChoices choices(data, size);
  ventus::sim::KernelLaunch launch;
  launch.kernel_name = "fuzz_jit";
  launch.warps_per_workgroup = 1 + choices.next() % 4;
  static constexpr uint32_t kThreads[] = {32, 32, 30, 17, 8, 1};
  launch.threads_per_warp = kThreads[choices.next() % std::size(kThreads)];
  launch.grid[0] = 1 + choices.next() % 3;
  launch.lds_bytes = 1024;
  // Half the programs stop on a small budget: mostly inside a block.
  const uint32_t budget_choice = choices.next();
  const uint64_t budget = budget_choice % 2 == 0 ? ventus::sim::DeviceConfig{}.instruction_budget
                                                 : 20 + budget_choice / 2 % 4000;
  const std::string source = ProgramWriter(choices).program();

  ventus::elf::Image image;
  try {
    ventus::assembler::Options options;
    options.start_files = false;
    image = ventus::assembler::assemble({{"fuzz_jit.s", source}}, options);
  } catch (const std::exception& e) {  // the writer's mistake, not the input's
    std::fprintf(stderr, "fuzz_jit: the generated program does not assemble: %s\n%s", e.what(),
                 source.c_str());
    std::abort();
  }
  const Outcome off = run(image, launch, budget, ventus::sim::JitMode::Off);
  if (std::getenv("FUZZ_JIT_VERBOSE")) {  // for reading what an input runs
    std::fprintf(stderr,
                 "%u warps x %u threads, %u workgroups, budget %llu: fault %s, %llu warp "
                 "instructions, %llu divergences\n%s",
                 launch.warps_per_workgroup, launch.threads_per_warp, launch.grid[0],
                 static_cast<unsigned long long>(budget), fault_of(off.result).c_str(),
                 static_cast<unsigned long long>(off.result.stats.warp_instructions),
                 static_cast<unsigned long long>(off.result.stats.divergences), source.c_str());
  }
  for (const ventus::sim::JitMode mode :
       {ventus::sim::JitMode::Force, ventus::sim::JitMode::ForceQuick, ventus::sim::JitMode::On}) {
    const Outcome translated = run(image, launch, budget, mode);
    const std::string d = differences(off, translated);
    if (d.empty()) continue;
    std::fprintf(stderr,
                 "fuzz_jit: jit %s differs from the interpreter (%u warps x %u threads, %u "
                 "workgroups, budget %llu): interpreter against jit\n%s\nprogram:\n%s",
                 mode == ventus::sim::JitMode::Force        ? "force"
                 : mode == ventus::sim::JitMode::ForceQuick ? "force-quick"
                                                            : "on",
                 launch.warps_per_workgroup, launch.threads_per_warp, launch.grid[0],
                 static_cast<unsigned long long>(budget), d.c_str(), source.c_str());
    std::abort();
  }
  return 0;
}
