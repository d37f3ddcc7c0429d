#include "cli/preload.h"

#include <gtest/gtest.h>

#include <fstream>

namespace barracuda::cli {
namespace {

TEST(Preload, OurLibraryComesBeforeTheUsersOwn) {
  EXPECT_EQ(preload_value("/opt/b/lib/libbarracuda.so", nullptr), "/opt/b/lib/libbarracuda.so");
  EXPECT_EQ(preload_value("/opt/b/lib/libbarracuda.so", ""), "/opt/b/lib/libbarracuda.so");
  EXPECT_EQ(preload_value("/l/libbarracuda.so", "/x/libfoo.so"), "/l/libbarracuda.so:/x/libfoo.so");
}

TEST(Preload, SearchesTheLibDirectoryBesideTheProgram) {
  EXPECT_NE(preload_search_dirs_text().find("/lib"), std::string::npos) << preload_search_dirs_text();
}

TEST(TemporaryDirectory, IsFreshAndRemovedWithWhatWasWrittenThere) {
  std::filesystem::path path;
  {
    TemporaryDirectory one, two;
    path = one.path();
    ASSERT_TRUE(std::filesystem::is_directory(path));
    EXPECT_NE(one.path(), two.path());
    EXPECT_TRUE(std::filesystem::is_empty(path));
    std::ofstream(path / "report.1.json") << "{}";
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace barracuda::cli
