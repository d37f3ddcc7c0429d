#pragma once
// Each subcommand lives in its own <name>_command.cpp and registers itself on the app here.
#include <CLI/CLI.hpp>

namespace barracuda::cli {

// Registered commands set this to the process exit code when they run.
struct CommandResult {
  int exit_code = 0;
};

void add_report_command(CLI::App& app, CommandResult& result);
void add_harden_command(CLI::App& app, CommandResult& result);
void add_run_command(CLI::App& app, CommandResult& result);
void add_replay_command(CLI::App& app, CommandResult& result);
void add_dump_command(CLI::App& app, CommandResult& result);
void add_ptx_command(CLI::App& app, CommandResult& result);
void add_instrument_command(CLI::App& app, CommandResult& result);

}  // namespace barracuda::cli
