#pragma once
// Module -> PTX text that ptxas accepts and compiles to the same code as the parsed original.
// Comments and indentation are not preserved; everything that carries meaning is.
#include <iosfwd>
#include <string>

#include "ptx/module.h"

namespace barracuda::ptx {

void print(std::ostream& out, const Module& module);
std::string to_string(const Module& module);
// One statement or operand as it appears in the printed PTX (no indentation, no newline).
std::string to_string(const Statement& statement);
std::string to_string(const Operand& operand);

}  // namespace barracuda::ptx
