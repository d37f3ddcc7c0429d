// Spin reads (src/ptx/passes/spin_reads.h): which ld.volatile decide whether their loop iterates
// again, and that the instrumentation marks them kAccessSpinRead.
#include "ptx/passes/spin_reads.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "barracuda/queue.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"

namespace barracuda::ptx::passes {
namespace {

constexpr std::string_view kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

std::string kernel(std::string_view body) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 k_p)\n{\n.reg .pred %p<8>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<12>;\n"
         "ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd4, %rd1;\n" +
         std::string(body) + "\nret;\n}\n";
}

// The volatile loads of kernel `k`, in body order: whether each is a spin read.
std::vector<bool> spins(std::string_view body) {
  ParseResult parsed = parse(kernel(body));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  if (!parsed) return {};
  Function& function = *parsed.module->definitions().front();
  const SpinReads analysis(function);
  std::vector<bool> out;
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && instruction->opcode == Opcode::Ld && instruction->semantics == SemanticsQualifier::Volatile) {
      out.push_back(analysis.contains(statement));
    }
  }
  return out;
}

// CUB's onesweep LookbackGlobal as nvcc 13.0 -arch=sm_90 compiles it (agent_radix_sort_onesweep.cuh):
// the unfenced volatile publish, the do/while spin with __threadfence_block() in it, and the outer
// look-back loop that the loaded value's status bit also leaves.
constexpr std::string_view kCubLookback = R"(
mov.u32 %r1, %tid.x;
mov.u32 %r20, %ctaid.x;
mad.lo.s32 %r14, %r20, 64, %r1;
mul.wide.s32 %rd9, %r14, 4;
add.s64 %rd3, %rd4, %rd9;
mov.u32 %r22, 5;
or.b32 %r15, %r22, 1073741824;
st.volatile.global.u32 [%rd3], %r15;
setp.lt.s32 %p2, %r20, 1;
@%p2 bra $L__BB0_6;
mov.u32 %r21, -1;
$L__BB0_2:
add.s32 %r7, %r20, -1;
mad.lo.s32 %r17, %r7, 64, %r1;
mul.wide.s32 %rd10, %r17, 4;
add.s64 %rd5, %rd4, %rd10;
$L__BB0_3:
membar.cta;
ld.volatile.global.u32 %r8, [%rd5];
setp.eq.s32 %p3, %r8, 0;
@%p3 bra $L__BB0_3;
and.b32 %r18, %r8, 1073741823;
add.s32 %r22, %r18, %r22;
setp.gt.s32 %p4, %r8, -1;
vote.sync.ballot.b32 %r21, %p4, %r21;
setp.lt.s32 %p5, %r8, 0;
@%p5 bra $L__BB0_6;
setp.gt.s32 %p6, %r20, 1;
mov.u32 %r20, %r7;
@%p6 bra $L__BB0_2;
$L__BB0_6:
or.b32 %r19, %r22, -2147483648;
st.volatile.global.u32 [%rd3], %r19;)";

TEST(SpinReadAnalysis, CubLookbackSpinIsOne) { EXPECT_EQ(spins(kCubLookback), std::vector<bool>{true}); }

// while (*flag == 0); in its usual form: a generic volatile load, the exit test at the bottom.
TEST(SpinReadAnalysis, AWhileLoopOnAFlagIsOne) {
  EXPECT_EQ(spins(R"(
$L_spin:
ld.volatile.u32 %r2, [%rd1];
setp.eq.s32 %p1, %r2, 0;
@%p1 bra $L_spin;
st.global.u32 [%rd4], %r2;)"),
            std::vector<bool>{true});
}

// The exit test at the top of the loop (a while loop not rotated), through a chain of instructions
// (cvt, and, xor), on shared memory, and leaving the loop on the tested branch.
TEST(SpinReadAnalysis, AValueReachingTheExitThroughOtherInstructionsIsOne) {
  EXPECT_EQ(spins(R"(
mov.u32 %r3, 0;
$L_head:
ld.volatile.shared.u16 %rs1, [%r3];
cvt.u32.u16 %r4, %rs1;
and.b32 %r5, %r4, 255;
xor.b32 %r6, %r5, 1;
setp.ne.s32 %p1, %r6, 0;
@%p1 bra $L_done;
nanosleep.u32 100;
bra.uni $L_head;
$L_done:
ret;)"),
            std::vector<bool>{true});
}

// A warp-wide spin: while (__any_sync(~0u, *flag == 0));
TEST(SpinReadAnalysis, AWarpVoteOnTheValueIsOne) {
  EXPECT_EQ(spins(R"(
$L_spin:
ld.volatile.global.u32 %r2, [%rd4];
setp.eq.s32 %p1, %r2, 0;
vote.sync.any.pred %p2, %p1, -1;
@%p2 bra $L_spin;)"),
            std::vector<bool>{true});
}

// The value carried round the loop (a register the next iteration tests) still decides.
TEST(SpinReadAnalysis, AValueTestedInTheNextIterationIsOne) {
  EXPECT_EQ(spins(R"(
mov.u32 %r9, 0;
$L_head:
setp.ne.s32 %p1, %r9, 0;
@%p1 bra $L_done;
ld.volatile.global.u32 %r2, [%rd4];
mov.u32 %r9, %r2;
bra.uni $L_head;
$L_done:
ret;)"),
            std::vector<bool>{true});
}

// A rotated wait loop (litmus/roles.cuh's MP reader as nvcc 13.0 compiles it): the first test, before
// the loop, decides whether the loop is entered; both loads are spin reads. The same first load
// guarding a loop that spins on another address is not.
TEST(SpinReadAnalysis, TheFirstTestOfARotatedLoopIsOne) {
  constexpr std::string_view kRotated = R"(
ld.volatile.global.u32 %r7, [%rd4];
setp.eq.s32 %p1, %r7, 1;
@%p1 bra $L_done;
mov.u32 %r6, 1;
$L_wait:
ld.volatile.global.u32 %r7, [ADDRESS];
setp.ne.s32 %p2, %r7, 1;
add.s32 %r6, %r6, 1;
setp.lt.u32 %p3, %r6, 65536;
and.pred %p4, %p2, %p3;
@%p4 bra $L_wait;
$L_done:
st.global.u32 [%rd4+8], %r7;)";
  std::string same(kRotated), other(kRotated);
  same.replace(same.find("ADDRESS"), 7, "%rd4");
  other.replace(other.find("ADDRESS"), 7, "%rd4+4");
  EXPECT_EQ(spins(same), (std::vector<bool>{true, true}));
  EXPECT_EQ(spins(other), (std::vector<bool>{false, true}));
}

// A volatile load not in a loop: read once, tested, gone (the lock-bypass read).
TEST(SpinReadAnalysis, AVolatileLoadOutsideALoopIsNone) {
  EXPECT_EQ(spins(R"(
ld.volatile.global.u32 %r2, [%rd4];
setp.eq.s32 %p1, %r2, 0;
@%p1 bra $L_zero;
st.global.u32 [%rd4+4], %r2;
$L_zero:
ret;)"),
            std::vector<bool>{false});
}

// A volatile load in a loop whose exit depends on a counter only (for (i...) sum += v[i];), and one
// whose value decides only a branch inside the loop body.
TEST(SpinReadAnalysis, AVolatileLoadInALoopItDoesNotControlIsNone) {
  EXPECT_EQ(spins(R"(
mov.u32 %r3, 0;
mov.u32 %r4, 0;
mov.u64 %rd6, %rd4;
$L_loop:
ld.volatile.global.u32 %r2, [%rd6];
add.s32 %r4, %r4, %r2;
setp.gt.s32 %p2, %r2, 100;
@%p2 bra $L_skip;
st.global.u32 [%rd4+4], %r2;
$L_skip:
add.s64 %rd6, %rd6, 4;
add.s32 %r3, %r3, 1;
setp.lt.u32 %p1, %r3, 16;
@%p1 bra $L_loop;
st.global.u32 [%rd4], %r4;)"),
            std::vector<bool>{false});
}

// A spin on a legacy atomic is not a volatile load; the volatile data read after it in the critical
// section (and the one inside a lock loop that exits on the atomic's value) are not spin reads.
TEST(SpinReadAnalysis, VolatileDataInALockLoopIsNone) {
  EXPECT_EQ(spins(R"(
$L_try:
atom.global.cas.b32 %r2, [%rd4], 0, 1;
setp.ne.s32 %p1, %r2, 0;
@%p1 bra $L_try;
membar.gl;
ld.volatile.global.u32 %r3, [%rd4+4];
add.s32 %r4, %r3, 1;
st.volatile.global.u32 [%rd4+4], %r4;
membar.gl;
atom.global.exch.b32 %r5, [%rd4], 0;
mov.u32 %r6, 0;
$L_its:
atom.global.cas.b32 %r7, [%rd4], 0, 1;
setp.ne.s32 %p2, %r7, 0;
@%p2 bra $L_next;
ld.volatile.global.u32 %r8, [%rd4+4];
add.s32 %r8, %r8, 1;
st.volatile.global.u32 [%rd4+4], %r8;
atom.global.exch.b32 %r9, [%rd4], 0;
mov.u32 %r6, 1;
$L_next:
setp.eq.s32 %p3, %r6, 0;
@%p3 bra $L_its;)"),
            (std::vector<bool>{false, false}));
}

// Through instrument_module: only the spin read's access_info carries kAccessSpinRead.
TEST(SpinReadAnalysis, TheInstrumentationMarksSpinReadsOnly) {
  ParseResult parsed = parse(kernel(std::string(kCubLookback) + R"(
ld.volatile.global.u32 %r23, [%rd4+8];
st.global.u32 [%rd4+12], %r23;)"));
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  instrument_module(*parsed.module, {.log_branches = true});
  std::vector<uint32_t> loads;
  for (const Statement& statement : parsed.module->definitions().front()->body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    // The access_info argument: a b32 immediate stored into a call parameter, op kLoad, size bits set.
    if (!instruction || instruction->mnemonic != "st.param.b32" || instruction->operands.size() != 2 ||
        instruction->operands[1].kind != OperandKind::Integer) {
      continue;
    }
    const auto info = static_cast<uint32_t>(instruction->operands[1].value);
    if ((info >> 16 & 7u) == 2 && access_info_op(info) == RecordOp::kLoad &&
        access_info_space_sem(info) == pack_space_sem(MemorySpace::kGlobal, barracuda::MemorySemantics::kVolatile,
                                                      MemoryScope::kSystem)) {
      loads.push_back(info);
    }
  }
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_NE(loads[0] & kAccessSpinRead, 0u);
  EXPECT_EQ(loads[1] & kAccessSpinRead, 0u);
}

// The CUB corpus module (tests/ptx/corpus/cub.cu, built by nvcc): every volatile load of the onesweep
// radix sort kernels is the spin of its decoupled look-back (agent_radix_sort_onesweep.cuh,
// LookbackGlobal), so none of their volatile store / load pairs is reported (README, thrust::sort).
TEST(SpinReadAnalysis, EveryVolatileLoadOfCubOnesweepKernelsIsASpinRead) {
  const std::filesystem::path path = std::filesystem::path(BARRACUDA_PTX_CORPUS_DIR) / "cub.ptx";
  std::ifstream file(path);
  if (!file) GTEST_SKIP() << "corpus not built: " << path;
  std::stringstream text;
  text << file.rdbuf();
  ParseResult parsed = parse(text.str());
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  struct Counts {
    size_t loads = 0, spins = 0;
  } onesweep, other;
  for (Function* function : parsed.module->definitions()) {
    Counts& counts = function->name.find("Onesweep") != std::string_view::npos ? onesweep : other;
    const SpinReads analysis(*function);
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (instruction && instruction->opcode == Opcode::Ld && instruction->semantics == SemanticsQualifier::Volatile) {
        ++counts.loads;
        counts.spins += analysis.contains(statement);
      }
    }
  }
  std::printf("cub.ptx: onesweep kernels %zu volatile loads, %zu spin reads; other functions %zu, %zu\n",
              onesweep.loads, onesweep.spins, other.loads, other.spins);
  EXPECT_GT(onesweep.loads, 0u);
  EXPECT_EQ(onesweep.spins, onesweep.loads);
}

}  // namespace
}  // namespace barracuda::ptx::passes
