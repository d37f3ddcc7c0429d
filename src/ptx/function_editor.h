#pragma once
// Editing helpers for instrumentation passes: build instructions, insert them, declare fresh
// registers and labels, and turn a guarded instruction into a branch around an unguarded one.
// Iterators into the body stay valid across every edit (the body is a std::list).
#include <string_view>
#include <vector>

#include "ptx/module.h"

namespace barracuda::ptx {

class FunctionEditor {
 public:
  // `function` must belong to `module` (new names are interned in the module).
  FunctionEditor(Module& module, Function& function);

  // An instruction with decoded fields: make_instruction("ld.global.u32", {reg, address}).
  // The mnemonic is interned; guard and debug location are left empty.
  Instruction make_instruction(std::string_view mnemonic, std::vector<Operand> operands) const;

  // Inserts `statement` before/after `position` and returns an iterator to the new statement.
  StatementIterator insert_before(StatementIterator position, Statement statement);
  StatementIterator insert_after(StatementIterator position, Statement statement);

  // Declares a new register of `type` (a `.reg` at the top of the body) whose name clashes with no
  // register of the function, and returns its name.
  std::string_view fresh_register(ScalarType type);
  // A label name used nowhere in the function (not yet placed: insert a Label statement for it).
  std::string_view fresh_label();

  // `@%p op` at `position` becomes `@!%p bra L; op; L:` (and `@!%p op` becomes `@%p bra L; ...`).
  // Returns the iterator of the now unguarded instruction; statements inserted between it and the
  // label execute under the original guard. Requires an Instruction with a guard at `position`.
  StatementIterator split_guard(StatementIterator position);

  Function& function() { return function_; }

 private:
  bool register_declared(std::string_view name) const;
  bool label_used(std::string_view name) const;

  Module& module_;
  Function& function_;
  uint32_t next_register_ = 0;
  uint32_t next_label_ = 0;
};

}  // namespace barracuda::ptx
