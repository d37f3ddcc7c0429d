// `barracuda run [options] -- app args`: runs the app with libbarracuda.so preloaded, the options passed
// through BARRACUDA_OPTIONS, merges the reports of every process of the app's tree, and exits as BRIEF
// section 6 says (report/exit_code.h). The flags are made
// from the same option table the preloaded library parses (options/options.h), so the two never drift.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <thread>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/preload.h"
#include "options/options.h"
#include "report/exit_code.h"
#include "barracuda/version.h"
#include "report/json_report.h"
#include "report/merge.h"
#include "report/process_files.h"
#include "report/report_file.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"

namespace barracuda::cli {
namespace {

struct RunArguments {
  std::vector<std::string> settings;  // "key=value", in command-line order
  std::vector<std::string> app;
};

std::string flag_name(std::string_view option) {
  std::string flag = "--" + std::string(option);
  for (char& c : flag) c = c == '_' ? '-' : c;
  return flag;
}

template <typename Kind, typename Value>
void add_run_flag(CLI::App* command, std::string_view name, const Value& default_value, const char* help,
                  RunArguments& arguments) {
  std::string key(name);
  std::string flag = flag_name(name);
  if constexpr (std::is_same_v<Kind, options::BoolValue>) {
    if (key == "quiet") flag = "-q," + flag;
    if (key == "verbose") flag = "-v," + flag;
    if (default_value) {  // on unless turned off: --no-NAME
      command->add_flag_callback("--no-" + flag.substr(2), [&arguments, key] { arguments.settings.push_back(key + "=0"); },
                                 "turn off: " + std::string(help));
      return;
    }
    command->add_flag_callback(flag, [&arguments, key] { arguments.settings.push_back(key + "=1"); }, help);
  } else {
    command->add_option_function<std::string>(
        flag, [&arguments, key](const std::string& value) { arguments.settings.push_back(key + "=" + value); },
        help);
  }
}

std::string join_settings(const std::vector<std::string>& settings) {
  std::string joined;
  for (const std::string& s : settings) joined += (joined.empty() ? "" : ":") + s;
  return joined;
}

// A stopped app gets this long to write its report (the preloaded library flushes on SIGTERM) before
// SIGKILL.
constexpr auto kStopGrace = std::chrono::seconds(30);
constexpr auto kPollInterval = std::chrono::milliseconds(20);

// 128 + signal for a signalled app, as shells report it. With a `timeout` (seconds, 0: none), an app
// still running then gets SIGTERM, and SIGKILL kStopGrace later.
int wait_for(pid_t child, uint64_t timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(timeout);
  std::optional<Clock::time_point> kill_at;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(child, &status, timeout != 0 ? WNOHANG : 0);
    if (done == child) break;
    if (done < 0) {
      if (errno == EINTR) continue;
      return 127;
    }
    if (!kill_at && Clock::now() >= deadline) {
      std::cerr << "barracuda: the app ran past --timeout " << timeout << " s: stopping it (SIGTERM)\n";
      kill(child, SIGTERM);
      kill_at = Clock::now() + kStopGrace;
    } else if (kill_at && Clock::now() >= *kill_at) {
      kill(child, SIGKILL);
      kill_at = Clock::time_point::max();
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int spawn(const std::vector<std::string>& app, uint64_t timeout) {
  std::vector<char*> argv;
  for (const std::string& a : app) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // Like system(): the app owns the terminal's interrupt while it runs; we only wait for it.
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "barracuda: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  int code = child < 0 ? 127 : wait_for(child, timeout);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  return code;
}

void write_output(const std::string& path, const std::string& contents) {
  if (path.empty()) return;
  try {
    report::write_report_file(path, contents);
  } catch (const report::ReportFileError& e) {
    std::cerr << "barracuda: " << e.what() << "\n";
  }
}

// The run's one report: the top process's own when it was the only one that loaded GPU code,
// otherwise every process's merged (report/merge.h), with the processes that died before writing
// theirs listed as not checked.
report::Report run_report(const report::ProcessReports& found, const std::vector<std::string>& command_line) {
  report::Report result;
  if (found.reports.size() == 1) {
    result = found.reports.front();
  } else {
    result = report::merge_process_reports(found.reports, command_line);
    if (result.run.tool_version.empty()) result.run.tool_version = std::string(kToolVersion);
  }
  for (const report::SkippedKernel& process : found.unchecked) result.summary.kernels_skipped.push_back(process);
  return result;
}

// Each process printed its own findings when it exited; a run of several (or none) ends with the
// run's own summary.
void print_run_summary(const report::Report& result, const report::ProcessReports& found, const options::Options& options) {
  for (const report::SkippedKernel& process : found.unchecked) {
    std::cerr << "barracuda: NOT checked: " << process.kernel << ": " << process.reason << "\n";
  }
  if (found.reports.size() == 1 && found.unchecked.empty() && options.explore <= 1) return;
  if (found.reports.empty()) {
    if (!options.quiet) std::cerr << "barracuda: no process of the run loaded GPU code: nothing to check\n";
  } else if (!options.quiet && options.explore > 1) {
    std::cerr << "barracuda: --explore: " << options.explore << " runs; all of them together:\n";
  } else if (!options.quiet) {
    std::cerr << "barracuda: " << found.reports.size() << " processes loaded GPU code; the whole run:\n";
  }
  report::render_text(result, report::TextOptions{.summary_only = true}, std::cerr);
}

int run_app(const RunArguments& arguments) {
  options::Options options;
  std::string settings = join_settings(arguments.settings);
  try {
    if (const char* inherited = std::getenv("BARRACUDA_OPTIONS")) options::parse_options(inherited, options);
    options::parse_options(settings, options);
  } catch (const options::OptionsError& e) {
    std::cerr << "barracuda: " << e.what() << "\n";
    return report::kUsageErrorExitCode;
  }
  std::optional<std::filesystem::path> preload = find_preload_library();
  if (!preload) {
    std::cerr << "barracuda: cannot find libbarracuda.so next to this program (looked in "
              << preload_search_dirs_text() << ")\n";
    return report::kUsageErrorExitCode;
  }
  setenv("LD_PRELOAD", preload_value(*preload, std::getenv("LD_PRELOAD")).c_str(), 1);
  // --explore N: N runs, each with its own perturb seed; their reports merge as those of one run's
  // processes do.
  const uint64_t runs = std::max<uint64_t>(1, options.explore);
  const uint64_t first_seed = options.perturb != 0 ? options.perturb : 1;
  report::ProcessReports found;
  int app_code = 0;
  for (uint64_t run = 0; run < runs; ++run) {
    std::optional<TemporaryDirectory> reports;
    try {
      reports.emplace();
    } catch (const std::exception& e) {
      std::cerr << "barracuda: " << e.what() << "\n";
      return report::kUsageErrorExitCode;
    }
    // Every process of the app's tree writes its own report there; this command merges them and
    // writes the JSON and SARIF the user asked for.
    options::Options per_process = options;
    per_process.report = report::run_report_pattern(reports->path());
    per_process.sarif.clear();
    per_process.timeout = 0;
    per_process.explore = 0;
    if (options.explore != 0) {
      per_process.perturb = first_seed + run;
      if (!options.quiet) {
        std::cerr << "barracuda: explore: run " << run + 1 << " of " << runs << ", --perturb " << per_process.perturb << "\n";
      }
    }
    setenv("BARRACUDA_OPTIONS", options::format_options(per_process).c_str(), 1);
    unsetenv("BARRACUDA_TOP_PID");  // an outer run's: the app's first process is the top of this one
    const int code = spawn(arguments.app, options.timeout);
    if (app_code == 0) app_code = code;  // the first run that failed says how
    // Each finding names its run's seed (runtime/report_builder.h); merged, the first run's stays.
    const report::ProcessReports of_run = report::read_process_reports(reports->path());
    found.reports.insert(found.reports.end(), of_run.reports.begin(), of_run.reports.end());
    found.unchecked.insert(found.unchecked.end(), of_run.unchecked.begin(), of_run.unchecked.end());
  }
  const report::Report result = run_report(found, arguments.app);
  write_output(options.report, report::render_json(result));
  write_output(options.sarif, report::render_sarif(result));
  print_run_summary(result, found, options);
  return report::exit_code_for(result, app_code, report::ExitCodePolicy{.races_found = options.error_exitcode});
}

}  // namespace

void add_run_command(CLI::App& app, CommandResult& result) {
  auto arguments = std::make_shared<RunArguments>();
  CLI::App* command = app.add_subcommand("run", "Run a CUDA application under the race detector: barracuda run [options] -- app args");
#define BARRACUDA_RUN_FLAG(name, kind, default_value, help) \
  if (std::string_view(#name) != "help") add_run_flag<options::kind>(command, #name, default_value, help, *arguments);
  BARRACUDA_OPTION_TABLE(BARRACUDA_RUN_FLAG)
#undef BARRACUDA_RUN_FLAG
  command->add_option("app", arguments->app, "The application and its arguments (after --)")->required();
  command->callback([arguments, &result] { result.exit_code = run_app(*arguments); });
}

}  // namespace barracuda::cli
