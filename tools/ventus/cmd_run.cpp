// ventus run: run one kernel on the simulated device with arguments from the command line.
// Built when the driver (and with it the simulator) is: VENTUS_HAVE_DRIVER.
#ifdef VENTUS_HAVE_DRIVER
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <thread>

#include "arguments.h"
#include "commands.h"
#include "timing_report.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

using ventus::Error;
using ventus::cli::KernelArgument;
using ventus::cli::OutputFile;
namespace rt = ventus::rt;

// --trace-limit's default: enough for about 30 million traced instructions.
constexpr uint64_t kDefaultTraceLimit = uint64_t{4} << 30;

rt::Program load_program(const std::vector<std::string>& inputs) {
  const std::vector<uint8_t> head = ventus::read_input_bytes(inputs[0], ventus::kToolInput);
  if (ventus::elf::has_magic(head)) {
    if (inputs.size() != 1)
      throw Error("an ELF program must be the only input (assembly files are linked together)");
    return rt::Program::from_elf_bytes(head, inputs[0]);
  }
  // Assembly text never holds a NUL byte; anything that does is some other binary file.
  std::vector<ventus::assembler::SourceFile> sources;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string text = i == 0 ? std::string(head.begin(), head.end())
                              : ventus::read_input_file(inputs[i], ventus::kToolInput);
    if (text.find('\0') != std::string::npos)
      throw Error(
          fmt::format("{}: neither an ELF file nor assembly text (it holds NUL bytes)", inputs[i]));
    sources.push_back({inputs[i], std::move(text)});
  }
  return rt::Program::from_assembly(sources);
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
  uint64_t trace_limit = kDefaultTraceLimit;
  uint32_t sms = ventus::sim::DeviceConfig{}.num_sms;
  uint32_t warps = ventus::sim::DeviceConfig{}.warp_slots_per_sm;
  uint32_t threads = 32;
  unsigned host_threads = 1;
  uint32_t lds_per_sm = ventus::sim::DeviceConfig{}.lds_bytes_per_sm;
  uint32_t workgroup_slots = ventus::sim::DeviceConfig{}.max_workgroups_per_sm;
  uint64_t budget = ventus::sim::DeviceConfig{}.instruction_budget;
  uint32_t schedule_quantum = ventus::sim::DeviceConfig{}.schedule_quantum;
  uint32_t local_mem = 0;
  uint32_t private_mem = 1024;
  uint32_t print_buffer = 1 << 20;
  bool quiet = false;
  bool progress = false;
  bool memcheck = false;
  ventus::cli::TimingArgs timing;
  std::string jit;  // empty: VENTUS_JIT decides
};

// The commit log, written as the kernel runs: the simulator formats the lines into a block
// of kBlock bytes; a full block goes to a thread of its own, which writes it to the file in
// one write(2) while the simulator fills the next. The file system's side of a write (the
// copy into the page cache, allocating its pages) costs about as much as formatting the lines
// (docs/performance.md), so on a machine with a core to spare it no longer adds to the
// launch. At most kBlocks blocks exist: when the writer falls behind, the simulator waits for
// one. Past the limit the launch stops: commit() throws, the device reports it as the
// launch's fault, and run() names the limit; the file keeps the whole lines before it. A
// failed write is reported by the next room() that needs a block (the launch's fault) and
// by finish_after_failure().
class TraceWriter final : public ventus::sim::TraceSink {
 public:
  TraceWriter(OutputFile file, uint64_t limit) : file_(std::move(file)), limit_(limit) {}
  ~TraceWriter() override { stop_writer(); }
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  char* room(size_t bytes) override {
    if (used_ + bytes > block_.size()) {
      hand_over();
      if (bytes > block_.size()) block_.resize(bytes);
    }
    return block_.data() + used_;
  }
  void commit(const char* end) override {
    const size_t size = static_cast<size_t>(end - (block_.data() + used_));
    if (bytes_ + size > limit_) {
      limit_reached_ = true;
      throw Error("the trace reached --trace-limit");
    }
    used_ += size;
    bytes_ += size;
    ++lines_;
  }
  // After a failed launch: the error the trace caused, if it did; else the trace is kept.
  void finish_after_failure() {
    drain();
    file_.commit();
    if (limit_reached_)
      throw Error(
          fmt::format("--trace {}: the trace reached --trace-limit ({} bytes) after {} "
                      "instructions; the launch was stopped there",
                      file_.path(), limit_, lines_));
  }
  // After a launch that succeeded: the whole log replaces the file.
  void finish() {
    drain();
    file_.commit();
  }

 private:
  // Large enough that write(2) calls cost nothing next to the copy into the file; few enough
  // that little of the log is left to write when the launch ends.
  static constexpr size_t kBlock = size_t{1} << 20;
  static constexpr size_t kBlocks = 4;

  struct Block {
    std::vector<char> bytes;
    size_t used = 0;
  };

  // Queues the block being filled (if it holds anything) and takes an empty one: a new one
  // while fewer than kBlocks exist, else the next the writer is done with. Throws the write
  // error, if there was one.
  void hand_over() {
    std::unique_lock lock(mutex_);
    if (!write_error_.empty()) throw Error(write_error_);
    if (used_ != 0) {
      queue_block(lock);
      if (!write_error_.empty()) throw Error(write_error_);
      if (blocks_ < kBlocks) {
        ++blocks_;
        block_.assign(kBlock, 0);
        return;
      }
      changed_.wait(lock, [&] { return !empty_.empty() || !write_error_.empty(); });
      if (!write_error_.empty()) throw Error(write_error_);
      block_ = std::move(empty_.back());
      empty_.pop_back();
    }
  }

  // The writer thread: writes the queued blocks in order until stopped with none left.
  void write_blocks() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return !full_.empty() || stopping_; });
      if (full_.empty()) return;
      write_first(lock);
    }
  }
  // Writes the first queued block (unlocked meanwhile) and returns it to the empty ones.
  // After a failed write, keeps the error and drops the blocks.
  void write_first(std::unique_lock<std::mutex>& lock) {
    Block block = std::move(full_.front());
    full_.pop_front();
    if (write_error_.empty()) {
      lock.unlock();
      std::string error;
      try {
        file_.write(std::string_view(block.bytes.data(), block.used));
      } catch (const Error& e) {
        error = e.what();
      }
      lock.lock();
      if (!error.empty()) write_error_ = std::move(error);
    }
    empty_.push_back(std::move(block.bytes));
    changed_.notify_all();
  }
  // Queues the block being filled for the writer, started if need be; where the host cannot
  // start a thread, writes the queue on this one.
  void queue_block(std::unique_lock<std::mutex>& lock) {
    full_.push_back({std::move(block_), used_});
    used_ = 0;
    if (!writer_.joinable() && !no_writer_) {
      try {
        writer_ = std::thread([this] { write_blocks(); });
      } catch (const std::system_error&) {
        no_writer_ = true;
      }
    }
    if (no_writer_)
      while (!full_.empty()) write_first(lock);
    changed_.notify_all();
  }

  // Writes what is left (the writer's queue and the block being filled), stops the writer and
  // throws the write error, if there was one.
  void drain() {
    {
      std::unique_lock lock(mutex_);
      if (used_ != 0) queue_block(lock);
    }
    stop_writer();
    if (!write_error_.empty()) throw Error(write_error_);
  }
  void stop_writer() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      changed_.notify_all();
    }
    if (writer_.joinable()) writer_.join();
  }

  OutputFile file_;
  uint64_t limit_;
  std::vector<char> block_ = std::vector<char>(kBlock);  // being filled
  size_t used_ = 0;     // bytes of whole lines in block_
  uint64_t bytes_ = 0;  // of the whole log
  uint64_t lines_ = 0;
  bool limit_reached_ = false;

  std::mutex mutex_;  // guards what follows, which the writer thread shares
  std::condition_variable changed_;
  std::deque<Block> full_;                // to write, in order
  std::vector<std::vector<char>> empty_;  // written, to fill again
  size_t blocks_ = 1;                     // made so far, block_ included
  bool stopping_ = false;
  std::string write_error_;  // the first failed write's
  std::thread writer_;       // started at the first full block
  bool no_writer_ = false;   // the host could not start it
};

// FILE.txt: one element per line; any other name: the raw little-endian words.
void write_dump(OutputFile& file, const std::vector<uint32_t>& words,
                ventus::cli::ElementType type) {
  if (file.path().ends_with(".txt")) {
    for (uint32_t w : words) file.write(ventus::cli::element_text(w, type) + '\n');
  } else {
    file.write(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4));
  }
}

void run(const RunArgs& a) {
  namespace cli = ventus::cli;
  // Everything the command line says is checked before anything runs or is written.
  std::vector<KernelArgument> arguments;
  for (const std::string& s : a.args) arguments.push_back(cli::parse_argument(s));
  const auto find_argument = [&](const std::string& key) -> size_t {
    for (size_t i = 0; i < arguments.size(); ++i)
      if (arguments[i].name == key) return i;
    const uint64_t index =
        cli::parse_unsigned(key, "--dump " + key + " (an argument name or index)");
    if (index >= arguments.size())
      throw Error(fmt::format("--dump: there is no argument {} ({} given)", key, arguments.size()));
    return static_cast<size_t>(index);
  };
  std::vector<std::pair<size_t, std::string>> dumps;
  std::vector<std::string> output_paths;
  for (const std::string& d : a.dumps) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      throw Error(fmt::format("--dump: expected ARG=FILE, got '{}'", d));
    const size_t index = find_argument(d.substr(0, eq));
    if (!arguments[index].is_buffer())
      throw Error(fmt::format("--dump {}: argument {} is not a buffer", d, index));
    dumps.emplace_back(index, d.substr(eq + 1));
    output_paths.push_back(d.substr(eq + 1));
  }
  if (!a.timing.timing.empty() &&
      a.schedule_quantum != ventus::sim::DeviceConfig{}.schedule_quantum)
    throw Error(
        "--schedule-quantum has no effect with --timing: the cycle model issues from its ready "
        "warps cycle by cycle (docs/timing.md)");
  if (!a.trace.empty()) output_paths.push_back(a.trace);
  for (const std::string* path : {&a.timing.stats_json, &a.timing.timeline})
    if (!path->empty()) output_paths.push_back(*path);
  cli::check_distinct_outputs(output_paths);

  const cli::Dimensions global_dims = cli::parse_dimensions(a.global, "--global");
  const auto range = [](const cli::Dimensions& d) {
    return d.dims == 1   ? rt::Range(d.size[0])
           : d.dims == 2 ? rt::Range(d.size[0], d.size[1])
                         : rt::Range(d.size[0], d.size[1], d.size[2]);
  };
  const rt::Range global = range(global_dims);
  const rt::Range local = a.local.empty() ? rt::Range(std::min<uint32_t>(global.size[0], a.threads))
                                          : range(cli::parse_dimensions(a.local, "--local"));
  rt::LaunchOptions options;
  options.threads_per_warp = a.threads;
  options.local_memory_bytes = a.local_mem;
  options.private_bytes_per_thread = a.private_mem;
  options.print_buffer_bytes = a.print_buffer;
  if (!a.offset.empty()) {
    const cli::Dimensions offset = cli::parse_dimensions(a.offset, "--offset", 0);
    cli::check_offset(offset, global_dims);
    for (uint32_t i = 0; i < offset.dims; ++i) options.global_offset[i] = offset.size[i];
  }

  ventus::sim::DeviceConfig config;
  config.num_sms = a.sms;
  config.warp_slots_per_sm = a.warps;
  config.host_threads = a.host_threads;
  config.lds_bytes_per_sm = a.lds_per_sm;
  config.max_workgroups_per_sm = a.workgroup_slots;
  config.instruction_budget = a.budget;
  config.schedule_quantum = a.schedule_quantum;

  const rt::Program program = load_program(a.inputs);
  std::string kernel = a.kernel;
  if (kernel.empty()) {
    const std::vector<std::string> names = program.kernel_names();
    if (names.empty())
      throw Error(
          "--kernel is needed: the program has no global function symbols (.globl K with "
          ".type K, @function) to choose from");
    if (names.size() != 1)
      throw Error(fmt::format("--kernel is needed: the program has {} kernels ({})", names.size(),
                              fmt::join(names, ", ")));
    kernel = names[0];
  }
  program.kernel_address(kernel);  // an unknown kernel is an error now, not after the outputs
  if (const rt::KernelInfo* info = program.kernel_info(kernel))
    cli::check_against_kernel(arguments, *info);
  // The launch planned now, buffers at address 0, so that a launch the device cannot run
  // costs no output file.
  std::vector<rt::Arg> planned_args;
  for (const KernelArgument& argument : arguments)
    planned_args.push_back(argument.kind == KernelArgument::Kind::Local
                               ? rt::Arg::local(argument.local_bytes)
                               : rt::Arg::raw(argument.is_buffer() ? 0 : argument.scalar));
  const rt::LaunchPlan plan =
      rt::plan_launch(config, program, kernel, global, local, planned_args, options);

  // Outputs: opened now, so that a wrong path costs nothing; none may be an input.
  std::vector<std::string> inputs = a.inputs;
  for (const KernelArgument& argument : arguments)
    if (!argument.path.empty()) inputs.push_back(argument.path);
  std::vector<OutputFile> dump_files;
  for (const auto& [index, path] : dumps) dump_files.emplace_back(path, "--dump", inputs);
  std::shared_ptr<TraceWriter> trace;
  if (!a.trace.empty())
    trace = std::make_shared<TraceWriter>(OutputFile(a.trace, "--trace", inputs), a.trace_limit);
  cli::TimingSession timing(a.timing, inputs, cli::TimingSession::Entries::Launches);

  for (KernelArgument& argument : arguments) cli::load_contents(argument);

  rt::Device device(config);
  device.set_memcheck(a.memcheck);
  if (!a.jit.empty()) device.set_jit(ventus::sim::parse_jit_mode(a.jit));
  if (trace) device.set_trace_sink(trace);
  if (timing.config()) {
    device.set_timing(*timing.config());
    device.set_timeline(timing.timeline());
    timing.begin_launch(kernel);
  }
  std::vector<std::optional<rt::Buffer>> buffers(arguments.size());
  std::vector<rt::Arg> launch_args;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].is_buffer()) {
      buffers[i] = rt::Buffer::from(device, arguments[i].elements);
      launch_args.emplace_back(*buffers[i]);
    } else if (arguments[i].kind == KernelArgument::Kind::Local) {
      launch_args.push_back(rt::Arg::local(arguments[i].local_bytes));
    } else {
      launch_args.push_back(rt::Arg::raw(arguments[i].scalar));
    }
  }

  if (a.progress || (!a.quiet && isatty(STDERR_FILENO))) {
    device.set_progress_handler([](const ventus::sim::LaunchProgress& p) {
      ventus::cli::print_stderr("[ventus run] " + ventus::sim::describe(p) + "\n");
    });
  }
  rt::Stats stats;
  try {
    stats = rt::launch(device, program, kernel, global, local, launch_args, options);
  } catch (const Error&) {
    // The trace of a failed launch is what explains it: kept, whole lines up to the fault.
    if (trace) trace->finish_after_failure();
    throw;
  }
  if (trace) trace->finish();
  const std::optional<ventus::timing::LaunchTiming> launch_timing = device.last_timing();
  if (launch_timing) {
    timing.record(kernel, *launch_timing);
    timing.finish();
  }

  // Every dump is written and closed before any replaces its file: all of them or none.
  for (size_t i = 0; i < dumps.size(); ++i) {
    const size_t index = dumps[i].first;
    write_dump(dump_files[i], buffers[index]->download<uint32_t>(), arguments[index].type);
    dump_files[i].finish();
  }
  for (OutputFile& file : dump_files) file.commit();
  if (a.quiet) return;
  const auto dims = [](const rt::Range& r) {
    return r.dims == 1   ? fmt::format("{}", r.size[0])
           : r.dims == 2 ? fmt::format("{}x{}", r.size[0], r.size[1])
                         : fmt::format("{}x{}x{}", r.size[0], r.size[1], r.size[2]);
  };
  const double seconds = std::max(stats.seconds, 1e-9);
  ventus::cli::print(
      "kernel {}: global {}, local {}: {} workgroups of {} warps x {} threads on {} SMs\n", kernel,
      dims(global), dims(local), stats.workgroups, plan.device.warps_per_workgroup,
      plan.device.threads_per_warp, config.num_sms);
  ventus::cli::print("  warp-instructions    {}\n", stats.warp_instructions);
  ventus::cli::print("  thread-instructions  {}\n", stats.thread_instructions);
  ventus::cli::print("  SIMT divergences     {}\n", stats.divergences);
  ventus::cli::print("  barriers             {}\n", stats.barriers);
  ventus::cli::print("  time                 {:.6f} s ({} host thread{})\n", stats.seconds,
                     config.host_threads, config.host_threads == 1 ? "" : "s");
  ventus::cli::print("  simulated            {:.1f} M thread-insn/s, {:.1f} M warp-insn/s\n",
                     stats.thread_instructions / seconds / 1e6,
                     stats.warp_instructions / seconds / 1e6);
  if (a.memcheck) ventus::cli::print("  memcheck             0 invalid accesses\n");
  if (launch_timing)
    ventus::cli::print("{}", cli::timing_summary(*launch_timing, *timing.config()));
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
  local:BYTES                     a __local buffer of 1 to 2^20 bytes in the workgroup's
                                  local memory
  TYPE[]:1,2,3                    the elements listed
Numbers are decimal or 0x hexadecimal, read whole and range-checked (f32 also inf, nan);
buffers hold 1 to 2^28 elements. A kernel compiled by ventus cc has its arguments checked
(count, and buffer, local or scalar in each position) before the run.
--dump ARG=FILE writes buffer ARG (name or index) after the run: FILE.txt as text (one
element per line, f32 with 9 significant digits), any other name as raw binary. Outputs
are checked before the run and replace their files only when complete (docs/driver.md).

With --timing the kernel also runs on the cycle model (docs/timing.md): the summary adds
its cycles, IPC, largest stall kinds and cache hit rates, and ends with the line "cycles N".
With --memcheck every global, local and private access is checked against the buffers, the
program, the workgroup's local memory and the thread's private memory (docs/driver.md,
"Memory checking"): a kernel that accesses anything else runs to its end, then the run
fails (exit 1) listing each invalid access with kernel, workgroup, work-item, pc and
instruction, and the nearest buffer.

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
  sub->add_option("--jit", a->jit,
                  "translating tier: off, on (hot blocks, compiled in the background), force or "
                  "force-quick (every block, at once, compiled as hot blocks end up or as they "
                  "start; for testing); "
                  "default: VENTUS_JIT, else on; results are the same")
      ->check(CLI::IsMember({"off", "on", "force", "force-quick"}));
  sub->add_option("--trace", a->trace, "write the commit log (docs/trace.md) to FILE");
  ventus::cli::add_number(
      sub, "--trace-limit", a->trace_limit,
      "stop the launch when the trace would exceed BYTES (the trace keeps whole "
      "lines)",
      uint64_t{1});
  ventus::cli::add_number(sub, "--sms", a->sms, "streaming multiprocessors", 1u);
  ventus::cli::add_number(sub, "--warps", a->warps, "warp slots per SM", 1u);
  ventus::cli::add_number(sub, "--threads", a->threads, "threads per warp (1-32)", 1u, 32u);
  ventus::cli::add_number(sub, "--host-threads", a->host_threads,
                          "host threads running workgroup slots", 1u);
  ventus::cli::add_number(sub, "--workgroup-slots", a->workgroup_slots, "workgroup slots per SM",
                          1u);
  ventus::cli::add_number(sub, "--lds-per-sm", a->lds_per_sm, "local memory bytes per SM");
  ventus::cli::add_number(sub, "--local-mem", a->local_mem,
                          "local data bytes per workgroup (after the 1 KiB warp stacks)");
  ventus::cli::add_number(sub, "--private-mem", a->private_mem, "private memory bytes per thread");
  ventus::cli::add_number(sub, "--print-buffer", a->print_buffer, "print buffer bytes (0: none)");
  ventus::cli::add_number(sub, "--budget", a->budget,
                          "warp-instruction budget of each workgroup (0: unlimited)");
  ventus::cli::add_number(sub, "--schedule-quantum", a->schedule_quantum,
                          "warp instructions a warp runs before the next ready warp of its "
                          "slot (the interleaving; results without races are the same; not "
                          "with --timing)",
                          1u);
  ventus::cli::add_timing_options(sub, a->timing);
  sub->add_flag("--memcheck", a->memcheck,
                "report every access outside the buffers, local and private memory");
  sub->add_flag("-q,--quiet", a->quiet, "no summary");
  sub->add_flag(
      "--progress", a->progress,
      "report instructions and workgroups done every 2 s (default when stderr is a terminal)");
  sub->callback([a] { run(*a); });
});

}  // namespace
#endif  // VENTUS_HAVE_DRIVER
