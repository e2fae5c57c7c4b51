// ventus timing: the cycle model's parameters and presets (docs/timing.md).
#include <fmt/format.h>

#include "commands.h"
#include "ventus/timing.h"

namespace {

struct TimingArgs {
  bool parameters = false, markdown = false;
  std::string show;
  std::vector<std::string> set;
};

ventus::cli::Registration reg(92, [](CLI::App& app) {
  auto a = std::make_shared<TimingArgs>();
  CLI::App* sub = app.add_subcommand(
      "timing",
      "The cycle model's parameters: list them with both presets' values, or show the "
      "configuration a preset or file (and --set) gives");
  sub->add_flag("--parameters", a->parameters,
                "list every parameter: both presets' values, unit, what it is");
  sub->add_flag("--markdown", a->markdown,
                "with --parameters: the table of docs/timing.md, with sources (Markdown)");
  sub->add_option("--show", a->show,
                  "print the configuration (JSON, the configuration-file format) of a preset "
                  "(verilog-release, chisel-master) or a configuration file");
  sub->add_option("--set", a->set, "with --show: NAME=VALUE, applied after the preset or file")
      ->type_name("NAME=VALUE");
  sub->callback([a] {
    if (a->parameters == !a->show.empty())
      throw ventus::Error("give either --parameters or --show PRESET_OR_FILE");
    if (a->markdown && !a->parameters) throw ventus::Error("--markdown goes with --parameters");
    if (!a->set.empty() && a->show.empty()) throw ventus::Error("--set goes with --show");
    if (a->parameters) {
      ventus::cli::print("{}", ventus::timing::parameter_table(a->markdown));
      return;
    }
    ventus::timing::Config config = ventus::timing::load(a->show);
    for (const std::string& s : a->set) ventus::timing::set_parameter(config, s);
    ventus::timing::validate(config);
    ventus::cli::print("{}", ventus::timing::to_json(config));
  });
});

}  // namespace
