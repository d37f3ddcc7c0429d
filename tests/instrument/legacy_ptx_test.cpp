// PTX of ISA 1.4-2.2 as nvcc 2.x-4.0 wrote it (tests/instrument/legacy_ptx/): the driver still
// JIT-compiles it, so the instrumentation must too. Each module is checked three ways: upgraded alone it
// compiles to the same machine code as the original (the upgrade changes spelling, not meaning);
// instrumented it links with the device runtime object through nvJitLink (what a run does); and
// instrumented with the runtime merged in, ptxas accepts it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "device/runtime_ptx.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/legacy_isa_upgrade.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"
#include "runtime/jit_link.h"

namespace barracuda::ptx::passes {
namespace {

std::string read_input(const std::string& name) {
  std::ifstream in(std::filesystem::path(BARRACUDA_LEGACY_PTX_DIR) / name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class LegacyPtx : public ::testing::TestWithParam<std::string> {};

TEST_P(LegacyPtx, UpgradedModuleCompilesToTheSameCodeAsTheOriginal) {
  const std::string original = read_input(GetParam());
  ASSERT_FALSE(original.empty()) << GetParam();
  ParseResult parsed = parse(original);
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  upgrade_legacy_isa(*parsed.module);
  const std::string upgraded = to_string(*parsed.module);
  EXPECT_EQ(upgraded.find(".version 1."), std::string::npos) << upgraded;
  testing::PtxasResult before = testing::run_ptxas(original, "sm_90");
  ASSERT_TRUE(before.ok) << before.log;
  testing::PtxasResult after = testing::run_ptxas(upgraded, "sm_90");
  ASSERT_TRUE(after.ok) << after.log << '\n' << upgraded;
  EXPECT_EQ(testing::compare_machine_code(before.cubin, after.cubin), "") << upgraded;
}

TEST_P(LegacyPtx, InstrumentedModuleLinksWithTheDeviceRuntime) {
  ParseResult parsed = parse(read_input(GetParam()));
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  InstrumentResult result = instrument_module(*parsed.module, {});
  EXPECT_GT(result.statistics.memory_accesses, 0u);
  const std::string text = to_string(*parsed.module);
  EXPECT_NO_THROW(runtime::link_to_cubin({{{GetParam(), text}, runtime::device_runtime_input("sm_90")}, "sm_90", {}}))
      << text;
}

TEST_P(LegacyPtx, InstrumentedModuleWithTheRuntimeMergedInPassesPtxas) {
  ParseResult parsed = parse(read_input(GetParam()));
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  instrument_module(*parsed.module, {});
  ParseResult runtime = parse(std::string(device_runtime_ptx()));
  ASSERT_TRUE(runtime) << runtime.error.to_string();
  merge_device_runtime(*parsed.module, *runtime.module);
  const std::string text = to_string(*parsed.module);
  testing::PtxasResult compiled = testing::run_ptxas(text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log;
}

INSTANTIATE_TEST_SUITE_P(Nvcc2To4, LegacyPtx,
                         ::testing::Values("vector_add_sm10.ptx", "block_reduce_sm13.ptx", "texture_lookup_sm11.ptx",
                                           "device_call_sm20.ptx"),
                         [](const auto& info) { return info.param.substr(0, info.param.find('.')); });

TEST(LegacyIsaUpgrade, SpellsOutWhatASm1xTargetImplies) {
  ParseResult parsed = parse(R"(.version 1.4
.target sm_10, map_f64_to_f32
.entry k (.param .u64 p) .maxnctapersm 2
{
.reg .f32 %f<4>;
.reg .u32 %r<2>;
.reg .pred %p<2>;
.reg .f64 %fd<2>;
mad.f32 %f1, %f2, %f3, %f1;
setp.lt.and.f32 %p1, %f1, %f2, %p1;
cvt.rzi.s32.f32 %r1, %f1;
cvt.f64.f32 %fd1, %f1;
add.ftz.f32 %f2, %f1, %f1;
exit;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  upgrade_legacy_isa(*parsed.module);
  const std::string text = to_string(*parsed.module);
  for (std::string_view expected : {".version 3.1", ".target sm_20\n", ".address_size 64", ".minnctapersm 2",
                                    "mad.rn.ftz.f32 %f1", "setp.lt.and.ftz.f32", "cvt.rzi.ftz.s32.f32",
                                    "cvt.f64.f32 %fd1", "add.ftz.f32 %f2"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in\n" << text;
  }
}

TEST(LegacyIsaUpgrade, ModernModuleIsLeftAlone) {
  const std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  ParseResult parsed = parse(text);
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  const std::string printed = to_string(*parsed.module);
  upgrade_legacy_isa(*parsed.module);
  EXPECT_EQ(to_string(*parsed.module), printed);
}

TEST(LegacyIsaUpgrade, ThirtyTwoBitModuleIsDeclinedInOneLine) {
  ParseResult parsed = parse(R"(.version 2.3
.target sm_20
.address_size 32
.entry k (.param .u32 p)
{
.reg .u32 %r<3>;
ld.param.u32 %r1, [p];
st.global.u32 [%r1], %r1;
exit;
}
)");
  ASSERT_TRUE(parsed) << parsed.error.to_string();
  try {
    instrument_module(*parsed.module, {});
    FAIL() << "instrumented a 32-bit module";
  } catch (const UnsupportedPtx& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(".address_size 32"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace barracuda::ptx::passes
