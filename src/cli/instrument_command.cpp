// `barracuda instrument FILE.ptx -o OUT.ptx [--sites SITES.json] [--first-site N] [--no-branches]
// [--log-read-only] [--with-runtime] [--stats] [--harden REPORT.json] [--perturb]`: instruments a PTX module for the device logging
// runtime (link OUT.ptx with it, or include it with --with-runtime).
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/ptx_input.h"
#include "ptx/parser.h"
#include "device/runtime_ptx.h"
#include "ptx/passes/device_launch_copies.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/legacy_isa_upgrade.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"
#include "runtime/hardening_edits.h"

namespace barracuda::cli {
namespace {

struct InstrumentCommandOptions {
  std::string input;
  std::string output;
  std::string sites;
  uint32_t first_site = 0;
  bool no_branches = false;
  bool log_read_only = false;
  bool filter_repeated_reads = false;
  bool log_write_free_loads = false;
  bool with_runtime = false;
  bool stats = false;
  std::string harden;
  bool perturb = false;
};

void print_statistics(const ptx::passes::InstrumentStatistics& statistics) {
  std::cout << "kernels: " << statistics.kernels
            << "\nkernels whose shared memory the device can check: " << statistics.shared_checkable_kernels
            << "\nkernels whose global memory the device can check: " << statistics.global_checkable_kernels
            << "\ninstructions: " << statistics.instructions
            << "\nmemory accesses logged: " << statistics.memory_accesses
            << "\nsynchronizations logged: " << statistics.synchronizations
            << "\nbranches logged: " << statistics.branches << " (reconvergence points: " << statistics.reconvergences
            << ")\nkernel exits logged: " << statistics.kernel_exits
            << "\nmemory accesses not logged (local/param/const or unsupported form): " << statistics.skipped_memory
            << "\nread-only loads not logged (ld.global.nc, ldu): " << statistics.read_only_loads
            << "\nshared loads in write-free barrier intervals not logged: " << statistics.write_free_loads
            << "\nloads through read-only parameters (not logged where the launch allows): "
            << statistics.read_only_parameter_loads
            << "\nloads that skip their record where they repeat (--filter-repeated-reads): " << statistics.filtered_loads
            << "\ninstructions hardened (a fence after them or a wider scope): " << statistics.hardened_instructions
            << "\nsynchronising instructions given a seeded delay (--perturb): " << statistics.delay_points
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
  std::optional<ptx::passes::InstrumentResult> instrumented;
  try {
    std::vector<ptx::passes::HardeningEdit> hardening;
    if (!options.harden.empty()) hardening = runtime::hardening_edits_from_file(options.harden);
    // As a run does: kernels launched from the device get their checked (or unchecked) copies.
    ptx::passes::copy_device_launched_kernels(*module);
    instrumented.emplace(ptx::passes::instrument_module(*module, {.first_site_id = options.first_site,
                                                                  .log_branches = !options.no_branches,
                                                                  .log_read_only = options.log_read_only,
                                                                  .filter_repeated_reads = options.filter_repeated_reads,
                                                                  .log_write_free_loads = options.log_write_free_loads,
                                                                  .perturb_seed = options.perturb ? 1u : 0u,
                                                                  .hardening = std::move(hardening)}));
  } catch (const ptx::passes::UnsupportedPtx& error) {
    std::cerr << options.input << ": cannot instrument: " << error.what() << '\n';
    return 1;
  } catch (const std::runtime_error& error) {
    std::cerr << "--harden: " << error.what() << '\n';
    return 2;
  }
  const ptx::passes::InstrumentResult& result = *instrumented;
  if (result.perturbation_declined) std::cerr << "--perturb: not applied: " << *result.perturbation_declined << '\n';
  if (options.stats) print_statistics(result.statistics);
  if (!options.sites.empty() && !write_file(options.sites, to_json(result.sites).dump(1) + "\n")) return 1;
  // Declared here: once merged, the module points into the runtime's text until it is printed.
  ptx::ParseResult runtime;
  if (options.with_runtime) {
    runtime = ptx::parse(std::string(device_runtime_ptx()));
    if (!runtime) {
      std::cerr << "device runtime PTX:" << runtime.error.to_string() << '\n';
      return 1;
    }
    ptx::passes::merge_device_runtime(*module, *runtime.module);
  }
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
  command->add_flag("--log-read-only", options->log_read_only,
                    "Also log loads through the read-only path (ld.global.nc, ldu), which are not logged by default");
  command->add_flag("--filter-repeated-reads", options->filter_repeated_reads,
                    "A lane skips logging a load that repeats the last access its function logged (option "
                    "filter_repeated_reads)");
  command->add_flag("--log-write-free-loads", options->log_write_free_loads,
                    "Also log shared loads in barrier intervals no shared write can run in (option "
                    "log_write_free_loads)");
  command->add_flag("--with-runtime", options->with_runtime,
                    "Include the device runtime's definitions: a self-contained module ptxas or the driver compiles "
                    "as one program");
  command->add_flag("--stats", options->stats, "Print instrumentation statistics");
  command->add_option("--harden", options->harden,
                      "An earlier JSON report: first apply the fences and scopes `barracuda harden` proposes for it");
  command->add_flag("--perturb", options->perturb,
                    "Delay warps before atomics, fences, barriers and spin reads, chosen with the seed the host "
                    "sets in __barracuda_perturb_seed after loading the module");
  command->callback([options, &result] { result.exit_code = run_instrument(*options); });
}

}  // namespace barracuda::cli
