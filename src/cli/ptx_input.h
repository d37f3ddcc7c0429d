#pragma once
// Reads and parses a PTX file for a subcommand; errors go to stderr as FILE: message / FILE:LINE:COL.
#include <memory>
#include <string>

#include "ptx/module.h"

namespace barracuda::cli {

// nullptr (after printing why) when the file cannot be read or does not parse.
std::unique_ptr<ptx::Module> read_ptx_file(const std::string& path);

}  // namespace barracuda::cli
