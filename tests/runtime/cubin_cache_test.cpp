#include "runtime/cubin_cache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "test_ptx.h"

namespace barracuda::runtime {
namespace {

class CubinCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("barracuda-cache-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  JitRequest request_{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, "sm_90", {}};
};

TEST_F(CubinCacheTest, SecondRequestIsServedFromDisk) {
  CubinCache cache(dir_);
  bool compiled = false;
  std::vector<char> first = cached_link_to_cubin(cache, request_, "test", &compiled);
  EXPECT_TRUE(compiled);
  std::vector<char> second = cached_link_to_cubin(cache, request_, "test", &compiled);
  EXPECT_FALSE(compiled);
  EXPECT_EQ(first, second);
}

TEST_F(CubinCacheTest, KeyDependsOnEverythingTheCubinDependsOn) {
  std::string base = cache_key(request_, "v1");
  EXPECT_EQ(base, cache_key(request_, "v1"));
  EXPECT_EQ(base.size(), 32u);
  EXPECT_NE(base, cache_key(request_, "v2"));
  JitRequest other_arch = request_;
  other_arch.arch = "sm_90a";
  EXPECT_NE(base, cache_key(other_arch, "v1"));
  JitRequest other_options = request_;
  other_options.ptxas_options = {"-O0"};
  EXPECT_NE(base, cache_key(other_options, "v1"));
  JitRequest other_input = request_;
  other_input.inputs.pop_back();
  EXPECT_NE(base, cache_key(other_input, "v1"));
}

TEST_F(CubinCacheTest, ATruncatedEntryIsAMiss) {
  CubinCache cache(dir_);
  std::string key = cache_key(request_, "test");
  std::filesystem::create_directories(dir_);
  std::ofstream(dir_ / (key + ".cubin")) << "\x7f" "E";
  EXPECT_FALSE(cache.load(key).has_value());
  bool compiled = false;
  cached_link_to_cubin(cache, request_, "test", &compiled);
  EXPECT_TRUE(compiled);
  EXPECT_TRUE(cache.load(key).has_value());
}

TEST_F(CubinCacheTest, AnUnwritableCacheStillCompiles) {
  CubinCache cache("/proc/barracuda-cannot-exist");
  bool compiled = false;
  EXPECT_FALSE(cached_link_to_cubin(cache, request_, "test", &compiled).empty());
  EXPECT_TRUE(compiled);
}

TEST(CacheDir, FollowsXdgCacheHome) {
  const char* saved = std::getenv("XDG_CACHE_HOME");
  std::string restore = saved ? saved : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(default_cache_dir(), std::filesystem::path("/tmp/xdg/barracuda"));
  if (saved) setenv("XDG_CACHE_HOME", restore.c_str(), 1); else unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace barracuda::runtime
