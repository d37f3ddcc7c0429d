// `barracuda harden F.json`: for each race of a JSON report, the fence to insert or the scope to widen
// that the PTX memory model needs (report/fence_fix.h), or why no fence fixes it; with --sarif, the
// report as SARIF whose results carry those changes (an inserted fence as a SARIF fix).
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/report_io.h"
#include "report/exit_code.h"
#include "report/fence_fix.h"
#include "report/names.h"
#include "report/report_file.h"
#include "report/sarif_renderer.h"
#include "report/value_text.h"

namespace barracuda::cli {
namespace {

struct HardenArguments {
  std::string input;
  std::string sarif_path;
};

std::string race_heading(const report::Race& race) {
  std::string kind = race.unfenced_acquire ? "unfenced acquire"
                     : race.same_value      ? "same-value write-write"
                                            : std::string{name_of(report::kRaceClassNames, race.race_class)} +
                                                  " race";
  return kind + " (" + std::string{name_of(report::kMemorySpaceNames, race.space)} + ", " +
         std::string{name_of(report::kHazardNames, race.hazard)} + ") in kernel " + race.kernel + ", " +
         report::site_position_text(race.current.site) + " and " + report::site_position_text(race.previous.site);
}

void print_hardening(const report::Report& loaded, const std::string& path, std::ostream& out) {
  size_t fixed = 0;
  std::string text;
  for (size_t index = 0; index < loaded.races.size(); ++index) {
    const report::Race& race = loaded.races[index];
    const report::RaceHardening hardening = report::harden_race(race);
    fixed += !hardening.fixes.empty();
    text += "race " + std::to_string(index + 1) + ": " + race_heading(race) + "\n";
    for (const report::FenceFix& fix : hardening.fixes) {
      text += "  at " + report::site_position_text(fix.site) + " (" + fix.site.function + "): " + fix.change + "\n";
    }
    if (hardening.fixes.empty()) text += "  no fence fixes it: " + hardening.no_fix_reason + "\n";
  }
  out << "barracuda harden: " << loaded.races.size() << (loaded.races.size() == 1 ? " race" : " races") << " in "
      << path << "; a fence or a scope fixes " << fixed << "\n"
      << text;
}

int run_harden(const HardenArguments& arguments) {
  const report::Report loaded = report::load_json_report_file(arguments.input);
  if (!arguments.sarif_path.empty()) {
    write_output(arguments.sarif_path, report::render_sarif(loaded, report::SarifOptions{.fence_fixes = true}));
  }
  if (arguments.sarif_path != "-") print_hardening(loaded, arguments.input, std::cout);
  return 0;
}

}  // namespace

void add_harden_command(CLI::App& app, CommandResult& result) {
  auto arguments = std::make_shared<HardenArguments>();
  CLI::App* command =
      app.add_subcommand("harden", "Propose, per race of a JSON report, the fence to insert or the scope to widen");
  command->add_option("report", arguments->input, "JSON report written by a barracuda run")->required();
  command->add_option("--sarif", arguments->sarif_path,
                      "Write the report as SARIF 2.1.0 with the proposals (inserted fences as fixes) ('-': stdout)");
  command->callback([arguments, &result] {
    try {
      result.exit_code = run_harden(*arguments);
    } catch (const std::exception& error) {
      std::cerr << "barracuda harden: " << error.what() << '\n';
      result.exit_code = report::kUsageErrorExitCode;
    }
  });
}

}  // namespace barracuda::cli
