#include "report/report_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace barracuda::report {
namespace {

class ReportFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("report_file_test." + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::filesystem::path dir_;
};

TEST_F(ReportFile, WritesAndReplacesARegularFile) {
  const std::string path = (dir_ / "r.json").string();
  write_report_file(path, "first, and longer");
  write_report_file(path, "second");
  EXPECT_EQ(read(path), "second");
}

TEST_F(ReportFile, NeverWritesThroughASymbolicLink) {
  const auto target = dir_ / "precious";
  std::ofstream(target) << "keep me";
  const auto link = dir_ / "r.json";
  std::filesystem::create_symlink(target, link);
  try {
    write_report_file(link.string(), "report");
    FAIL() << "wrote through a symbolic link";
  } catch (const ReportFileError& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(target), "keep me");
}

TEST_F(ReportFile, SaysWhyAPathCannotBeWritten) {
  const std::string path = (dir_ / "missing" / "r.json").string();
  try {
    write_report_file(path, "report");
    FAIL() << "wrote into a missing directory";
  } catch (const ReportFileError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + path + ": No such file or directory");
  }
}

}  // namespace
}  // namespace barracuda::report
