#include "ptx/function.h"

namespace barracuda::ptx {

std::vector<Instruction*> Function::instructions() {
  std::vector<Instruction*> result;
  for (Statement& statement : body)
    if (auto* instruction = std::get_if<Instruction>(&statement)) result.push_back(instruction);
  return result;
}

}  // namespace barracuda::ptx
