#include "ptx/module.h"

#include <charconv>

namespace barracuda::ptx {

Module::Module(std::string source) : source_(std::move(source)) {}

std::string_view Module::intern(std::string_view text) { return arena_.emplace_back(text); }

std::vector<Function*> Module::functions() {
  std::vector<Function*> result;
  for (ModuleItem& item : items)
    if (auto* function = std::get_if<Function>(&item)) result.push_back(function);
  return result;
}

std::vector<const Function*> Module::functions() const {
  std::vector<const Function*> result;
  for (const ModuleItem& item : items)
    if (const auto* function = std::get_if<Function>(&item)) result.push_back(function);
  return result;
}

Function* Module::find_function(std::string_view name) {
  for (Function* function : functions())
    if (function->name == name) return function;
  return nullptr;
}

std::vector<Function*> Module::definitions() {
  std::vector<Function*> result;
  for (Function* function : functions())
    if (function->is_definition) result.push_back(function);
  return result;
}

std::vector<Instruction*> Function::instructions() {
  std::vector<Instruction*> result;
  for (Statement& statement : body)
    if (auto* instruction = std::get_if<Instruction>(&statement)) result.push_back(instruction);
  return result;
}

bool RegisterDeclaration::declares(std::string_view reg) const {
  for (const Name& declared : names) {
    if (declared.range == 0) {
      if (declared.name == reg) return true;
      continue;
    }
    if (!reg.starts_with(declared.name)) continue;
    std::string_view digits = reg.substr(declared.name.size());
    uint32_t number = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    bool canonical = !digits.empty() && (digits.size() == 1 || digits[0] != '0');
    if (error == std::errc{} && end == digits.data() + digits.size() && canonical && number < declared.range)
      return true;
  }
  return false;
}

}  // namespace barracuda::ptx
