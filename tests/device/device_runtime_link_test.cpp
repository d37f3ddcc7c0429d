#include <gtest/gtest.h>

#include <string>

#include "barracuda/queue.h"
#include "device/runtime_link.h"
#include "device/runtime_ptx.h"
#include "runtime_probe_ptx.h"

namespace barracuda {
namespace {

TEST(DeviceRuntimeLink, RuntimePtxDefinesEveryEntryPointAndTheQueuePointer) {
  std::string_view ptx = device_runtime_ptx();
  for (const char* name : {"__barracuda_log_access(", "__barracuda_log_sync(", "__barracuda_log_branch(",
                           "__barracuda_log_reconverge(", "__barracuda_log_entry(", "__barracuda_log_exit("}) {
    EXPECT_NE(ptx.find(std::string(".visible .func ") + name), std::string_view::npos) << name;
  }
  EXPECT_NE(ptx.find(std::string(".visible .global .align 8 .u64 ") + BARRACUDA_QUEUES_SYMBOL), std::string_view::npos);
}

TEST(DeviceRuntimeLink, ProbeKernelsLinkWithTheRuntimeForSm90) {
  LinkedCubin linked = link_with_device_runtime({{"runtime_probe", runtime_probe_ptx()}}, "sm_90");
  ASSERT_TRUE(linked.error_log.empty()) << linked.error_log;
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
  LinkedCubin linked = link_with_device_runtime({{"caller", kCaller}}, "sm_90");
  EXPECT_TRUE(linked.cubin.empty());
  EXPECT_NE(linked.error_log.find("__barracuda_missing"), std::string::npos) << linked.error_log;
}

TEST(DeviceRuntimeLink, KernelWithATightRegisterLimitIsRelinkedWithARegisterCap) {
  constexpr std::string_view kTightKernel = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func __barracuda_log_entry(.param .b32 site);
.visible .entry tight() .maxnreg 24 {
  { .param .b32 p0; st.param.b32 [p0], 0; call __barracuda_log_entry, (p0); }
  ret;
}
)";
  LinkedCubin linked = link_with_device_runtime({{"tight", kTightKernel}}, "sm_90");
  ASSERT_TRUE(linked.error_log.empty()) << linked.error_log;
  EXPECT_FALSE(linked.cubin.empty());
  EXPECT_EQ(linked.register_cap, 24u);

  LinkedCubin roomy = link_with_device_runtime({{"runtime_probe", runtime_probe_ptx()}}, "sm_90");
  EXPECT_EQ(roomy.register_cap, 0u);
}

}  // namespace
}  // namespace barracuda
