#include "runtime/jit_link.h"

#include <gtest/gtest.h>

#include <cstring>

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
  JitRequest request{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, 90, {}};
  std::vector<char> cubin = link_to_cubin(request);
  ASSERT_GT(cubin.size(), 64u);
  EXPECT_EQ(std::memcmp(cubin.data(), "\x7f" "ELF", 4), 0);
  EXPECT_EQ(elf_machine(cubin), kElfMachineCuda);
}

TEST(JitLink, AnUnresolvedCalleeIsALinkError) {
  JitRequest request{{{"caller", test::kCallerPtx}}, 90, {}};
  EXPECT_THROW(link_to_cubin(request), JitError);
}

TEST(JitLink, InvalidPtxReportsTheCompilerLog) {
  JitRequest request{{{"broken.ptx", test::kBrokenPtx}}, 90, {}};
  try {
    link_to_cubin(request);
    FAIL() << "broken PTX compiled";
  } catch (const JitError& e) {
    EXPECT_NE(std::string(e.what()).find("frobnicate"), std::string::npos) << e.what();
  }
}

TEST(JitLink, PtxasOptionsAreForwardedAfterTheArchitecture) {
  JitRequest request{{}, 80, {"--generate-line-info", "-O2"}};
  EXPECT_EQ(jit_options(request),
            (std::vector<std::string>{"-arch=sm_80", "-Xptxas=--generate-line-info", "-Xptxas=-O2"}));
  EXPECT_THROW(link_to_cubin(request), JitError);  // no inputs
}

TEST(JitLink, TheOptionsNvccRecordsInFatBinariesAreAccepted) {
  // nvcc -lineinfo stores " --generate-line-info " in the entry's options block.
  JitRequest request{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, 90, {"--generate-line-info"}};
  EXPECT_FALSE(link_to_cubin(request).empty());
}

}  // namespace
}  // namespace barracuda::runtime
