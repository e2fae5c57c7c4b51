// The translating tier (docs/design.md, "Execution tiers"): hot straight-line blocks of
// decoded instructions become host code through LLVM's ORC JIT. The common integer ALU
// (scalar and 32-bit vector) and the common fp32 vector arithmetic (emit_fp32.h) are inlined
// as IR on the warp's state; every other instruction is a call to its own semantics
// function, so a block does exactly what the interpreter does.
// Faults never unwind through translated code: the call thunk keeps the exception and the
// block returns where it stopped; Sm::run_block rethrows it at that instruction's pc.
// Translations belong to the device (all SMs and host threads share them); each SM keeps its
// own index of the blocks it may run (Sm::jit_blocks_).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "decode_cache.h"
#include "ventus/device.h"
#include "warp.h"

namespace ventus::jit {

// How a block's IR is compiled. Quick: LLVM's -O0 code generation (FastISel, the fast register
// allocator), about 40 % of the CPU of Optimized (-O3) for code that runs 15-45 % slower;
// what the compile thread first compiles, so that short launches get their blocks early.
// Optimized: what a block that stays hot is compiled again with (Translator::tier_up), and what
// JitMode::Force compiles at once.
enum class Tier : uint8_t { Quick, Optimized };

// A translated block: insns[0..size) from start_pc on, in program order. It owns copies of
// the decoded instructions it runs, so it does not depend on any SM's decode cache.
struct Block {
  // What a run of the block counts besides its result, for Sm::run_block. rounds: the rounds
  // completed by a block that loops. repeats: joins run that are not in the prefix sums (a
  // join that popped its own reconvergence entry runs again at once, as the interpreter goes on
  // at its own pc; the join after a loop's vector branch, Block::join_after_loop), less the
  // joins in them that did not run (a loop over the lanes that goes on at its jump back): a
  // warp and a thread instruction each, added modulo 2^64. The mask changes when a vector branch
  // splits the warp or a join pops inside the block (the block goes on when the warp goes on at
  // its next entry, else it leaves); change: the sum over these of the change d in active lanes;
  // change_at: the sum of d times where it applies, in vector entries from entry 0 of the first
  // round (rounds completed * before(size).vector + before(k + 1).vector after entry k).
  struct Tally {
    uint64_t rounds = 0;
    uint64_t repeats = 0;
    int64_t change = 0;
    int64_t change_at = 0;
  };
  // Runs the entries in order while the next one fits in `budget` warp instructions (the
  // caller checks that the first one does). A block that loops (Block::loops) goes back to its
  // first entry each time its last entry, a scalar branch or a jal to its start, is taken.
  // Returns 4 * done + 2 * left + faulted: done entries of the last round completed; faulted:
  // insns[done] raised the exception left in *error. Without a fault, insns[done - 1] is the
  // last one executed (none when done is 0: the budget ended at the start of a round or before
  // a repeat of entry 0); left: the warp goes on at ctx->next_pc (a called instruction changed
  // the flow, next_pc or the SIMT mask, or a vector branch or join sent the warp elsewhere than
  // exits[done - 1].next_pc), else at exits[done - 1].next_pc.
  // Both bits (jumped): it is a branch that every active lane took without running its
  // semantics (the warp goes on at exits[done - 1].taken_pc).
  // It starts at entry `first` (0 unless a turn ended inside the block, in the middle of a
  // round): then budget is what is left plus before(first).warp, as if entries 0 .. first - 1
  // had run, and the partial round counts in tally->rounds as a round when the block loops.
  using Fn = uint32_t (*)(sim::Exec* ctx, sim::Warp* warp, std::exception_ptr* error,
                          uint64_t budget, Tally* tally, uint32_t first);
  // The low two bits of Fn's result.
  static constexpr uint32_t kWentOn = 0, kFaulted = 1, kLeft = 2, kJumped = 3;
  // The whole result when the block did not run: no entry done, nothing changed, because the
  // warp is not at SEW=32 and LMUL=1, which its inline vector rows need (checked once where
  // it starts); the interpreter runs the entries. (A block that left has done >= 1.)
  static constexpr uint32_t kNotRun = kLeft;
  // The code, compiled at `tier`; a Quick block's is replaced by Optimized code when it stays
  // hot, while SMs may be running it (both do exactly the same). tier and optimizing belong to
  // the translator (its mutex).
  std::atomic<Fn> fn = nullptr;
  Tier tier = Tier::Optimized;
  bool optimizing = false;  // queued for or in its Optimized compile
  // Starts counted toward its next compile: those asked with before its first
  // (Translator::find_or_translate), those reported to tier_up before its Optimized one.
  uint64_t paying_starts = 0;
  // Prefix sums over the first k entries: warp instructions, thread instructions of scalar
  // entries and prefixes, and vector entries (one thread instruction per active lane each;
  // Tally says where the mask changed).
  struct Before {
    uint64_t warp = 0, scalar_lanes = 0, vector = 0;
  };
  // What Sm::run_block needs when the block leaves after entry k, side by side on one or two
  // cache lines per exit: the counts of entries 0..k (before(k + 1)); where the entry goes on
  // when it runs in sequence (next_pc: the next instruction, a jal's target, or in a loop over
  // the active lanes, the join after its vector branch and the jump back after that join,
  // find_or_translate's next_in_trace; a guarded entry that goes elsewhere leaves); and for a
  // branch, where it goes when taken (its own pc, after any prefix, plus imm).
  struct Exit {
    Before counts;
    uint32_t next_pc = 0;
    uint32_t taken_pc = 0;
  };
  std::vector<Exit> exits;  // one per entry
  // The counts of the first k entries, k = 0..size (a reference: copied, GCC moved the struct
  // through the stack with a vector store that the next field's load had to wait for).
  const Before& before(size_t k) const { return k == 0 ? kNoEntries : exits[k - 1].counts; }
  static constexpr Before kNoEntries{0, 0, 0};
  std::vector<sim::CachedInsn> insns;
  std::vector<uint32_t> pcs;  // of each entry (of its prefix when prefixed)
  // 1: executed through its semantics function (a guarded entry, is_guarded, is 0: it runs
  // inline).
  std::vector<uint8_t> called;
  // For a block that loops through a vector branch (loops) whose pc + 4 holds a join (a
  // compiled loop's exit), that join, at pcs.back() + 4: where the lanes that leave run first,
  // it runs inline as their first instruction and pops them in favour of those that stay, and
  // the next round starts. The code relies on it without running it as an entry: fit and
  // same_code check it as they check the entries.
  std::optional<sim::CachedInsn> join_after_loop;
  // The last entry is a scalar or vector branch or a jal to the block's start: the translation
  // loops inside while it is taken (aluloop's body; for a vector branch, while the lanes that
  // stay in the loop run first), rather than returning to the interpreter each round.
  bool loops = false;
  // The code it was translated from lies in [first_byte, first_byte + code_bytes).
  uint32_t first_byte = 0;
  uint64_t code_bytes = 0;
  // Whether entry `first` fits in `budget` warp instructions (then Fn may start there).
  bool starts_within(uint64_t budget, size_t first = 0) const {
    return exits[first].counts.warp - before(first).warp <= budget;
  }
  // Whether an SM whose decode cache is `cache` may run this block: Runs when every
  // instruction is decoded there from the same words; NotDecodedYet when one is not decoded
  // there yet; OtherCode when one was decoded from other words (code written in between).
  enum class Fit : uint8_t { Runs, NotDecodedYet, OtherCode };
  Fit fit(const sim::DecodeCache& cache) const;
  // Whether memory holds the words the block was translated from, at the same pcs.
  bool same_code(const sim::Memory& memory) const;
};

// What the translator says about a pc: a block, or none; settled: the answer holds for the
// rest of the launch (false: ask again later, more of the code may be decoded by then).
// compiling: the block is queued for the compile thread and appears there (an acquire load,
// no lock) once it is compiled; it stays null when the compile fails or is discarded.
struct Translation {
  const Block* block = nullptr;
  bool settled = false;
  const std::atomic<const Block*>* compiling = nullptr;
};

// The translations of one device's code, shared by all its workgroup slots and host threads
// (docs/simulator.md, "Translation"). Thread-safe; blocks stay valid until begin_launch.
// Blocks are compiled either by the asking thread, at once, or (a launch that compiles in the
// background) on the translator's compile thread while the asking SM goes on interpreting.
// The compile thread is joined by the destructor, or at process exit for a translator that
// is never destroyed (the OpenCL library's device), before LLVM's static objects are.
class Translator {
 public:
  Translator();
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // Before a launch, while no SM runs: drops every translation (and every queued or
  // compiling block) when any block came from writable memory (which the host or a kernel may
  // have written) or, read-only memory having changed since, no longer holds its words
  // (Block::same_code); translated read-only code is kept from launch to launch. mode: On
  // compiles this launch's blocks on the compile thread (started at the first one), at
  // Tier::Quick, and again at Tier::Optimized those that stay hot; Force compiles them at once
  // in the SM that asks for them, at Tier::Optimized (ForceQuick: at Tier::Quick, never
  // again). every_core_busy: the launch simulates on as many host threads as the
  // machine has cores, so the compile thread's CPU comes out of the launch: until end_launch, it
  // compiles only while its compiles' CPU time stays within kCompileShare of the launch's time so
  // far.
  void begin_launch(const sim::Memory& memory, sim::JitMode mode, bool every_core_busy);
  // After the launch: the compile thread compiles freely until the next begin_launch.
  void end_launch();
  // Counts the begin_launch calls that dropped translations or refusals: while it stays the
  // same, every block, refusal and Translation::compiling an SM was given stays valid (read
  // between launches, by the thread that calls begin_launch).
  uint64_t epoch() const { return epoch_; }

  // While every core simulates, compiles may take this share of the launch's wall time (one
  // compile may overrun it, and it waits): the launch then runs at worst about this much
  // slower than when interpreted, and every block queued gets compiled within a long launch.
  static constexpr unsigned kCompileShare = 10;  // one tenth

  // The translation of the block at pc, translated from `cache` when there is none yet. No
  // block, settled: nothing worth translating starts there; not settled: not all of its
  // instructions are decoded in `cache` yet (the interpreter decodes an instruction when it
  // first executes it, and a store before that must be seen), or it is being compiled in the
  // background (Translation::compiling), or the compile queue is full. The caller checks
  // Block::fit against its own decode cache. starts: the block's starts on the asking SM since
  // it last asked. While every core simulates (begin_launch's every_core_busy), a block is
  // queued for the compile thread only once the starts asked with, over all SMs, have cost
  // about as much CPU as its compile will (rent or buy: a block that stops running sooner is
  // never compiled, one that runs on costs at most twice what compiling it at once would).
  Translation find_or_translate(uint32_t pc, const sim::DecodeCache& cache, uint64_t starts);

  // Starts of a block on one SM, after those that had it translated (over the device's
  // launches; a block that loops counts each round as a start, Sm::count_rounds), reported to
  // tier_up at a time. When the compile thread has a core of its own (not every core
  // simulates), the first report queues a Quick block for its Optimized compile: the blocks of
  // a short run stay quick, those of longer ones get the faster code for the rest of it. While
  // every core simulates, the reports of all SMs must first add up to the starts whose savings
  // pay for the compile (rent or buy, as in find_or_translate).
  static constexpr uint32_t kTierUpStarts = 1000;
  // What compile threads need once per process before the first one starts
  // (sim::prepare_translation, CompileThreads): done here, in the calling thread.
  static void prepare_process();
  // The block has started `starts` more times on an SM (kTierUpStarts, but for a block dropped
  // and translated again, Sm::jit_install): a Quick block is queued for its Optimized compile
  // (after every first compile queued), once, when it has paid for it. Returns whether the
  // SM should report its next kTierUpStarts (false: queued, optimized already, or this launch
  // does not compile in the background).
  bool tier_up(const Block& block, uint64_t starts);

 private:
  friend class CompileThreads;  // starts and stops compile threads (translator.cpp)
  // Stops the compile thread after the compile in flight, if any, and drops the queue; later
  // blocks are compiled by the asking thread.
  void stop_compiling();
  void compile_queued();  // the compile thread
  // Compiles the first queued block with mutex_ released (lock holds it before and after)
  // and installs it unless begin_launch dropped its generation meanwhile.
  void compile_next(std::unique_lock<std::mutex>& lock);
  Block::Fn compile(const Block& block, Tier tier);

  std::mutex mutex_;  // everything below but the engine; a compile in the asking thread holds it
  std::unordered_map<uint32_t, std::unique_ptr<Block>> blocks_;  // null: refused
  // Blocks built but not queued yet: they have not paid for their compile (find_or_translate).
  std::unordered_map<uint32_t, std::unique_ptr<Block>> unpaid_;
  uint64_t read_only_generation_ = ~uint64_t{0};
  uint64_t epoch_ = 0;          // epoch()
  bool in_background_ = false;  // this launch's (begin_launch)
  // Compiles take at most a kCompileShare of the launch's time since launch_start_, counted
  // in the compile thread's CPU time (spent_), while budgeted_ (every_core_busy, until
  // end_launch).
  bool budgeted_ = false;
  std::chrono::steady_clock::time_point launch_start_;
  std::chrono::nanoseconds spent_{0};
  // Blocks waiting for the compile thread (at most kMaxQueued) and the one it compiles;
  // compiling_: by start pc, where each of them appears once compiled. generation_ counts
  // begin_launch's drops: a compile that ends in a later generation is discarded.
  std::deque<std::unique_ptr<Block>> queue_;
  const Block* in_flight_ = nullptr;
  // Quick blocks that stayed hot (tier_up), waiting for their Optimized compile; they stay in
  // blocks_ meanwhile, which begin_launch drops only after the compile in flight.
  std::deque<Block*> tier_up_queue_;
  Tier at_once_ = Tier::Optimized;  // the tier of the asking thread's compiles (begin_launch)
  std::unordered_map<uint32_t, std::atomic<const Block*>> compiling_;
  uint64_t generation_ = 0;
  // A caller is starting or has started the compile thread; no_compile_thread_: there is none
  // from now on (it stopped, or could not be started), blocks are compiled by the asking thread.
  bool compile_thread_claimed_ = false;
  bool no_compile_thread_ = false;
  std::condition_variable queued_;
  std::thread compiler_;     // started and joined under CompileThreads' lock
  std::mutex engine_mutex_;  // LLVM's objects (taken after mutex_ where both are held)
  struct Engine;             // LLVM's objects, created at the first translation
  std::unique_ptr<Engine> engine_;
};

// Blocks translated by every Translator of the process so far, and of those, compiled again
// at Tier::Optimized (for tests and statistics).
uint64_t blocks_translated_in_process();
uint64_t blocks_tiered_up_in_process();

// The starts of the block, over all SMs, whose savings pay for its compile at `tier`: from
// there on, compiling it costs less than going on without (exposed for tests).
uint64_t break_even_starts(const Block& block, Tier tier);

// Whether the entry is executed as inline IR rather than a call (exposed for tests).
bool is_inlined(const sim::CachedInsn& entry);
// Whether the entry is a branch, vector branch or join run inline (the SIMT stack's pushes
// and pops as IR on sim::SimtStack, by sim::split_warp's and sim::join_pops's rules), whose
// block goes on only where the warp goes on at its next entry (Block::Exit::next_pc).
bool is_guarded(const sim::CachedInsn& entry);
// Whether the entry only reads a CSR into rd (csrr and the forms that write nothing): it is
// inlined when the CSR is a warp field (sim::csr_field).
bool is_csr_read(const sim::CachedInsn& entry);
// Whether the entry is a csr instruction that writes its CSR: it is inlined when the CSR is a
// warp field that takes the value as it is (sim::csr_written_field).
bool is_csr_write(const sim::CachedInsn& entry);
// Whether a block ends after the entry (the next one may start a block: the interpreter looks
// for a translation there).
bool ends_block(const sim::CachedInsn& entry);
// Whether the entry is a jump forward that blocks go on through (an inlined jal): its target
// is not where a block starts. A jump back may close a loop, whose head starts a block.
bool jumps_within_block(const sim::CachedInsn& entry);

}  // namespace ventus::jit
