// `barracuda report F.json`: re-renders a JSON report as text, SARIF or JSON, optionally through a
// suppressions file and a baseline; exits like a checked run would (report/exit_code.h).
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/report_io.h"
#include "report/baseline.h"
#include "report/exit_code.h"
#include "report/json_report.h"
#include "report/report_file.h"
#include "report/sarif_renderer.h"
#include "report/suppressions.h"
#include "report/text_renderer.h"

namespace barracuda::cli {
namespace {

struct ReportArguments {
  std::string input;
  bool text = false;
  std::string sarif_path;
  std::string json_path;
  uint64_t print_limit = 0;
  std::string suppressions_path;
  std::string baseline_path;
  int error_exitcode = report::ExitCodePolicy{}.races_found;
};

int run_report(const ReportArguments& arguments) {
  report::Report loaded = report::load_json_report_file(arguments.input);
  if (!arguments.suppressions_path.empty()) {
    auto suppressions =
        report::parse_suppressions(report::read_report_file(arguments.suppressions_path), arguments.suppressions_path);
    report::apply_suppressions(loaded, suppressions);
  }
  if (!arguments.baseline_path.empty()) {
    report::mark_known_races(loaded, report::baseline_fingerprints(report::load_json_report_file(arguments.baseline_path)));
  }
  if (!arguments.sarif_path.empty()) write_output(arguments.sarif_path, report::render_sarif(loaded));
  if (!arguments.json_path.empty()) write_output(arguments.json_path, report::render_json(loaded));
  if (arguments.text || (arguments.sarif_path.empty() && arguments.json_path.empty())) {
    report::render_text(loaded, report::TextOptions{arguments.print_limit}, std::cout);
  }
  return report::exit_code_for(loaded, 0, report::ExitCodePolicy{.races_found = arguments.error_exitcode});
}

}  // namespace

void add_report_command(CLI::App& app, CommandResult& result) {
  auto arguments = std::make_shared<ReportArguments>();
  CLI::App* command = app.add_subcommand("report", "Re-render a JSON race report as text, SARIF or JSON");
  command->add_option("report", arguments->input, "JSON report written by a barracuda run")->required();
  command->add_flag("--text", arguments->text, "Print the text report on stdout (the default without --sarif/--json)");
  command->add_option("--sarif", arguments->sarif_path, "Write SARIF 2.1.0 to this file ('-': stdout)");
  command->add_option("--json", arguments->json_path, "Write the (filtered) JSON report to this file ('-': stdout)");
  command->add_option("--print-limit", arguments->print_limit, "Races and diagnostics printed in full (0: all)");
  command->add_option("--suppressions", arguments->suppressions_path, "Suppressions file (race:PATTERN lines)");
  command->add_option("--baseline", arguments->baseline_path, "Previous JSON report: its races are known, not new");
  command->add_option("--error-exitcode", arguments->error_exitcode, "Exit code when new races are found")
      ->check(CLI::Range(1, 255));
  command->callback([arguments, &result] {
    try {
      result.exit_code = run_report(*arguments);
    } catch (const std::exception& error) {
      std::cerr << "barracuda report: " << error.what() << '\n';
      result.exit_code = report::kUsageErrorExitCode;
    }
  });
}

}  // namespace barracuda::cli
