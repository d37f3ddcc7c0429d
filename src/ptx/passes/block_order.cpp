#include "ptx/passes/block_order.h"

#include <array>
#include <vector>

#include "ptx/function_editor.h"
#include "ptx/passes/seed_sequence.h"

namespace barracuda::ptx::passes {
namespace {

constexpr std::array<std::string_view, 3> kBlockIndex = {"%ctaid.x", "%ctaid.y", "%ctaid.z"};
constexpr std::array<std::string_view, 3> kGridSize = {"%nctaid.x", "%nctaid.y", "%nctaid.z"};
// Primes above the largest grid dimension (2^31 - 1): a * ctaid + b is then a bijection modulo any
// grid size, since a shares no factor with it. The seed picks one and the offsets.
constexpr std::array<uint64_t, 8> kMultipliers = {2147483659u, 2147483693u, 2147483713u, 2147483743u,
                                                  2147483777u, 2147483783u, 2147483813u, 2147483857u};

struct Bijection {
  uint64_t multiplier = 0;
  uint64_t offset = 0;
};

std::optional<size_t> block_index_dimension(const Operand& operand) {
  if (!operand.is_register()) return std::nullopt;
  for (size_t d = 0; d < kBlockIndex.size(); ++d) {
    if (operand.text == kBlockIndex[d]) return d;
  }
  return std::nullopt;
}

bool reads_cluster_register(const Instruction& instruction) {
  for (const Operand& operand : instruction.operands) {
    if (operand.is_register() && (operand.text.starts_with("%cluster") || operand.text.starts_with("%nclusterid") ||
                                  operand.text.starts_with("%is_explicit_cluster"))) {
      return true;
    }
  }
  return false;
}

// Inserts before `position` the code that computes dimension `d` of the logical block index into a
// fresh .u32 register, and returns that register.
std::string_view permuted_index(FunctionEditor& editor, StatementIterator position, size_t d, BlockOrder order,
                                const Bijection& bijection) {
  const auto emit = [&](std::string_view mnemonic, std::vector<Operand> operands) {
    editor.insert_before(position, editor.make_instruction(mnemonic, std::move(operands)));
  };
  const std::string_view index = editor.fresh_register(ScalarType::U32);
  const std::string_view size = editor.fresh_register(ScalarType::U32);
  const std::string_view logical = editor.fresh_register(ScalarType::U32);
  emit("mov.u32", {Operand::reg(index), Operand::reg(kBlockIndex[d])});
  emit("mov.u32", {Operand::reg(size), Operand::reg(kGridSize[d])});
  if (order == BlockOrder::kReverse) {
    emit("sub.u32", {Operand::reg(logical), Operand::reg(size), Operand::reg(index)});
    emit("sub.u32", {Operand::reg(logical), Operand::reg(logical), Operand::integer(1)});
    return logical;
  }
  const std::string_view wide_index = editor.fresh_register(ScalarType::U64);
  const std::string_view wide_size = editor.fresh_register(ScalarType::U64);
  const std::string_view mixed = editor.fresh_register(ScalarType::U64);
  emit("cvt.u64.u32", {Operand::reg(wide_index), Operand::reg(index)});
  emit("cvt.u64.u32", {Operand::reg(wide_size), Operand::reg(size)});
  // Below 2^63: a < 2^32, ctaid < 2^31, b < 2^32.
  emit("mad.lo.u64", {Operand::reg(mixed), Operand::reg(wide_index),
                      Operand::integer(static_cast<int64_t>(bijection.multiplier)),
                      Operand::integer(static_cast<int64_t>(bijection.offset))});
  emit("rem.u64", {Operand::reg(mixed), Operand::reg(mixed), Operand::reg(wide_size)});
  emit("cvt.u32.u64", {Operand::reg(logical), Operand::reg(mixed)});
  return logical;
}

}  // namespace

BlockOrderResult permute_block_order(Module& module, BlockOrder order, uint64_t seed) {
  BlockOrderResult result;
  if (order == BlockOrder::kNatural) return result;
  std::vector<Function*> functions;
  for (Function* function : module.definitions()) {
    if (function->name.starts_with("__barracuda_")) continue;
    for (const Instruction* instruction : function->instructions()) {
      if (reads_cluster_register(*instruction)) {
        result.declined = "function " + std::string(function->name) +
                          " reads cluster registers, whose ranks follow the hardware block index";
        return result;
      }
    }
    functions.push_back(function);
  }
  std::array<Bijection, 3> bijections;
  uint64_t state = seed;
  for (Bijection& bijection : bijections) {
    bijection.multiplier = kMultipliers[split_mix(state) % kMultipliers.size()];
    bijection.offset = split_mix(state) & 0xffffffffu;
  }
  for (Function* function : functions) {
    FunctionEditor editor(module, *function);
    for (auto it = function->body.begin(); it != function->body.end(); ++it) {
      auto* instruction = std::get_if<Instruction>(&*it);
      if (instruction == nullptr) continue;
      for (Operand& operand : instruction->operands) {
        const std::optional<size_t> d = block_index_dimension(operand);
        if (!d) continue;
        operand = Operand::reg(permuted_index(editor, it, *d, order, bijections[*d]));
        ++result.remapped_reads;
      }
    }
  }
  return result;
}

}  // namespace barracuda::ptx::passes
