// The implementation under test: `ventus cc` (ventus::cc::compile) and the simulated
// device through the C++ runtime.
#include "runner.h"
#include "ventus/error.h"

#if VENTUS_HAVE_CC
#include "ventus/compiler.h"
#include "ventus/runtime.h"
#endif

namespace ventus::clspec {

#if !VENTUS_HAVE_CC

std::unique_ptr<Runner> make_ventus_runner(std::string* why, const VentusOptions&) {
  if (why) *why = "the OpenCL C compiler (ventus cc) is not part of this build";
  return nullptr;
}

#else

namespace {

rt::Range range_of(const Dims& d) {
  if (d.dims == 1) return rt::Range(d.size[0]);
  if (d.dims == 2) return rt::Range(d.size[0], d.size[1]);
  return rt::Range(d.size[0], d.size[1], d.size[2]);
}

class VentusRunner final : public Runner {
 public:
  explicit VentusRunner(const VentusOptions& options) : options_(options) {}
  std::string name() const override { return "ventus"; }

  void compile(const Spec& spec, std::string_view source) override {
    cc::Options options;
    options.file_name = spec.file;
    options.opt_level = options_.opt_level;
    for (const std::string& o : spec.options) {
      if (o.rfind("-D", 0) == 0 && o.size() > 2)
        options.defines.push_back(o.substr(2));
      else
        options.extra_args.push_back(o);
    }
    for (const std::string& o : options_.extra_args) options.extra_args.push_back(o);
    const cc::Result result = cc::compile(source, options);
    if (!result.ok) throw Error("ventus cc: " + spec.file + ":\n" + result.diagnostics);
    program_.emplace(rt::Program::from_elf_bytes(result.elf, spec.file));
  }

  Buffers execute(const Spec& spec, size_t configuration, const Buffers& initial) override {
    rt::Device device;
    std::vector<rt::Buffer> memory;
    for (const std::vector<uint8_t>& bytes : initial)
      memory.push_back(rt::Buffer::from(device, bytes));
    for (const Launch& launch : plan(spec, configuration)) {
      const RunSpec& run = *launch.run;
      std::vector<std::vector<uint8_t> > values;  // kept alive for the spans below
      values.reserve(run.args.size());
      std::vector<rt::Arg> args;
      for (const ArgSpec& arg : run.args) {
        switch (arg.kind) {
          case ArgSpec::Kind::buffer: args.emplace_back(memory[arg.buffer]); break;
          case ArgSpec::Kind::local: args.push_back(rt::Arg::local(arg.local_bytes)); break;
          case ArgSpec::Kind::scalar:
            values.push_back(arg.bytes(launch.iteration));
            args.push_back(rt::Arg::bytes(values.back()));
            break;
        }
      }
      rt::LaunchOptions options;
      options.threads_per_warp = options_.threads_per_warp;
      for (uint32_t d = 0; d < launch.offset.dims; ++d)
        options.global_offset[d] = launch.offset.size[d];
      try {
        const rt::Stats stats =
            rt::launch(device, *program_, run.kernel, range_of(launch.global),
                       range_of(launch.local), std::span<const rt::Arg>(args), options);
        if (options_.counts) {
          options_.counts->warp_instructions += stats.warp_instructions;
          options_.counts->thread_instructions += stats.thread_instructions;
        }
      } catch (const Error& e) {
        throw Error("ventus: " + launch.text() + ": " + e.what());
      }
    }
    Buffers out;
    for (const rt::Buffer& b : memory) {
      std::vector<uint8_t> bytes = b.download<uint8_t>();
      out.push_back(std::move(bytes));
    }
    return out;
  }

 private:
  VentusOptions options_;
  std::optional<rt::Program> program_;
};

}  // namespace

std::unique_ptr<Runner> make_ventus_runner(std::string*, const VentusOptions& options) {
  return std::make_unique<VentusRunner>(options);
}

#endif

}  // namespace ventus::clspec
