// Schedule perturbation (schedule_perturbation.h): a seeded, guarded nanosleep before each atomic,
// fence, barrier and spin read; the result compiles; the same seed gives the same code and another seed
// other delays; seed 0 and modules too old for nanosleep are left alone.
#include "ptx/passes/schedule_perturbation.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "ptx/parser.h"
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

Perturbed perturb(std::string_view source, uint64_t seed) {
  ParseResult parsed = parse(std::string(source));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  Perturbed perturbed{perturb_schedule(*parsed.module, seed), {}};
  perturbed.text = to_string(*parsed.module);
  return perturbed;
}

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

TEST(SchedulePerturbation, EverySynchronisingInstructionGetsAGuardedSleepAndTheModuleCompiles) {
  const Perturbed perturbed = perturb(kModule, 7);
  EXPECT_FALSE(perturbed.result.declined);
  // The spin read, the fence, the exchange, the barrier and the helper's add: not the store, not ld.param.
  EXPECT_EQ(perturbed.result.delay_points, 5u);
  EXPECT_EQ(count(perturbed.text, R"(@%[^\s]+ nanosleep\.u32)"), 5u) << perturbed.text;
  // The warp's hash reads the thread and block indices once per function.
  EXPECT_EQ(count(perturbed.text, R"(%ctaid\.x)"), 2u);
  const testing::PtxasResult compiled = testing::run_ptxas(perturbed.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log << "\n" << perturbed.text;
}

TEST(SchedulePerturbation, TheSeedDecidesTheDelaysAndNothingElse) {
  EXPECT_EQ(perturb(kModule, 7).text, perturb(kModule, 7).text);
  EXPECT_NE(perturb(kModule, 7).text, perturb(kModule, 8).text);
  const Perturbed off = perturb(kModule, 0);
  EXPECT_EQ(off.result.delay_points, 0u);
  EXPECT_EQ(count(off.text, "nanosleep"), 0u);
}

TEST(SchedulePerturbation, AModuleTooOldForNanosleepIsLeftAlone) {
  std::string old(kModule);
  old.replace(old.find("sm_90"), 5, "sm_60");
  const Perturbed perturbed = perturb(old, 7);
  ASSERT_TRUE(perturbed.result.declined);
  EXPECT_NE(perturbed.result.declined->find("sm_60"), std::string::npos);
  EXPECT_EQ(count(perturbed.text, "nanosleep"), 0u);
  std::string old_isa(kModule);
  old_isa.replace(old_isa.find("8.0"), 3, "6.0");
  EXPECT_TRUE(perturb(old_isa, 7).result.declined);
}

}  // namespace
}  // namespace barracuda::ptx::passes
