#include <gtest/gtest.h>

#include "ptx/cfg.h"
#include "ptx/function_editor.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"
#include "test_modules.h"

namespace barracuda::ptx {
namespace {

using testing::kernel_module;
using testing::parse_or_fail;

StatementIterator find(Function& function, std::string_view mnemonic) {
  for (auto it = function.body.begin(); it != function.body.end(); ++it)
    if (const auto* instruction = std::get_if<Instruction>(&*it); instruction && instruction->mnemonic == mnemonic)
      return it;
  ADD_FAILURE() << "no " << mnemonic;
  return function.body.end();
}

void expect_ptxas_accepts(const Module& module) {
  auto result = testing::run_ptxas(to_string(module), "sm_90");
  EXPECT_TRUE(result.ok) << result.log << "\n" << to_string(module);
}

TEST(FunctionEditor, FreshRegistersAvoidDeclaredNames) {
  auto module = parse_or_fail(kernel_module("\t.reg .b32 %bc<2>;\n\t.reg .b64 %bc5;\n\tret;"));
  Function& function = *module->find_function("test");
  FunctionEditor editor(*module, function);
  EXPECT_EQ(editor.fresh_register(ScalarType::U32), "%bc2");
  EXPECT_EQ(editor.fresh_register(ScalarType::Pred), "%bc3");
  EXPECT_EQ(editor.fresh_register(ScalarType::U64), "%bc4");
  EXPECT_EQ(editor.fresh_register(ScalarType::U64), "%bc6");
  EXPECT_EQ(to_string(function.body.front()), ".reg .u64 %bc6;");
  expect_ptxas_accepts(*module);
}

TEST(FunctionEditor, FreshLabelsAvoidExistingLabels) {
  auto module = parse_or_fail(kernel_module("$L__bc0:\n\tret;"));
  Function& function = *module->find_function("test");
  FunctionEditor editor(*module, function);
  std::string_view first = editor.fresh_label();
  EXPECT_EQ(first, "$L__bc1");
  EXPECT_NE(editor.fresh_label(), first);
}

// The kind of edit an instrumentation pass makes: count every global store in a fresh register.
TEST(FunctionEditor, InsertedInstructionsAreAcceptedByPtxas) {
  auto module = parse_or_fail(testing::read_input("features.ptx"));
  Function& kernel = *module->find_function("kernel");
  FunctionEditor editor(*module, kernel);
  std::string_view count = editor.fresh_register(ScalarType::U32);
  editor.insert_after(find(kernel, "ld.param.u32"), editor.make_instruction("mov.u32", {Operand::reg(count), Operand::integer(0)}));
  size_t stores = 0;
  for (auto it = kernel.body.begin(); it != kernel.body.end(); ++it) {
    auto* store = std::get_if<Instruction>(&*it);
    if (!store || store->opcode != Opcode::St || store->space != StateSpace::Global) continue;
    ++stores;
    Instruction add = editor.make_instruction("add.u32", {Operand::reg(count), Operand::reg(count), Operand::integer(1)});
    EXPECT_EQ(add.opcode, Opcode::Add);
    editor.insert_before(it, std::move(add));
  }
  auto final_store = editor.insert_before(
      find(kernel, "ret"), editor.make_instruction("st.global.u32", {Operand::address("counter"), Operand::reg(count)}));
  EXPECT_EQ(to_string(*final_store), "st.global.u32 [counter], %bc0;");
  EXPECT_EQ(stores, 4u);
  size_t adds = 0;
  for (Instruction* instruction : kernel.instructions()) adds += instruction->mnemonic == "add.u32";
  EXPECT_EQ(adds, stores);
  expect_ptxas_accepts(*module);
}

TEST(FunctionEditor, SplitGuardBranchesAroundTheInstruction) {
  auto module = parse_or_fail(testing::read_input("features.ptx"));
  Function& kernel = *module->find_function("kernel");
  size_t blocks_before = ControlFlowGraph(kernel).size();
  FunctionEditor editor(*module, kernel);
  StatementIterator store = find(kernel, "st.global.u32");
  ASSERT_TRUE(std::get<Instruction>(*store).guard.negated);
  StatementIterator unguarded = editor.split_guard(store);
  EXPECT_EQ(unguarded, store);
  EXPECT_FALSE(std::get<Instruction>(*unguarded).guard.present());
  EXPECT_EQ(to_string(*std::prev(unguarded)), "@%p3 bra $L__bc0;");
  EXPECT_EQ(to_string(*std::next(unguarded)), "$L__bc0:");
  // Code inserted right after the split instruction runs under the original guard too.
  editor.insert_after(unguarded, editor.make_instruction("membar.gl", {}));
  ControlFlowGraph cfg(kernel);
  EXPECT_EQ(cfg.size(), blocks_before + 2);
  const BasicBlock* join = cfg.block_at_label("$L__bc0");
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(join->predecessors.size(), 2u);
  expect_ptxas_accepts(*module);
}

}  // namespace
}  // namespace barracuda::ptx
