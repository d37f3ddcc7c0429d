#pragma once
// A kernel (.entry) or device function (.func): signature, performance directives and body.
#include <string_view>
#include <vector>

#include "ptx/statement.h"
#include "ptx/variable.h"

namespace barracuda::ptx {

struct Function {
  Linkage linkage = Linkage::None;
  bool is_entry = false;  // .entry (kernel) vs .func
  std::string_view name;
  bool has_return_list = false;                 // `.func (...) name`: returns may still be empty
  std::vector<VariableDeclaration> returns;     // .func return parameters
  bool has_parameter_list = false;              // `name (...)` written, even if empty
  std::vector<VariableDeclaration> parameters;
  // Directives between the signature and the body, verbatim: ".maxntid 256, 1, 1", ".noreturn",
  // ".reqnctapercluster 2, 1, 1", ".pragma \"nounroll\";"
  std::vector<std::string_view> directives;
  bool is_definition = false;  // false: a prototype ending in ';' (e.g. `.extern .func vprintf`)
  StatementList body;
  SourcePosition position;

  // Instructions in body order (convenience for passes that ignore the other statements).
  std::vector<Instruction*> instructions();
};

}  // namespace barracuda::ptx
