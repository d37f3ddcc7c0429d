// Schedule perturbation (schedule_perturbation.h): a guarded nanosleep before each atomic, fence,
// barrier and spin read, chosen with a seed the module reads from its weak seed global; the result
// compiles, is the same for every seed, and modules too old for nanosleep are left alone.
#include "ptx/passes/schedule_perturbation.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"

namespace barracuda::ptx::passes {
namespace {

// A spin on a flag (ld.volatile in a loop), a fence, an atomic, a barrier, and a plain store that is
// not delayed; the helper function's atomic is delayed too.
constexpr std::string_view kModule = R"(.version 8.0
.target sm_90
.address_size 64
.func bump(.param .u64 counter)
{
.reg .b64 %rd<2>;
.reg .b32 %r<2>;
ld.param.u64 %rd1, [counter];
atom.global.add.u32 %r1, [%rd1], 1;
ret;
}
.visible .entry k(.param .u64 flag, .param .u64 out)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [flag];
ld.param.u64 %rd2, [out];
$L_spin:
ld.volatile.global.u32 %r1, [%rd1];
setp.eq.u32 %p1, %r1, 0;
@%p1 bra $L_spin;
fence.acq_rel.gpu;
atom.global.exch.b32 %r2, [%rd1], 0;
bar.sync 0;
st.global.u32 [%rd2], %r2;
{
.param .b64 param0;
st.param.b64 [param0], %rd2;
call.uni bump, (param0);
}
ret;
}
)";

struct Perturbed {
  PerturbationResult result;
  std::string text;
};

Perturbed perturb(std::string_view source) {
  ParseResult parsed = parse(std::string(source));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  Perturbed perturbed{perturb_schedule(*parsed.module), {}};
  perturbed.text = to_string(*parsed.module);
  return perturbed;
}

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

TEST(SchedulePerturbation, EverySynchronisingInstructionGetsAGuardedSleepAndTheModuleCompiles) {
  const Perturbed perturbed = perturb(kModule);
  EXPECT_FALSE(perturbed.result.declined);
  // The spin read, the fence, the exchange, the barrier and the helper's add: not the store, not ld.param.
  EXPECT_EQ(perturbed.result.delay_points, 5u);
  EXPECT_EQ(count(perturbed.text, R"(@%[^\s]+ nanosleep\.u32)"), 5u) << perturbed.text;
  // The warp's hash reads the thread and block indices once per function.
  EXPECT_EQ(count(perturbed.text, R"(%ctaid\.x)"), 2u);
  const testing::PtxasResult compiled = testing::run_ptxas(perturbed.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log << "\n" << perturbed.text;
}

// The seed is data, not code: each function's hash loads it from one weak global (every instrumented
// module of a link defines it), which the host sets after the load; the code is the same every time.
TEST(SchedulePerturbation, EachFunctionReadsTheSeedFromOneWeakGlobal) {
  const Perturbed perturbed = perturb(kModule);
  EXPECT_EQ(count(perturbed.text, R"(\.weak \.global \.align 4 \.u32 __barracuda_perturb_seed = 0;)"), 1u) << perturbed.text;
  EXPECT_EQ(count(perturbed.text, R"(ld\.global\.u32 [^,]+, \[__barracuda_perturb_seed\];)"), 2u);
  EXPECT_EQ(perturbed.text, perturb(kModule).text);
}

// Instrumented, a perturbed module logs the same accesses as before: the seed load is the tool's.
TEST(SchedulePerturbation, TheSeedLoadIsNotLoggedAsAnAccessOfTheProgram) {
  const auto logged = [](uint64_t seed) {
    ParseResult parsed = parse(std::string(kModule));
    EXPECT_TRUE(parsed) << parsed.error.to_string();
    const InstrumentResult result = instrument_module(*parsed.module, {.perturb_seed = seed});
    EXPECT_EQ(result.statistics.delay_points, seed == 0 ? 0u : 5u);
    return result.statistics.memory_accesses;
  };
  EXPECT_EQ(logged(3), logged(0));
}

TEST(SchedulePerturbation, AModuleTooOldForNanosleepIsLeftAlone) {
  std::string old(kModule);
  old.replace(old.find("sm_90"), 5, "sm_60");
  const Perturbed perturbed = perturb(old);
  ASSERT_TRUE(perturbed.result.declined);
  EXPECT_NE(perturbed.result.declined->find("sm_60"), std::string::npos);
  EXPECT_EQ(count(perturbed.text, "nanosleep"), 0u);
  std::string old_isa(kModule);
  old_isa.replace(old_isa.find("8.0"), 3, "6.0");
  EXPECT_TRUE(perturb(old_isa).result.declined);
  EXPECT_EQ(count(perturbed.text, "__barracuda_perturb_seed"), 0u);
}

}  // namespace
}  // namespace barracuda::ptx::passes
