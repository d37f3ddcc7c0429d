// `barracuda replay TRACE`: feeds a trace recorded on the GPU (record=FILE) through the engine again,
// offline, and reports what it finds exactly as the live run does (text, --report JSON, --sarif);
// --dump prints the trace instead.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "cli/commands.h"
#include "cli/trace_dump.h"
#include "engine/engine.h"
#include "report/exit_code.h"
#include "report/json_report.h"
#include "report/report_file.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"
#include "runtime/report_builder.h"
#include "runtime/site_registry.h"
#include "trace/trace_reader.h"
#include "trace/trace_replay.h"

namespace barracuda::cli {
namespace {

struct ReplayArguments {
  std::string trace;
  std::string report_path;
  std::string sarif_path;
  std::string warp_model = "its";
  uint32_t workers = 1;
  uint64_t print_limit = 0;
  bool dump = false;
  bool warn_redundant_barriers = false;
  bool same_value_races = false;
  bool unfenced_acquire_races = false;
  bool toolkit_diagnostics = false;
};

void write_file(const std::string& path, const std::string& contents) {
  if (!path.empty()) report::write_report_file(path, contents);
}

int replay(const ReplayArguments& arguments) {
  std::ifstream in(arguments.trace, std::ios::binary);
  if (!in) {
    std::cerr << "barracuda: cannot open " << arguments.trace << "\n";
    return report::kUsageErrorExitCode;
  }
  if (arguments.dump) {
    dump_trace(in, std::cout);
    return 0;
  }
  const WarpModel model = arguments.warp_model == "lockstep" ? WarpModel::kLockstep : WarpModel::kIndependent;
  engine::Engine engine(engine::EngineConfig{std::max<uint32_t>(arguments.workers, 1)});
  runtime::SiteRegistry sites;
  std::map<std::string, runtime::LaunchRecord> launches;  // latest dimensions of each kernel
  report::Report report;
  report.run.command_line = {"barracuda", "replay", arguments.trace};
  report.run.warp_model = model;
  // What a trace tells of the recorded run's cost; the queues, drain and JIT stay 0 (docs/report.md).
  report::Statistics statistics;
  std::set<uint32_t> modules;
  // The engine's time only, not the trace's decompression.
  const auto timed = [&statistics](auto&& step) {
    const auto start = std::chrono::steady_clock::now();
    step();
    statistics.engine_time += std::chrono::steady_clock::now() - start;
  };
  trace::TraceReplay replay(engine, model);
  trace::TraceReader reader(in);
  while (std::optional<trace::TraceItem> item = reader.next()) {
    if (auto* module = std::get_if<trace::ModuleTable>(&*item)) {
      report.summary.kernels_instrumented += module->kernels.size();
      modules.insert(module->module_index);
      sites.add(*module);
    } else if (auto* launch = std::get_if<trace::LaunchDescriptor>(&*item)) {
      timed([&] { replay.launch(*launch); });
      launches[launch->kernel] = {launch->kernel, {launch->grid[0], launch->grid[1], launch->grid[2]},
                                  {launch->block[0], launch->block[1], launch->block[2]}};
      ++report.summary.launches;
    } else if (auto* chunk = std::get_if<trace::SlotChunk>(&*item)) {
      statistics.slots += chunk->slots.size();
      timed([&] { replay.slots(*chunk); });
    }
  }
  timed([&] { replay.finish(); });
  report.summary.events = engine.stats().records;
  statistics.engine_thread_accesses = engine.stats().thread_accesses;
  statistics.engine_peak_resident_blocks = engine.stats().peak_resident_blocks;
  statistics.engine_peak_held_back_records = engine.stats().peak_held_back_records;
  statistics.engine_records_applied_at_launch_end = engine.stats().records_applied_at_launch_end;
  statistics.modules_instrumented = modules.size();
  report.statistics = statistics;
  runtime::add_findings(report, engine, sites, [&](const std::string& kernel) -> std::optional<runtime::LaunchRecord> {
    auto found = launches.find(kernel);
    return found == launches.end() ? std::nullopt : std::optional(found->second);
  }, runtime::FindingOptions{arguments.warn_redundant_barriers, arguments.same_value_races,
                                                arguments.unfenced_acquire_races, arguments.toolkit_diagnostics});
  write_file(arguments.report_path, report::render_json(report));
  write_file(arguments.sarif_path, report::render_sarif(report));
  report::render_text(report, report::TextOptions{.print_limit = arguments.print_limit}, std::cout);
  return report::exit_code_for(report, 0, report::ExitCodePolicy{});
}

}  // namespace

void add_replay_command(CLI::App& app, CommandResult& result) {
  auto arguments = std::make_shared<ReplayArguments>();
  CLI::App* command = app.add_subcommand("replay", "Check a recorded event trace (record=FILE) offline");
  command->add_option("trace", arguments->trace, "Trace file written by a run with record=FILE")->required();
  command->add_option("--report", arguments->report_path, "Write the JSON report to this file");
  command->add_option("--sarif", arguments->sarif_path, "Write a SARIF 2.1.0 report to this file");
  command->add_option("--workers", arguments->workers,
                      "Engine workers, each on its own thread as in a run's drain threads (default 1: in order, one thread)")
      ->check(CLI::Range(1, 256));
  command->add_option("--warp-model", arguments->warp_model, "its or lockstep")->check(CLI::IsMember({"its", "lockstep"}));
  command->add_option("--print-limit", arguments->print_limit, "Races printed in full (0: all)");
  command->add_flag("--warn-redundant-barriers", arguments->warn_redundant_barriers,
                    "Also report barriers that ordered no conflicting accesses (warnings)");
  command->add_flag("--same-value-races", arguments->same_value_races,
                    "Report same-value write-write pairs as races, not warnings");
  command->add_flag("--unfenced-acquire-races", arguments->unfenced_acquire_races,
                    "Report hand-offs through a spin on an atomic with no acquire fence after it as races, not warnings");
  command->add_flag("--toolkit-diagnostics", arguments->toolkit_diagnostics,
                    "Also report diagnostics located in the CUDA toolkit's own headers (thrust, CUB, cooperative groups)");
  command->add_flag("--dump", arguments->dump, "Print the site tables and every record decoded instead of checking");
  command->callback([arguments, &result] {
    try {
      result.exit_code = replay(*arguments);
    } catch (const std::exception& e) {
      std::cerr << "barracuda: " << arguments->trace << ": " << e.what() << "\n";
      result.exit_code = report::kUsageErrorExitCode;
    }
  });
}

}  // namespace barracuda::cli
