// `barracuda ptx FILE.ptx [-o OUT] [--check] [--stats]`: parse a PTX module and print it back.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "ptx/cfg.h"
#include "ptx/parser.h"
#include "ptx/printer.h"

namespace barracuda::cli {
namespace {

struct PtxOptions {
  std::string input;
  std::string output;
  bool check = false;
  bool stats = false;
};

void print_stats(ptx::Module& module) {
  size_t definitions = 0, instructions = 0, blocks = 0;
  for (ptx::Function* function : module.definitions()) {
    ++definitions;
    instructions += function->instructions().size();
    blocks += ptx::ControlFlowGraph(*function).size();
  }
  std::cout << "functions: " << module.functions().size() << " (" << definitions << " with a body)\n"
            << "instructions: " << instructions << "\nbasic blocks: " << blocks << '\n';
}

int run_ptx(const PtxOptions& options) {
  std::ifstream in(options.input, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << options.input << ": cannot read\n";
    return 1;
  }
  ptx::ParseResult parsed = ptx::parse(text.str());
  if (!parsed) {
    std::cerr << options.input << ':' << parsed.error.to_string() << '\n';
    return 1;
  }
  if (options.stats) print_stats(*parsed.module);
  if (options.check || options.stats) return 0;
  if (options.output.empty()) {
    ptx::print(std::cout, *parsed.module);
    return 0;
  }
  std::ofstream out(options.output, std::ios::binary);
  ptx::print(out, *parsed.module);
  if (!out.flush()) {
    std::cerr << options.output << ": cannot write\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_ptx_command(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<PtxOptions>();
  CLI::App* command = app.add_subcommand("ptx", "Parse a PTX module and print it back (or check it)");
  command->add_option("FILE", options->input, "PTX file")->required();
  command->add_option("-o,--output", options->output, "Write the printed module here instead of stdout");
  command->add_flag("--check", options->check, "Only parse; report errors as FILE:LINE:COLUMN and exit 1");
  command->add_flag("--stats", options->stats, "Print counts of functions, instructions and basic blocks");
  command->callback([options, &result] { result.exit_code = run_ptx(*options); });
}

}  // namespace barracuda::cli
