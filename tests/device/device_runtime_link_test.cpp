#include <gtest/gtest.h>

#include <string>

#include "runtime/jit_link.h"
#include "runtime_probe_ptx.h"

namespace barracuda {
namespace {

using runtime::JitError;
using runtime::link_to_cubin;

TEST(DeviceRuntimeLink, ProbeKernelsLinkWithTheRuntimeForSm90) {
  runtime::LinkedCubin linked =
      link_to_cubin({{{"runtime_probe", runtime_probe_ptx()}, runtime::device_runtime_input()}, "sm_90", {}});
  ASSERT_GT(linked.cubin.size(), 4u);
  EXPECT_EQ(std::string(linked.cubin.data() + 1, 3), "ELF");
}

TEST(DeviceRuntimeLink, UnresolvedCallIsReportedWithTheLinkerLog) {
  constexpr std::string_view kCaller = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func __barracuda_missing(.param .b32 site);
.visible .entry caller() {
  .reg .b32 %r<2>;
  mov.u32 %r1, 7;
  { .param .b32 p0; st.param.b32 [p0], %r1; call.uni __barracuda_missing, (p0); }
  ret;
}
)";
  try {
    link_to_cubin({{{"caller", kCaller}, runtime::device_runtime_input()}, "sm_90", {}});
    FAIL() << "an unresolved call linked";
  } catch (const JitError& e) {
    EXPECT_NE(std::string(e.what()).find("__barracuda_missing"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace barracuda
