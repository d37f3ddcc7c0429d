#include "ptx/function_editor.h"

#include <string>

namespace barracuda::ptx {

FunctionEditor::FunctionEditor(Module& module, Function& function) : module_(module), function_(function) {}

Instruction FunctionEditor::make_instruction(std::string_view mnemonic, std::vector<Operand> operands) const {
  Instruction instruction;
  instruction.mnemonic = module_.intern(mnemonic);
  instruction.operands = std::move(operands);
  decode_mnemonic(instruction);
  return instruction;
}

StatementIterator FunctionEditor::insert_before(StatementIterator position, Statement statement) {
  return function_.body.insert(position, std::move(statement));
}

StatementIterator FunctionEditor::insert_after(StatementIterator position, Statement statement) {
  return function_.body.insert(std::next(position), std::move(statement));
}

bool FunctionEditor::register_declared(std::string_view name) const {
  for (const Statement& statement : function_.body)
    if (const auto* declaration = std::get_if<RegisterDeclaration>(&statement); declaration && declaration->declares(name))
      return true;
  for (const auto* list : {&function_.parameters, &function_.returns})
    for (const VariableDeclaration& parameter : *list)
      if (parameter.name == name) return true;
  return false;
}

bool FunctionEditor::label_used(std::string_view name) const {
  for (const Statement& statement : function_.body)
    if (const auto* label = std::get_if<Label>(&statement); label && label->name == name) return true;
  return false;
}

std::string_view FunctionEditor::fresh_register(ScalarType type) {
  std::string name;
  do {
    name = "%bc" + std::to_string(next_register_++);
  } while (register_declared(name));
  RegisterDeclaration declaration;
  declaration.type_name = to_string(type);
  declaration.type = type;
  declaration.names.push_back({module_.intern(name), 0});
  std::string_view interned = declaration.names.back().name;
  function_.body.push_front(std::move(declaration));
  return interned;
}

std::string_view FunctionEditor::fresh_label() {
  std::string name;
  do {
    name = "$L__bc" + std::to_string(next_label_++);
  } while (label_used(name));
  return module_.intern(name);
}

StatementIterator FunctionEditor::split_guard(StatementIterator position) {
  auto& instruction = std::get<Instruction>(*position);
  std::string_view skip = fresh_label();
  Instruction branch = make_instruction("bra", {Operand::symbol(skip)});
  branch.guard = {instruction.guard.predicate, !instruction.guard.negated};
  branch.debug_location = instruction.debug_location;
  instruction.guard = {};
  insert_before(position, std::move(branch));
  insert_after(position, Label{skip, {}});
  return position;
}

}  // namespace barracuda::ptx
