#include "ptx/printer.h"

#include <ostream>
#include <sstream>

namespace barracuda::ptx {
namespace {

template <typename T, typename PrintOne>
void print_separated(std::ostream& out, const std::vector<T>& items, std::string_view separator, PrintOne print_one) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out << separator;
    print_one(items[i]);
  }
}

void print_operand(std::ostream& out, const Operand& operand) {
  if (operand.negated) out << '!';
  auto print_members = [&](std::string_view separator) {
    print_separated(out, operand.elements, separator, [&](const Operand& member) { print_operand(out, member); });
  };
  switch (operand.kind) {
    case OperandKind::Register:
    case OperandKind::Float: out << operand.text; break;
    case OperandKind::Integer:
      if (operand.text.empty()) out << operand.value;
      else out << operand.text;
      break;
    case OperandKind::Symbol:
      out << operand.text;
      if (operand.offset_written || operand.value != 0) out << '+' << operand.value;
      break;
    case OperandKind::Address:
      out << '[' << operand.text;
      if (operand.offset_written || operand.value != 0) out << '+' << operand.value;
      for (const Operand& component : operand.elements) {
        out << ", ";
        print_operand(out, component);
      }
      out << ']';
      break;
    case OperandKind::Vector: out << '{'; print_members(", "); out << '}'; break;
    case OperandKind::ParameterList: out << '('; print_members(", "); out << ')'; break;
    case OperandKind::RegisterPair: print_members("|"); break;
    case OperandKind::Sink: out << '_'; break;
  }
}

void print_variable(std::ostream& out, const VariableDeclaration& variable) {
  if (variable.linkage != Linkage::None) out << to_string(variable.linkage) << ' ';
  out << '.' << to_string(variable.space);
  if (!variable.attribute.empty()) out << ' ' << variable.attribute;
  if (variable.alignment != 0) out << " .align " << variable.alignment;
  if (variable.vector_width != 1) out << " .v" << static_cast<int>(variable.vector_width);
  out << " ." << variable.type_name;
  if (!variable.pointer_attributes.empty()) out << ' ' << variable.pointer_attributes;
  out << ' ' << variable.name << variable.array_suffix;
  if (!variable.initializer.empty()) out << " = " << variable.initializer;
}

void print_location(std::ostream& out, const DebugLocation& location) {
  out << location.file << ' ' << location.line << ' ' << location.column;
}

struct StatementPrinter {
  std::ostream& out;

  void operator()(const Instruction& instruction) const {
    if (instruction.guard.present())
      out << '@' << (instruction.guard.negated ? "!" : "") << instruction.guard.predicate << ' ';
    out << instruction.mnemonic;
    if (!instruction.operands.empty()) out << ' ';
    print_separated(out, instruction.operands, ", ", [&](const Operand& operand) { print_operand(out, operand); });
    out << ';';
  }
  void operator()(const Label& label) const { out << label.name << ':'; }
  void operator()(const RegisterDeclaration& declaration) const {
    out << ".reg ";
    if (declaration.vector_width != 1) out << ".v" << static_cast<int>(declaration.vector_width) << ' ';
    out << '.' << declaration.type_name << ' ';
    print_separated(out, declaration.names, ", ", [&](const RegisterDeclaration::Name& name) {
      out << name.name;
      if (name.range != 0) out << '<' << name.range << '>';
    });
    out << ';';
  }
  void operator()(const VariableDeclaration& variable) const {
    print_variable(out, variable);
    out << ';';
  }
  void operator()(const LocDirective& loc) const {
    out << ".loc ";
    print_location(out, loc.location);
    if (!loc.function_name.empty()) out << ", function_name " << loc.function_name;
    if (loc.inlined_at.known()) {
      out << ", inlined_at ";
      print_location(out, loc.inlined_at);
    }
  }
  void operator()(const BranchTargets& targets) const {
    out << ".branchtargets ";
    print_separated(out, targets.labels, ", ", [&](std::string_view label) { out << label; });
    out << ';';
  }
  void operator()(const Directive& directive) const { out << directive.text; }
  void operator()(const ScopeBegin&) const { out << '{'; }
  void operator()(const ScopeEnd&) const { out << '}'; }
};

// Layout as nvcc writes it: return values on the signature line, parameters one per line.
void print_parameters(std::ostream& out, const std::vector<VariableDeclaration>& parameters, bool one_per_line) {
  out << (one_per_line ? "(\n" : "(");
  print_separated(out, parameters, one_per_line ? ",\n" : ", ", [&](const VariableDeclaration& parameter) {
    if (one_per_line) out << '\t';
    print_variable(out, parameter);
  });
  out << (one_per_line ? "\n)" : ")");
}

void print_function(std::ostream& out, const Function& function) {
  if (function.linkage != Linkage::None) out << to_string(function.linkage) << ' ';
  out << (function.is_entry ? ".entry " : ".func ");
  if (function.has_return_list) {
    print_parameters(out, function.returns, false);
    out << ' ';
  }
  out << function.name;
  if (function.has_parameter_list) {
    out << '\n';
    print_parameters(out, function.parameters, true);
  }
  out << '\n';
  for (std::string_view directive : function.directives) out << directive << '\n';
  if (!function.is_definition) {
    out << ";\n";
    return;
  }
  out << "{\n";
  StatementPrinter printer{out};
  for (const Statement& statement : function.body) {
    if (!std::holds_alternative<Label>(statement)) out << '\t';
    std::visit(printer, statement);
    out << '\n';
  }
  out << "}\n";
}

struct ItemPrinter {
  std::ostream& out;

  void operator()(const VersionDirective& version) const { out << ".version " << version.major << '.' << version.minor << '\n'; }
  void operator()(const TargetDirective& target) const {
    out << ".target ";
    print_separated(out, target.targets, ", ", [&](std::string_view name) { out << name; });
    out << '\n';
  }
  void operator()(const AddressSizeDirective& size) const { out << ".address_size " << size.bits << '\n'; }
  void operator()(const FileDirective& file) const { out << ".file " << file.index << ' ' << file.path << file.rest << '\n'; }
  void operator()(const VariableDeclaration& variable) const {
    print_variable(out, variable);
    out << ";\n";
  }
  void operator()(const Function& function) const { print_function(out, function); }
  void operator()(const Directive& directive) const { out << directive.text << '\n'; }
};

}  // namespace

void print(std::ostream& out, const Module& module) {
  for (const ModuleItem& item : module.items) std::visit(ItemPrinter{out}, item);
}

std::string to_string(const Module& module) {
  std::ostringstream out;
  print(out, module);
  return out.str();
}

std::string to_string(const Statement& statement) {
  std::ostringstream out;
  std::visit(StatementPrinter{out}, statement);
  return out.str();
}

std::string to_string(const Operand& operand) {
  std::ostringstream out;
  print_operand(out, operand);
  return out.str();
}

}  // namespace barracuda::ptx
