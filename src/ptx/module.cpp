#include "ptx/module.h"

#include <algorithm>

namespace barracuda::ptx {

Module::Module(std::string source) : source_(std::move(source)) {}

std::string_view Module::intern(std::string_view text) { return arena_.emplace_back(text); }

VariableDeclaration& Module::add_variable(VariableDeclaration variable) {
  for (std::string_view* text : {&variable.attribute, &variable.type_name, &variable.pointer_attributes,
                                 &variable.name, &variable.array_suffix, &variable.initializer})
    if (!text->empty()) *text = intern(*text);
  auto first_function =
      std::find_if(items.begin(), items.end(), [](const ModuleItem& item) { return std::holds_alternative<Function>(item); });
  return std::get<VariableDeclaration>(*items.insert(first_function, std::move(variable)));
}

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

}  // namespace barracuda::ptx
