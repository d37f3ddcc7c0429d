// Hardening (hardening.h): a fence inserted after the instruction an earlier report named, a `.cta`
// scope widened, only in modules that define the race's kernel, once however often it is asked for;
// the result still compiles.
#include "ptx/passes/hardening.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"

namespace barracuda::ptx::passes {
namespace {

// Line 12: the consumer's spin on the flag (a legacy atomic); line 16: its read of the data.
// Line 27: a block-scoped counter increment; line 28: a plain store.
constexpr std::string_view kModule = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry consumer(.param .u64 flag, .param .u64 data, .param .u64 out)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [flag];
ld.param.u64 %rd2, [data];
$L_spin:
atom.global.exch.b32 %r1, [%rd1], 0;
setp.eq.s32 %p1, %r1, 0;
@%p1 bra $L_spin;
ld.param.u64 %rd3, [out];
ld.global.u32 %r2, [%rd2];
st.global.u32 [%rd3], %r2;
ret;
}
.visible .entry counter(.param .u64 count, .param .u64 out)
{
.reg .b32 %r<3>;
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [count];
ld.param.u64 %rd2, [out];
mov.u32 %r1, 1;
atom.global.cta.add.u32 %r2, [%rd1], %r1;
st.global.u32 [%rd2], %r2;
ret;
}
)";

constexpr uint32_t kSpinLine = 12;
constexpr uint32_t kReadLine = 16;
constexpr uint32_t kCounterLine = 27;
constexpr uint32_t kStoreLine = 28;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end = text.find('\n'); end != std::string::npos; start = end + 1, end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

struct Hardened {
  uint64_t changed = 0;
  std::string text;
};

Hardened harden(const std::vector<HardeningEdit>& edits) {
  ParseResult parsed = parse(std::string(kModule));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  Hardened hardened{harden_module(*parsed.module, edits), {}};
  hardened.text = to_string(*parsed.module);
  return hardened;
}

TEST(Hardening, TheModuleSaysWhatTheLinesAre) {
  ParseResult parsed = parse(std::string(kModule));
  ASSERT_TRUE(parsed);
  std::vector<std::pair<uint32_t, std::string>> lines;
  for (Function* function : parsed.module->definitions()) {
    for (const Instruction* instruction : function->instructions()) {
      lines.emplace_back(instruction->position.line, std::string(instruction->mnemonic));
    }
  }
  EXPECT_NE(std::find(lines.begin(), lines.end(), std::pair<uint32_t, std::string>{kSpinLine, "atom.global.exch.b32"}),
            lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      std::pair<uint32_t, std::string>{kCounterLine, "atom.global.cta.add.u32"}),
            lines.end());
}

TEST(Hardening, AFenceGoesRightAfterTheSpinsAtomicAndTheModuleCompiles) {
  const Hardened hardened = harden({{"consumer", kSpinLine, HardeningEdit::Kind::kFenceAfter, Scope::Gpu}});
  EXPECT_EQ(hardened.changed, 1u);
  const std::vector<std::string> lines = lines_of(hardened.text);
  const auto atom = std::find_if(lines.begin(), lines.end(),
                                 [](const std::string& line) { return line.find("atom.global.exch") != std::string::npos; });
  ASSERT_NE(atom, lines.end());
  ASSERT_NE(std::next(atom), lines.end());
  EXPECT_NE(std::next(atom)->find("fence.acq_rel.gpu;"), std::string::npos) << hardened.text;
  const testing::PtxasResult compiled = testing::run_ptxas(hardened.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST(Hardening, AskingTwiceInsertsOneFence) {
  const HardeningEdit edit{"consumer", kSpinLine, HardeningEdit::Kind::kFenceAfter, Scope::Sys};
  const Hardened hardened = harden({edit, edit});
  EXPECT_EQ(hardened.changed, 1u);
  const size_t first = hardened.text.find("fence.acq_rel.sys;");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(hardened.text.find("fence.acq_rel.sys;", first + 1), std::string::npos);
}

TEST(Hardening, AFenceBeforeTheReadGoesRightBeforeItOnce) {
  const HardeningEdit edit{"consumer", kReadLine, HardeningEdit::Kind::kFenceBefore, Scope::Gpu};
  const Hardened hardened = harden({edit, edit});
  EXPECT_EQ(hardened.changed, 1u);
  const std::vector<std::string> lines = lines_of(hardened.text);
  const auto read = std::find_if(lines.begin(), lines.end(),
                                 [](const std::string& line) { return line.find("ld.global.u32") != std::string::npos; });
  ASSERT_NE(read, lines.end());
  ASSERT_NE(read, lines.begin());
  EXPECT_NE(std::prev(read)->find("fence.acq_rel.gpu;"), std::string::npos) << hardened.text;
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& line) { return line.find("fence.") != std::string::npos; }),
            1);
  const testing::PtxasResult compiled = testing::run_ptxas(hardened.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST(Hardening, ABlockScopedAtomicGetsDeviceScope) {
  const Hardened hardened = harden({{"counter", kCounterLine, HardeningEdit::Kind::kWidenScope, Scope::Gpu}});
  EXPECT_EQ(hardened.changed, 1u);
  EXPECT_NE(hardened.text.find("atom.global.gpu.add.u32"), std::string::npos) << hardened.text;
  EXPECT_EQ(hardened.text.find(".cta."), std::string::npos);
  const testing::PtxasResult compiled = testing::run_ptxas(hardened.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST(Hardening, NothingNarrowerOrUnscopedIsTouched) {
  // A plain store has no scope to widen; a device-scope atomic is not narrowed to the block.
  EXPECT_EQ(harden({{"counter", kStoreLine, HardeningEdit::Kind::kWidenScope, Scope::Gpu}}).changed, 0u);
  EXPECT_EQ(harden({{"counter", kCounterLine, HardeningEdit::Kind::kWidenScope, Scope::Cta}}).changed, 0u);
}

TEST(Hardening, EditsOfKernelsTheModuleDoesNotDefineAreLeftOut) {
  const Hardened hardened = harden({{"elsewhere", kSpinLine, HardeningEdit::Kind::kFenceAfter, Scope::Gpu}});
  EXPECT_EQ(hardened.changed, 0u);
  EXPECT_EQ(hardened.text.find("fence."), std::string::npos);
}

// The fence is part of the program the run checks: instrumentation logs it like the program's own.
TEST(Hardening, TheInstrumenterLogsTheInsertedFence) {
  auto synchronizations = [](std::vector<HardeningEdit> edits) {
    ParseResult parsed = parse(std::string(kModule));
    EXPECT_TRUE(parsed);
    const InstrumentResult result = instrument_module(*parsed.module, {.hardening = std::move(edits)});
    return std::pair{result.statistics.synchronizations, result.statistics.hardened_instructions};
  };
  const auto [plain, none] = synchronizations({});
  const auto [hardened, one] = synchronizations({{"consumer", kSpinLine, HardeningEdit::Kind::kFenceAfter, Scope::Gpu}});
  EXPECT_EQ(none, 0u);
  EXPECT_EQ(one, 1u);
  EXPECT_EQ(hardened, plain + 1);
}

// harden_only: the fence goes in, nothing is logged, and the module compiles on its own.
TEST(Hardening, LoggingNothingKeepsTheFenceAndAddsNoCall) {
  ParseResult parsed = parse(std::string(kModule));
  ASSERT_TRUE(parsed);
  const InstrumentResult result = instrument_module(
      *parsed.module,
      {.hardening = {{"consumer", kSpinLine, HardeningEdit::Kind::kFenceAfter, Scope::Gpu}}, .log_nothing = true});
  EXPECT_EQ(result.statistics.hardened_instructions, 1u);
  EXPECT_EQ(result.statistics.memory_accesses, 0u);
  const std::string text = to_string(*parsed.module);
  EXPECT_NE(text.find("fence.acq_rel.gpu;"), std::string::npos);
  EXPECT_EQ(text.find("call.uni __barracuda"), std::string::npos);
  EXPECT_EQ(text.find("call __barracuda"), std::string::npos);
  const testing::PtxasResult compiled = testing::run_ptxas(text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

}  // namespace
}  // namespace barracuda::ptx::passes
