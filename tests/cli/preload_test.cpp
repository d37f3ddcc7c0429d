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

TEST(TemporaryReport, NamesAFreshPathAndRemovesWhatWasWrittenThere) {
  std::string path;
  {
    TemporaryReport report(true);
    path = report.path();
    ASSERT_FALSE(path.empty());
    EXPECT_FALSE(std::filesystem::exists(path)) << "must not look like an empty report";
    std::ofstream(path) << "{}";
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(TemporaryReport(false).path().empty());
}

}  // namespace
}  // namespace barracuda::cli
