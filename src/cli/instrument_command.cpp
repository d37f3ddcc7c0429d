// `barracuda instrument FILE.ptx -o OUT.ptx [--sites SITES.json] [--first-site N] [--no-branches] [--stats]`:
// instruments a PTX module for the device logging runtime (link OUT.ptx with it: nvJitLink, -rdc).
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/ptx_input.h"
#include "ptx/passes/instrument.h"
#include "ptx/printer.h"

namespace barracuda::cli {
namespace {

struct InstrumentCommandOptions {
  std::string input;
  std::string output;
  std::string sites;
  uint32_t first_site = 0;
  bool no_branches = false;
  bool stats = false;
};

void print_statistics(const ptx::passes::InstrumentStatistics& statistics) {
  std::cout << "kernels: " << statistics.kernels << "\ninstructions: " << statistics.instructions
            << "\nmemory accesses logged: " << statistics.memory_accesses
            << "\nsynchronizations logged: " << statistics.synchronizations
            << "\nbranches logged: " << statistics.branches << " (reconvergence points: " << statistics.reconvergences
            << ")\nkernel exits logged: " << statistics.kernel_exits
            << "\nmemory accesses not logged (local/param/const or unsupported form): " << statistics.skipped_memory
            << "\ninstrumented fraction: " << statistics.instrumented_fraction() << '\n';
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (out.flush()) return true;
  std::cerr << path << ": cannot write\n";
  return false;
}

int run_instrument(const InstrumentCommandOptions& options) {
  std::unique_ptr<ptx::Module> module = read_ptx_file(options.input);
  if (!module) return 1;
  ptx::passes::InstrumentResult result =
      ptx::passes::instrument_module(*module, {options.first_site, !options.no_branches});
  if (options.stats) print_statistics(result.statistics);
  if (!options.sites.empty() && !write_file(options.sites, to_json(result.sites).dump(1) + "\n")) return 1;
  if (options.output.empty()) {
    ptx::print(std::cout, *module);
    return 0;
  }
  return write_file(options.output, ptx::to_string(*module)) ? 0 : 1;
}

}  // namespace

void add_instrument_command(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<InstrumentCommandOptions>();
  CLI::App* command = app.add_subcommand("instrument", "Instrument a PTX module for the device logging runtime");
  command->add_option("FILE", options->input, "PTX file")->required();
  command->add_option("-o,--output", options->output, "Write the instrumented module here instead of stdout");
  command->add_option("--sites", options->sites, "Write the site table (JSON) here");
  command->add_option("--first-site", options->first_site, "First site id of this module");
  command->add_flag("--no-branches", options->no_branches, "Do not log branches (independent-thread warp model only)");
  command->add_flag("--stats", options->stats, "Print instrumentation statistics");
  command->callback([options, &result] { result.exit_code = run_instrument(*options); });
}

}  // namespace barracuda::cli
