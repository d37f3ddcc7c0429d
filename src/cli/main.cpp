#include <cstdio>

#include <string>

#include "barracuda/version.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"barracuda: dynamic data-race detector for CUDA programs"};
  app.set_version_flag("--version", "barracuda " + std::string(barracuda::kToolVersion));
  app.require_subcommand(1);
  barracuda::cli::CommandResult result;
  barracuda::cli::add_report_command(app, result);
  barracuda::cli::add_harden_command(app, result);
  barracuda::cli::add_run_command(app, result);
  barracuda::cli::add_replay_command(app, result);
  barracuda::cli::add_dump_command(app, result);
  barracuda::cli::add_ptx_command(app, result);
  barracuda::cli::add_instrument_command(app, result);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 maps --help to exit 0 and usage errors to non-zero; BRIEF section 6 wants 2 for usage errors.
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return result.exit_code;
}
