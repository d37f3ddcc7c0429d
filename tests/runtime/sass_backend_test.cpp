// The SASS back end's host side against a stand-in Compute Sanitizer library (fake_sanitizer.cpp):
// what it subscribes to, which modules it patches with which callbacks, and what it says when the
// library is missing. What the patched code logs is checked on the GPU (e2e_sass_*).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/sanitizer_api.h"
#include "runtime/sass_backend.h"
#include "runtime/site_registry.h"

namespace barracuda::runtime {
namespace {

// The stand-in's hooks, from the copy SassBackend opened (dlopen of the same path gives that copy).
struct Fake {
  void* library = dlopen(FAKE_SANITIZER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  template <typename Function>
  Function hook(const char* name) const {
    return reinterpret_cast<Function>(dlsym(library, name));
  }
  void fire_module_loaded(CUcontext context, CUmodule module, const std::string& image) const {
    const sanitizer::ModuleData data{context, module, image.size(), image.data()};
    hook<void (*)(int, uint32_t, const void*)>("fake_sanitizer_fire")(static_cast<int>(sanitizer::Domain::kResource),
                                                                       sanitizer::kModuleLoaded, &data);
  }
  int patch_loads() const { return hook<int (*)()>("fake_sanitizer_patch_loads")(); }
  std::vector<std::string> instructions() const {
    std::vector<std::string> out;
    const int count = hook<int (*)()>("fake_sanitizer_patched_instruction_count")();
    for (int i = 0; i < count; ++i) out.emplace_back(hook<const char* (*)(int)>("fake_sanitizer_patched_instruction")(i));
    return out;
  }
  std::vector<CUmodule> modules() const {
    std::vector<CUmodule> out;
    const int count = hook<int (*)()>("fake_sanitizer_patched_module_count")();
    for (int i = 0; i < count; ++i) out.push_back(hook<CUmodule (*)(int)>("fake_sanitizer_patched_module")(i));
    return out;
  }
};

// A cubin nvcc built here (tests/fatbin/fixtures/kernels.cu), as the driver would hand it over.
std::string cubin(const std::string& name) {
  std::ifstream in(std::string(BARRACUDA_NVCC_FIXTURES) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

CUcontext context(uintptr_t n) { return reinterpret_cast<CUcontext>(n); }
CUmodule module(uintptr_t n) { return reinterpret_cast<CUmodule>(n); }

TEST(SassBackend, PatchesEveryModuleButTheToolsOwnLoadingThePatchesOncePerContext) {
  setenv("BARRACUDA_SANITIZER_LIBRARY", FAKE_SANITIZER_LIBRARY, 1);
  SiteRegistry sites;
  std::vector<std::string> messages;
  SassBackend sass(sites, [&](const std::string& text) { messages.push_back(text); });
  ASSERT_TRUE(sass.start()) << (messages.empty() ? "" : messages.front());
  EXPECT_TRUE(sass.active());
  const Fake fake;
  ASSERT_NE(fake.library, nullptr);
  EXPECT_EQ(fake.hook<int (*)(int)>("fake_sanitizer_domains")(0), static_cast<int>(sanitizer::Domain::kResource));

  const std::string with_lines = cubin("kernels.lineinfo.cubin"), without_lines = cubin("kernels.cubin");
  ASSERT_FALSE(with_lines.empty());
  ASSERT_FALSE(without_lines.empty());
  fake.fire_module_loaded(context(1), module(0x10), with_lines);
  fake.fire_module_loaded(context(1), module(0x20), std::string("instrumented: __barracuda_queues"));
  fake.fire_module_loaded(context(1), module(0x30), without_lines);
  EXPECT_EQ(fake.patch_loads(), 1) << "the patch module, once in the context";
  EXPECT_EQ(fake.modules(), (std::vector<CUmodule>{module(0x10), module(0x30)})) << "not the tool's own module";
  const std::vector<std::string> patched = fake.instructions();
  ASSERT_EQ(patched.size(), 12u) << "six instruction kinds, for each of two modules";
  const std::vector<std::string> expected{"1:barracuda_sass_block_enter",   "2:barracuda_sass_block_exit",
                                          "3:barracuda_sass_global_access", "4:barracuda_sass_shared_access",
                                          "6:barracuda_sass_barrier",       "7:barracuda_sass_syncwarp"};
  EXPECT_EQ(std::vector<std::string>(patched.begin(), patched.begin() + 6), expected);
  EXPECT_TRUE(sass.skipped().empty());
  EXPECT_TRUE(messages.empty()) << messages.front();
}

// An image whose line table cannot be read is still patched; its sites are named by offset.
TEST(SassBackend, AnUnreadableLineTableIsSaidAndTheModuleStillPatched) {
  setenv("BARRACUDA_SANITIZER_LIBRARY", FAKE_SANITIZER_LIBRARY, 1);
  SiteRegistry sites;
  std::vector<std::string> messages;
  SassBackend sass(sites, [&](const std::string& text) { messages.push_back(text); });
  ASSERT_TRUE(sass.start());
  const Fake fake;
  const size_t before = fake.modules().size();
  fake.fire_module_loaded(context(2), module(0x40), std::string("not an ELF image"));
  ASSERT_EQ(fake.modules().size(), before + 1);
  EXPECT_EQ(fake.modules().back(), module(0x40));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("line table is not understood"), std::string::npos) << messages[0];
}

// NCCL's kernels are library code: left unpatched and listed, not skipped (runtime/library_code.h).
TEST(SassBackend, NcclsKernelsAreLeftAloneAndListed) {
  setenv("BARRACUDA_SANITIZER_LIBRARY", FAKE_SANITIZER_LIBRARY, 1);
  SiteRegistry sites;
  SassBackend sass(sites, [](const std::string&) {});
  ASSERT_TRUE(sass.start());
  const Fake fake;
  const size_t before = fake.modules().size();
  fake.fire_module_loaded(context(3), module(0x50), std::string("\x7f" "ELF ... _Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  fake.fire_module_loaded(context(3), module(0x60), std::string("\x7f" "ELF ... ncclKernel_Broadcast_RING_LL_Sum_int8_t"));
  EXPECT_EQ(fake.modules().size(), before) << "neither patched";
  ASSERT_EQ(sass.library_code().size(), 1u) << "one library, listed once";
  EXPECT_NE(sass.library_code().begin()->find("NCCL"), std::string::npos);
  EXPECT_TRUE(sass.skipped().empty());
}

TEST(SassBackend, AMissingLibraryTurnsItOffSayingWhy) {
  setenv("BARRACUDA_SANITIZER_LIBRARY", "/nonexistent/libsanitizer-public.so", 1);
  setenv("CUDA_HOME", "/nonexistent", 1);
  SiteRegistry sites;
  std::vector<std::string> messages;
  SassBackend sass(sites, [&](const std::string& text) { messages.push_back(text); });
  // The toolkit's copy may exist on this machine: only where none is found must it be off.
  if (dlopen("/usr/local/cuda/compute-sanitizer/libsanitizer-public.so", RTLD_NOW | RTLD_NOLOAD) != nullptr ||
      access("/usr/local/cuda/compute-sanitizer/libsanitizer-public.so", F_OK) == 0) {
    GTEST_SKIP() << "the toolkit's libsanitizer-public.so is installed here";
  }
  EXPECT_FALSE(sass.start());
  EXPECT_FALSE(sass.active());
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("the SASS back end is off"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("libsanitizer-public.so"), std::string::npos) << messages[0];
}

}  // namespace
}  // namespace barracuda::runtime
