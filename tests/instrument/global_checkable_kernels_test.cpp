// Which kernels the device checks global memory of (global_checkable_kernels.h), on PTX nvcc emits
// (global_checkable_kernels.cu), and what the instrumentation then does to them: kAccessDeviceGlobal
// on exactly their global and generic loads, stores and atomics, and a module nvJitLink and ptxas
// accept with the device runtime.
#include "ptx/passes/global_checkable_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "barracuda/queue.h"
#include "barracuda/shared_check.h"
#include "checkable_kernels_ptx.h"
#include "contained_functions.h"
#include "ptx/parser.h"
#include "ptx/passes/grid_syncs.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/shared_checkable_kernels.h"
#include "ptx/printer.h"
#include "runtime/jit_link.h"

namespace barracuda::ptx::passes {
namespace {

using Names = std::set<std::string>;

const Names kCheckableKernels = {"elementwise_add",    "tiled_transpose",       "counts_in_shared",
                                 "stores_through_function", "with_global_atomic", "calls_atomic_function",
                                 "relaxes_distances",  "grid_sync_exchange"};
// Those kernels and the device functions only they call.
const Names kCheckableFunctions = {"elementwise_add",       "tiled_transpose",    "counts_in_shared",
                                   "stores_through_function", "_Z10store_wordPii", "with_global_atomic",
                                   "calls_atomic_function", "_Z10count_intoPi",  "relaxes_distances",
                                   "grid_sync_exchange"};

// global_checkable_kernels.cu as nvcc compiled it.
class GlobalCheckableKernelsTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(parsed_) << parsed_.error.to_string(); }
  Module& module() { return *parsed_.module; }

 private:
  ParseResult parsed_ = parse(std::string(global_checkable_kernels_ptx()));
};

TEST_F(GlobalCheckableKernelsTest, AcceptsBarrierOnlyKernelsAndRejectsEachExclusion) {
  EXPECT_EQ(contained_functions<GlobalCheckableKernels>(module()), kCheckableFunctions);
}

// Neither classification implies the other: elementwise_add has no shared access to check,
// without_global_access no global one.
TEST_F(GlobalCheckableKernelsTest, ASpaceCheckableKernelNeedNotBeCheckableForTheOther) {
  EXPECT_EQ(contained_functions<SharedCheckableKernels>(module()),
            (Names{"tiled_transpose", "counts_in_shared", "stores_through_function", "_Z10store_wordPii",
                   "without_global_access"}));
}

// The toolkit's grid sync is recognised in grid_sync_exchange alone: not in its split form, nor where
// the same instructions work on the program's own counter.
TEST_F(GlobalCheckableKernelsTest, RecognisesTheToolkitsGridSyncOnly) {
  const GridSyncs grid_syncs(module());
  Names with_grid_sync;
  int arrivals = 0, spins = 0;
  for (const Function* function : module().functions()) {
    if (grid_syncs.in(*function)) with_grid_sync.emplace(function->name);
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || !grid_syncs.contains(*instruction)) continue;
      ++(grid_syncs.is_arrival(*instruction) ? arrivals : spins);
      EXPECT_EQ(instruction->opcode, grid_syncs.is_arrival(*instruction) ? Opcode::Atom : Opcode::Ld);
    }
  }
  EXPECT_EQ(with_grid_sync, Names{"grid_sync_exchange"});
  EXPECT_EQ(arrivals, 1);
  EXPECT_EQ(spins, 1);
}

TEST_F(GlobalCheckableKernelsTest, AModuleWhoseSiteIdsMayNotFitTheShadowIsLeftToTheHost) {
  EXPECT_EQ(contained_functions<GlobalCheckableKernels>(module(), kSharedCheckMaxSites - 100), Names{});
  EXPECT_EQ(contained_functions<GlobalCheckableKernels>(module(), kSharedCheckMaxSites / 2), kCheckableFunctions)
      << "ids that fit, however high they start";
}

// The access_info argument of each __barracuda_log_access call the instrumentation put in `function`:
// the integer stored to its third parameter (__bc_arg2) before the call.
std::vector<uint32_t> logged_access_infos(const Function& function) {
  std::vector<uint32_t> infos;
  uint32_t third_argument = 0;
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (!instruction || instruction->operands.empty()) continue;
    const Operand& first = instruction->operands.front();
    if (instruction->mnemonic == "st.param.b32" && first.text == "__bc_arg2" && instruction->operands.size() == 2 &&
        instruction->operands[1].kind == OperandKind::Integer) {
      third_argument = static_cast<uint32_t>(instruction->operands[1].value);
    } else if (instruction->opcode == Opcode::Call && first.text == "__barracuda_log_access") {
      infos.push_back(third_argument);
    }
  }
  return infos;
}

bool global_or_generic(uint32_t info) {
  const RecordOp op = access_info_op(info);
  // Generic accesses are logged with the global space until the device classifies them.
  return (op == RecordOp::kLoad || op == RecordOp::kStore || op == RecordOp::kAtomic || op == RecordOp::kReduction) &&
         space_of(access_info_space_sem(info)) == MemorySpace::kGlobal;
}

TEST_F(GlobalCheckableKernelsTest, InstrumentationMarksExactlyTheGlobalAccessesOfCheckableKernels) {
  const InstrumentResult result = instrument_module(module(), {});
  EXPECT_EQ(result.statistics.global_checkable_kernels, kCheckableKernels.size());
  EXPECT_EQ(result.global_checkable_kernels, kCheckableKernels);
  EXPECT_EQ(result.grid_sync_kernels, (std::set<std::string>{"grid_sync_exchange"}));
  for (const Function* function : module().definitions()) {
    const auto calls = std::count_if(function->body.begin(), function->body.end(), [](const Statement& statement) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      return instruction && instruction->opcode == Opcode::Call && !instruction->operands.empty() &&
             instruction->operands.front().text == "__barracuda_grid_sync_arrival";
    });
    EXPECT_EQ(calls, function->name == "grid_sync_exchange" ? 1 : 0) << function->name;
  }
  const std::string text = to_string(module());
  EXPECT_FALSE(
      runtime::link_to_cubin({{{"kernels", text}, runtime::device_runtime_input("sm_90")}, "sm_90", {}}).cubin.empty());

  std::map<std::string, int> marked;
  int generic_marked_for_both = 0;
  for (const Function* function : module().definitions()) {
    const std::string name(function->name);
    if (name.starts_with("__barracuda_")) continue;
    for (const uint32_t info : logged_access_infos(*function)) {
      const bool expected = kCheckableFunctions.contains(name) && global_or_generic(info);
      EXPECT_EQ((info & kAccessDeviceGlobal) != 0, expected) << name << " 0x" << std::hex << info;
      marked[name] += (info & kAccessDeviceGlobal) != 0;
      generic_marked_for_both += (info & kAccessGeneric) && (info & kAccessDeviceGlobal) && (info & kAccessDeviceShared);
    }
  }
  // The kernel stores_through_function reaches global memory through store_word only.
  for (const char* name : {"elementwise_add", "tiled_transpose", "counts_in_shared", "_Z10store_wordPii",
                           "with_global_atomic", "_Z10count_intoPi", "relaxes_distances"}) {
    EXPECT_GE(marked[name], 1) << name;
  }
  EXPECT_EQ(generic_marked_for_both, 1) << "store_word's generic store, in a function checkable for both spaces";
}

}  // namespace
}  // namespace barracuda::ptx::passes
