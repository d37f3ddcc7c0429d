#include "runtime/jit_link.h"

#include <gtest/gtest.h>

#include <cstring>

#include "barracuda/queue.h"
#include "test_ptx.h"

namespace barracuda::runtime {
namespace {

constexpr uint16_t kElfMachineCuda = 190;

uint16_t elf_machine(const std::vector<char>& elf) {
  uint16_t machine = 0;
  std::memcpy(&machine, elf.data() + 18, sizeof machine);  // e_machine in the ELF64 header
  return machine;
}

TEST(JitLink, LinksACallerWithTheModuleDefiningItsCallee) {
  JitRequest request{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, "sm_90", {}};
  std::vector<char> cubin = link_to_cubin(request).cubin;
  ASSERT_GT(cubin.size(), 64u);
  EXPECT_EQ(std::memcmp(cubin.data(), "\x7f" "ELF", 4), 0);
  EXPECT_EQ(elf_machine(cubin), kElfMachineCuda);
}

TEST(JitLink, AnUnresolvedCalleeIsALinkError) {
  JitRequest request{{{"caller", test::kCallerPtx}}, "sm_90", {}};
  EXPECT_THROW(link_to_cubin(request), JitError);
}

TEST(JitLink, InvalidPtxReportsTheCompilerLog) {
  JitRequest request{{{"broken.ptx", test::kBrokenPtx}}, "sm_90", {}};
  try {
    link_to_cubin(request);
    FAIL() << "broken PTX compiled";
  } catch (const JitError& e) {
    EXPECT_NE(std::string(e.what()).find("frobnicate"), std::string::npos) << e.what();
  }
}

TEST(JitLink, PtxasOptionsAreForwardedAfterTheArchitecture) {
  JitRequest request{{}, "sm_80", {"--generate-line-info", "-O2"}};
  EXPECT_EQ(jit_options(request),
            (std::vector<std::string>{"-arch=sm_80", "-Xptxas=--split-compile=0", "-Xptxas=--generate-line-info",
                                      "-Xptxas=-O2"}));
  EXPECT_EQ(jit_options(request, 24),
            (std::vector<std::string>{"-arch=sm_80", "-maxrregcount=24", "-Xptxas=--split-compile=0",
                                      "-Xptxas=--generate-line-info", "-Xptxas=-O2"}));
  EXPECT_THROW(link_to_cubin(request), JitError);  // no inputs
}

TEST(JitLink, TheOptionsNvccRecordsInFatBinariesAreAccepted) {
  // nvcc -lineinfo stores " --generate-line-info " in the entry's options block.
  JitRequest request{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, "sm_90", {"--generate-line-info"}};
  EXPECT_FALSE(link_to_cubin(request).cubin.empty());
}

TEST(JitLink, TheDeviceRuntimeDefinesEveryEntryPointAndTheQueuePointer) {
  std::string_view ptx = device_runtime_input("sm_80").text;  // the PTX form
  for (const char* name : {"__barracuda_log_access(", "__barracuda_log_sync(", "__barracuda_log_branch(",
                           "__barracuda_log_reconverge(", "__barracuda_log_entry(", "__barracuda_log_exit("}) {
    EXPECT_NE(ptx.find(std::string(".visible .func ") + name), std::string_view::npos) << name;
  }
  EXPECT_NE(ptx.find(std::string(".visible .global .align 8 .u64 ") + BARRACUDA_QUEUES_SYMBOL), std::string_view::npos);
}

TEST(JitLink, AKernelWithATightRegisterLimitIsRelinkedWithARegisterCap) {
  constexpr std::string_view kTightKernel = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func __barracuda_log_entry(.param .b32 site, .param .b32 slot);
.visible .entry tight() .maxnreg 24 {
  { .param .b32 p0; st.param.b32 [p0], 0; .param .b32 p1; st.param.b32 [p1], 0;
    call __barracuda_log_entry, (p0, p1); }
  ret;
}
)";
  LinkedCubin tight = link_to_cubin({{{"tight", kTightKernel}, device_runtime_input("sm_90")}, "sm_90", {}});
  EXPECT_FALSE(tight.cubin.empty());
  EXPECT_EQ(tight.register_cap, 24u);

  LinkedCubin roomy = link_to_cubin({{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, "sm_90", {}});
  EXPECT_EQ(roomy.register_cap, 0u);
}

// A kernel that may run 1024 threads a block has 64 registers a thread: the runtime's entry points
// must fit (compiled from PTX with the module they take 86 and the link is refused).
TEST(JitLink, ABlockOf1024ThreadsCanCallTheRuntime) {
  constexpr std::string_view kWideKernel = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func __barracuda_log_access(.param .b64 a, .param .b32 s, .param .b32 i, .param .b64 v);
.visible .entry wide() .maxntid 1024, 1, 1 {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, 0;
  mov.u32 %r1, 1;
  { .param .b64 p0; st.param.b64 [p0], %rd1; .param .b32 p1; st.param.b32 [p1], %r1;
    .param .b32 p2; st.param.b32 [p2], %r1; .param .b64 p3; st.param.b64 [p3], %rd1;
    call __barracuda_log_access, (p0, p1, p2, p3); }
  ret;
}
)";
  for (std::string_view arch : {"sm_90", "sm_90a"}) {
    LinkedCubin linked = link_to_cubin({{{"wide", kWideKernel}, device_runtime_input(arch)}, std::string(arch), {}});
    EXPECT_FALSE(linked.cubin.empty()) << arch;
    EXPECT_EQ(linked.register_cap, 0u) << arch;
  }
}

}  // namespace
}  // namespace barracuda::runtime
