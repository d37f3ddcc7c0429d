#include "runtime/cubin_cache.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>

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

  // Fills the cache with the request's cubin, damages its entry, and checks that the damaged entry is
  // a miss and that the compile which follows replaces it.
  void expect_damage_is_repaired(const std::function<void(const std::filesystem::path&)>& damage) {
    CubinCache cache(dir_);
    const std::string key = cache_key(request_, "test");
    bool compiled = false;
    const std::vector<char> cubin = cached_link_to_cubin(cache, request_, "test", &compiled);
    damage(dir_ / (key + ".cubin"));
    EXPECT_FALSE(cache.load(key).has_value());
    EXPECT_EQ(cached_link_to_cubin(cache, request_, "test", &compiled), cubin);
    EXPECT_TRUE(compiled);
    EXPECT_EQ(cache.load(key), cubin);
  }

  std::filesystem::path dir_;
  JitRequest request_{{{"caller", test::kCallerPtx}, {"runtime", test::kCalleePtx}}, "sm_90", {}};
};

// A full cache file system, simulated without root: while it lives, writing past `bytes` into any file
// fails with EFBIG, as it would with ENOSPC on a full disk (SIGXFSZ ignored, else it kills the process).
class FullFileSystem {
 public:
  explicit FullFileSystem(rlim_t bytes) : saved_handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    EXPECT_EQ(::getrlimit(RLIMIT_FSIZE, &saved_limit_), 0);
    const rlimit full{bytes, saved_limit_.rlim_max};
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &full), 0);
  }
  ~FullFileSystem() {
    ::setrlimit(RLIMIT_FSIZE, &saved_limit_);
    std::signal(SIGXFSZ, saved_handler_);
  }
  FullFileSystem(const FullFileSystem&) = delete;
  FullFileSystem& operator=(const FullFileSystem&) = delete;

 private:
  rlimit saved_limit_{};
  void (*saved_handler_)(int);
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

TEST_F(CubinCacheTest, ATruncatedEntryIsAMissAndIsReplaced) {
  expect_damage_is_repaired([](const std::filesystem::path& entry) {
    std::filesystem::resize_file(entry, std::filesystem::file_size(entry) / 2);
  });
}

TEST_F(CubinCacheTest, AnEntryOverwrittenWithGarbageIsAMissAndIsReplaced) {
  expect_damage_is_repaired([](const std::filesystem::path& entry) {
    // Same size, first bytes intact: only the checksum can tell.
    std::fstream file(entry, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(entry) / 2));
    file << std::string(64, '\xff');
  });
}

TEST_F(CubinCacheTest, ADirectoryInPlaceOfAnEntryIsAMissAndIsReplaced) {
  expect_damage_is_repaired([](const std::filesystem::path& entry) {
    std::filesystem::remove(entry);
    std::filesystem::create_directory(entry);
  });
}

TEST_F(CubinCacheTest, AFifoInPlaceOfAnEntryIsAMissAndIsReplaced) {
  // Opening a FIFO for reading blocks until a writer comes: the lookup must not open it.
  expect_damage_is_repaired([](const std::filesystem::path& entry) {
    std::filesystem::remove(entry);
    ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
  });
}

TEST_F(CubinCacheTest, AStoreThatFailsPartWayLeavesNothingBehind) {
  CubinCache cache(dir_);
  // Begins with the ELF magic, as a truncated cubin does: the lookup must tell it by more than that.
  std::vector<char> cubin(512, 'x');
  std::copy_n("\x7f" "ELF", 4, cubin.begin());
  {
    FullFileSystem full(256);
    EXPECT_FALSE(cache.store("key", cubin));
  }
  EXPECT_FALSE(cache.load("key").has_value());
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

TEST_F(CubinCacheTest, AFullCacheStillCompilesAndTheNextRunStores) {
  CubinCache cache(dir_);
  bool compiled = false;
  std::vector<char> cubin;
  {
    FullFileSystem full(1024);
    cubin = cached_link_to_cubin(cache, request_, "test", &compiled);
  }
  EXPECT_TRUE(compiled);
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
  EXPECT_EQ(cached_link_to_cubin(cache, request_, "test", &compiled), cubin);
  EXPECT_TRUE(compiled);
  EXPECT_EQ(cache.load(cache_key(request_, "test")), cubin);
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
