#include <gtest/gtest.h>

#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"
#include "test_modules.h"

namespace barracuda::ptx {
namespace {

using testing::kernel_module;
using testing::parse_or_fail;

Instruction& nth_instruction(Function& function, size_t n) { return *function.instructions().at(n); }

Instruction& find_instruction(Function& function, std::string_view mnemonic) {
  for (Instruction* instruction : function.instructions())
    if (instruction->mnemonic == mnemonic) return *instruction;
  ADD_FAILURE() << "no " << mnemonic;
  static Instruction none;
  return none;
}

class FeaturesModule : public ::testing::Test {
 protected:
  std::unique_ptr<Module> module = parse_or_fail(testing::read_input("features.ptx"));
  Function& kernel = *module->find_function("kernel");
};

TEST_F(FeaturesModule, ModuleDirectivesAndDeclarations) {
  auto it = module->items.begin();
  EXPECT_EQ(std::get<VersionDirective>(*it).major, 8u);
  EXPECT_EQ(std::get<TargetDirective>(*++it).targets, std::vector<std::string_view>{"sm_90"});
  EXPECT_EQ(std::get<AddressSizeDirective>(*++it).bits, 64u);
  const auto& smem = std::get<VariableDeclaration>(*++it);
  EXPECT_EQ(smem.linkage, Linkage::Extern);
  EXPECT_EQ(smem.space, StateSpace::Shared);
  EXPECT_EQ(smem.alignment, 16u);
  EXPECT_EQ(smem.array_suffix, "[]");
  ++it;
  const auto& table = std::get<VariableDeclaration>(*++it);
  EXPECT_EQ(table.linkage, Linkage::Visible);
  EXPECT_EQ(table.type, ScalarType::U64);
  EXPECT_EQ(table.initializer, "{1, 2}");
  ++it;
  const auto& file = std::get<FileDirective>(*++it);
  EXPECT_EQ(file.index, 1u);
  EXPECT_EQ(file.path, "\"features.cu\"");
  EXPECT_EQ(file.rest, ", 1700000000, 1234");
  EXPECT_TRUE(std::get<Directive>(module->items.back()).text.starts_with(".section .debug_str"));
}

TEST_F(FeaturesModule, FunctionSignatures) {
  Function& square = *module->find_function("square");
  EXPECT_FALSE(square.is_entry);
  ASSERT_EQ(square.returns.size(), 1u);
  EXPECT_EQ(square.returns[0].name, "result");
  EXPECT_TRUE(kernel.is_entry);
  EXPECT_EQ(kernel.linkage, Linkage::Visible);
  ASSERT_EQ(kernel.parameters.size(), 2u);
  EXPECT_EQ(kernel.parameters[0].pointer_attributes, ".ptr .global .align 4");
  EXPECT_EQ(kernel.parameters[1].type, ScalarType::U32);
  EXPECT_EQ(kernel.directives, (std::vector<std::string_view>{".maxntid 128, 1, 1", ".minnctapersm 2"}));
}

TEST_F(FeaturesModule, MemoryInstructionsAreDecoded) {
  Instruction& atom = find_instruction(kernel, "atom.global.acq_rel.gpu.add.u32");
  EXPECT_EQ(atom.opcode, Opcode::Atom);
  EXPECT_EQ(atom.space, StateSpace::Global);
  EXPECT_EQ(atom.semantics, SemanticsQualifier::AcqRel);
  EXPECT_EQ(atom.scope, Scope::Gpu);
  EXPECT_EQ(atom.type(), ScalarType::U32);
  EXPECT_TRUE(atom.has_modifier("add"));
  EXPECT_EQ(atom.modifiers(), (std::vector<std::string_view>{"global", "acq_rel", "gpu", "add", "u32"}));

  Instruction& red = find_instruction(kernel, "red.relaxed.cta.shared.add.u32");
  EXPECT_EQ(red.space, StateSpace::Shared);
  EXPECT_EQ(red.semantics, SemanticsQualifier::Relaxed);
  EXPECT_EQ(red.scope, Scope::Cta);
  EXPECT_EQ(red.operands[0].text, "tile");
  EXPECT_EQ(red.operands[0].value, 4);

  Instruction& load = find_instruction(kernel, "ld.global.v2.u32");
  EXPECT_EQ(load.vector_width, 2);
  ASSERT_EQ(load.operands.size(), 2u);
  EXPECT_EQ(load.operands[0].kind, OperandKind::Vector);
  EXPECT_EQ(load.operands[0].elements.size(), 2u);
  EXPECT_EQ(load.operands[1].kind, OperandKind::Address);
  EXPECT_EQ(load.operands[1].text, "%rd4");
  EXPECT_EQ(load.operands[1].value, -8);
  EXPECT_EQ(load.debug_location, (DebugLocation{1, 12, 5}));
  EXPECT_EQ(load.outermost_location, (DebugLocation{1, 10, 3}));
  EXPECT_EQ(find_instruction(kernel, "ld.param.u64").outermost_location, (DebugLocation{1, 10, 3}));

  Instruction& cvta = find_instruction(kernel, "cvta.to.global.u64");
  EXPECT_EQ(cvta.opcode, Opcode::Cvta);
  EXPECT_EQ(find_instruction(kernel, "st.volatile.global.u32").semantics, SemanticsQualifier::Volatile);
  EXPECT_EQ(find_instruction(kernel, "fence.sc.cluster").semantics, SemanticsQualifier::SeqCst);
  EXPECT_EQ(find_instruction(kernel, "fence.sc.cluster").scope, Scope::Cluster);
  Instruction& membar = find_instruction(kernel, "membar.gl");
  EXPECT_EQ(membar.semantics, SemanticsQualifier::SeqCst);
  EXPECT_EQ(membar.scope, Scope::Gpu);
}

TEST_F(FeaturesModule, OperandForms) {
  Instruction& shfl = find_instruction(kernel, "shfl.sync.bfly.b32");
  EXPECT_EQ(shfl.operands[0].kind, OperandKind::RegisterPair);
  EXPECT_EQ(to_string(shfl.operands[0]), "%r7|%p2");
  EXPECT_EQ(shfl.operands[4].kind, OperandKind::Integer);
  EXPECT_EQ(shfl.operands[4].value, -1);
  Instruction& vote = find_instruction(kernel, "vote.sync.any.pred");
  EXPECT_TRUE(vote.operands[1].negated);
  Instruction& call = find_instruction(kernel, "call.uni");
  ASSERT_EQ(call.operands.size(), 3u);
  EXPECT_EQ(call.operands[0].kind, OperandKind::ParameterList);
  EXPECT_EQ(call.operands[1].kind, OperandKind::Symbol);
  Instruction& indirect = find_instruction(kernel, "call");
  EXPECT_EQ(indirect.operands[1].kind, OperandKind::Register);
  EXPECT_EQ(indirect.operands[3].text, "proto");
  // `tmp` is declared by `.reg`, so it is a register although it has no '%'.
  EXPECT_EQ(find_instruction(kernel, "ld.param.b32").operands[0].kind, OperandKind::Register);
  EXPECT_EQ(find_instruction(kernel, "add.f32").operands[2].kind, OperandKind::Float);
  EXPECT_EQ(find_instruction(kernel, "mov.b32").operands[1].value, 0x1F);
}

TEST_F(FeaturesModule, GuardsLabelsAndDirectiveStatements) {
  Instruction& guarded_store = find_instruction(kernel, "st.global.u32");
  EXPECT_EQ(guarded_store.guard.predicate, "%p3");
  EXPECT_TRUE(guarded_store.guard.negated);
  EXPECT_FALSE(nth_instruction(kernel, 0).guard.present());
  size_t labels = 0, scopes = 0, locs = 0, tables = 0, prototypes = 0;
  for (const Statement& statement : kernel.body) {
    labels += std::holds_alternative<Label>(statement);
    scopes += std::holds_alternative<ScopeBegin>(statement);
    if (const auto* loc = std::get_if<LocDirective>(&statement)) {
      ++locs;
      if (loc->inlined_at.known()) {
        EXPECT_EQ(loc->function_name, "$L_name");
        EXPECT_EQ(loc->inlined_at, (DebugLocation{1, 10, 3}));
      }
    }
    if (const auto* targets = std::get_if<BranchTargets>(&statement)) {
      ++tables;
      EXPECT_EQ(targets->labels, (std::vector<std::string_view>{"$L_a", "$L_b"}));
    }
    if (const auto* directive = std::get_if<Directive>(&statement))
      prototypes += directive->text.starts_with(".callprototype");
  }
  EXPECT_EQ(labels, 5u);  // proto, $L_table, $L_a, $L_b, $L_done
  EXPECT_EQ(scopes, 2u);
  EXPECT_EQ(locs, 2u);
  EXPECT_EQ(tables, 1u);
  EXPECT_EQ(prototypes, 1u);
}

// nvcc -lineinfo describes nested inlining as a chain of `.loc`s, each inlined at the previous one.
TEST(Parser, InliningChainsLeadBackToTheUserLine) {
  auto module = parse_or_fail(kernel_module(
      "\t.loc 1 11 3\n"
      "\t.loc 3 81 13, function_name $a, inlined_at 1 11 3\n"
      "\t.loc 4 166 3, function_name $b, inlined_at 3 81 13\n"
      "\tatom.add.acq_rel.gpu.s32 %r16, [%rd2], %r17;\n"
      "\t.loc 1 12 3\n"
      "\tmov.u32 %r18, 3;\n"
      "\t.loc 4 166 3, function_name $b, inlined_at 1 12 7\n"
      "\tmov.u32 %r19, 3;"));
  auto instructions = module->find_function("test")->instructions();
  EXPECT_EQ(instructions[0]->debug_location, (DebugLocation{4, 166, 3}));
  EXPECT_EQ(instructions[0]->outermost_location, (DebugLocation{1, 11, 3}));
  EXPECT_EQ(instructions[1]->outermost_location, (DebugLocation{1, 12, 3}));
  EXPECT_EQ(instructions[2]->outermost_location, (DebugLocation{1, 12, 7}));
}

TEST(Parser, OlderIsaNamedRegistersAndOpaqueTypes) {
  auto module = parse_or_fail(
      ".version 4.3\n.target sm_52, texmode_independent\n.address_size 64\n"
      ".global .texref tex;\n"
      ".func (.reg .b32 out) twice(.reg .b32 in)\n{\n\tadd.s32 out, in, in;\n\tret;\n}\n");
  auto* function = module->find_function("twice");
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->returns[0].space, StateSpace::Reg);
  EXPECT_EQ(std::get<VariableDeclaration>(*std::next(module->items.begin(), 3)).type_name, "texref");
  const Instruction& add = *function->instructions()[0];
  EXPECT_EQ(add.operands[0].kind, OperandKind::Symbol);  // parameters are not `.reg` statements
  EXPECT_EQ(std::get<TargetDirective>(*std::next(module->items.begin())).targets.size(), 2u);
}

TEST(Parser, FunctionAttributesKeepTheirPlace) {
  auto module = parse_or_fail(
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".weak .func .attribute(.unified(0x12, 0x34)) (.param .b32 r) bar(.param .b32 a)\n{\n\tret;\n}\n"
      ".visible .func die() .noreturn\n{\n\ttrap;\n}\n");
  Function& bar = *module->find_function("bar");
  EXPECT_EQ(bar.linkage, Linkage::Weak);
  EXPECT_EQ(bar.leading_directives, std::vector<std::string_view>{".attribute(.unified(0x12, 0x34))"});
  EXPECT_EQ(module->find_function("die")->directives, std::vector<std::string_view>{".noreturn"});
  std::string printed = to_string(*module);
  EXPECT_NE(printed.find(".weak .func .attribute(.unified(0x12, 0x34)) (.param .b32 r) bar\n"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find(")\n.noreturn\n{"), std::string::npos) << printed;
}

TEST(Parser, DeclarationsWithSeveralNames) {
  auto module = parse_or_fail(
      ".version 8.0\n.target sm_90\n.address_size 64\n.global .align 4 .u32 a, b[2] = {1, 2}, c = 3;\n"
      ".visible .entry k()\n{\n\t.local .u32 x, y;\n\tret;\n}\n");
  std::vector<std::string> globals;
  for (const ModuleItem& item : module->items)
    if (const auto* variable = std::get_if<VariableDeclaration>(&item))
      globals.push_back(to_string(Statement{*variable}));
  EXPECT_EQ(globals, (std::vector<std::string>{".global .align 4 .u32 a;", ".global .align 4 .u32 b[2] = {1, 2};",
                                               ".global .align 4 .u32 c = 3;"}));
  EXPECT_EQ(module->find_function("k")->body.size(), 3u);  // x, y, ret
  auto compiled = testing::run_ptxas(to_string(*module), "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST(Parser, CommentsStrippedFormAndTrailingNul) {
  std::string text = "/* header */.version 8.0 // trailing\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\nret;\n}\n";
  text.push_back('\0');
  auto module = parse_or_fail(text);
  EXPECT_EQ(module->definitions().size(), 1u);
}

TEST(Parser, UnknownOpcodesAndModifiersRoundTrip) {
  auto module = parse_or_fail(kernel_module("\tfrobnicate.sideways.u32 %r1, [%rd1+16], 0d3FF0000000000000;"));
  Instruction& unknown = *module->find_function("test")->instructions()[0];
  EXPECT_EQ(unknown.opcode, Opcode::Other);
  EXPECT_EQ(unknown.type(), ScalarType::U32);
  EXPECT_EQ(to_string(Statement{unknown}), "frobnicate.sideways.u32 %r1, [%rd1+16], 0d3FF0000000000000;");
}

TEST(Parser, TwoWordOpcodes) {
  auto module = parse_or_fail(kernel_module("\tst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"));
  Instruction& store = *module->find_function("test")->instructions()[0];
  EXPECT_EQ(store.opcode, Opcode::StAsync);
  EXPECT_EQ(store.space, StateSpace::SharedCluster);
}

TEST(Parser, ExtremeImmediates) {
  auto module = parse_or_fail(kernel_module("\tmov.b64 %rd1, -9223372036854775808;\n\tmov.b64 %rd2, 0xFFFFFFFFFFFFFFFF;"));
  auto instructions = module->find_function("test")->instructions();
  EXPECT_EQ(instructions[0]->operands[1].value, INT64_MIN);
  EXPECT_EQ(instructions[1]->operands[1].value, -1);
  EXPECT_EQ(to_string(instructions[1]->operands[1]), "0xFFFFFFFFFFFFFFFF");
}

TEST(RegisterDeclaration, RangesDeclareNumberedRegisters) {
  RegisterDeclaration declaration{"b32", ScalarType::B32, 1, {{"%r", 10}, {"tmp", 0}}, {}};
  EXPECT_TRUE(declaration.declares("%r0"));
  EXPECT_TRUE(declaration.declares("%r9"));
  EXPECT_TRUE(declaration.declares("tmp"));
  EXPECT_FALSE(declaration.declares("%r10"));
  EXPECT_FALSE(declaration.declares("%r01"));
  EXPECT_FALSE(declaration.declares("%r"));
  EXPECT_FALSE(declaration.declares("%rd1"));
}

struct BadInput {
  const char* name;  // the test's name
  const char* text;
  uint32_t line;
  uint32_t column;
  const char* message;
};

class ParserErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(ParserErrors, NameLineAndColumn) {
  ParseResult result = parse(GetParam().text);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error.position, (SourcePosition{GetParam().line, GetParam().column})) << result.error.to_string();
  EXPECT_NE(result.error.message.find(GetParam().message), std::string::npos) << result.error.to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, ParserErrors,
    ::testing::Values(
        BadInput{"UnknownDirective", ".version 8.0\n.frobnicate 3;\n", 2, 1, "unsupported directive '.frobnicate'"},
        BadInput{"VersionWithoutMinor", ".version 8\n", 1, 10, "MAJOR.MINOR"},
        BadInput{"MissingSemicolon", ".entry k()\n{\n\tmov.u32 %r1, 1\n}\n", 4, 1, "expected ';' after the operands of 'mov.u32'"},
        BadInput{"UnclosedBody", ".entry k()\n{\n\tret;\n", 4, 1, "expected '}' to close the body of k"},
        BadInput{"OffsetWithoutNumber", ".entry k()\n{\n\tld.u32 %r1, [%rd1+;\n}\n", 3, 20, "an integer offset"},
        BadInput{"BadOperand", ".entry k()\n{\n\tadd.u32 %r1, #;\n}\n", 3, 15, "expected an operand"},
        BadInput{"UnterminatedComment", ".entry k()\n{\n\t/* open\n", 3, 2, "unterminated comment"},
        BadInput{"EmptyInitializer", ".global .u32 x = ;\n", 1, 18, "expected an initializer"},
        BadInput{"AlignWithoutValue", ".global .align .u32 x;\n", 1, 16, "expected an integer"},
        BadInput{"UnclosedRegisterRange", ".entry k()\n{\n\t.reg .b32 %r<5;\n}\n", 3, 16, "'>'"},
        BadInput{"GuardWithoutPredicate", ".entry k()\n{\n\t@!;\n}\n", 3, 4, "a predicate register"},
        BadInput{"UnterminatedString", ".file 1 \"unterminated\n", 1, 9, "invalid text"},
        BadInput{"UnclosedSection", ".section .debug_info {\n.b8 1\n", 1, 22, "expected '}'"},
        BadInput{"IntegerOutOfRange", ".address_size 99999999999\n", 1, 15, "out of range"}),
    [](const ::testing::TestParamInfo<BadInput>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace barracuda::ptx
