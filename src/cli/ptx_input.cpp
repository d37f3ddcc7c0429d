#include "cli/ptx_input.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "ptx/parser.h"

namespace barracuda::cli {

std::unique_ptr<ptx::Module> read_ptx_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << path << ": cannot read\n";
    return nullptr;
  }
  ptx::ParseResult parsed = ptx::parse(text.str());
  if (!parsed) {
    std::cerr << path << ':' << parsed.error.to_string() << '\n';
    return nullptr;
  }
  return std::move(parsed.module);
}

}  // namespace barracuda::cli
