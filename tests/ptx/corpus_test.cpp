// Acceptance over the nvcc-generated corpus (tests/ptx/corpus/*.cu, compiled at build time):
// every module parses, printing is a fixed point, and ptxas compiles the printed module to the
// same cubin as the original.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"

namespace barracuda::ptx {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> corpus_modules() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(BARRACUDA_PTX_CORPUS_DIR))
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PtxCorpus, EveryModuleRoundTripsToTheSameCubin) {
  auto files = corpus_modules();
  ASSERT_GE(files.size(), 10u) << "corpus not built in " << BARRACUDA_PTX_CORPUS_DIR;
  size_t functions = 0, instructions = 0, bytes = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    std::string text = read_file(file);
    ParseResult parsed = parse(text);
    ASSERT_TRUE(parsed) << parsed.error.to_string();
    std::string printed = to_string(*parsed.module);
    ParseResult reparsed = parse(printed);
    ASSERT_TRUE(reparsed) << reparsed.error.to_string();
    EXPECT_EQ(to_string(*reparsed.module), printed) << "printing is not a fixed point";

    std::string arch = testing::target_of(text);
    auto original = testing::run_ptxas(text, arch);
    ASSERT_TRUE(original.ok) << original.log;
    auto round_trip = testing::run_ptxas(printed, arch);
    ASSERT_TRUE(round_trip.ok) << round_trip.log;
    EXPECT_EQ(testing::compare_cubins(original.cubin, round_trip.cubin), "");

    bytes += text.size();
    functions += parsed.module->functions().size();
    for (Function* function : parsed.module->definitions()) instructions += function->instructions().size();
  }
  std::printf("corpus: %zu modules, %zu functions, %zu instructions, %.2f MB of PTX\n", files.size(), functions,
              instructions, bytes / 1e6);
}

TEST(PtxCorpus, ParseSpeed) {
  std::vector<std::string> texts;
  size_t bytes = 0;
  for (const fs::path& file : corpus_modules()) {
    texts.push_back(read_file(file));
    bytes += texts.back().size();
  }
  ASSERT_GT(bytes, 1'000'000u);
  // Best of three, so a busy shared machine does not decide the figure.
  double best = 1e9;
  for (int round = 0; round < 3; ++round) {
    std::vector<std::string> copies = texts;  // parse() takes ownership; copying is not parsing
    auto start = std::chrono::steady_clock::now();
    for (std::string& text : copies) ASSERT_TRUE(parse(std::move(text)));
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("parse speed: %.1f MB/s (%.2f MB in %.3f s, one core)\n", bytes / 1e6 / best, bytes / 1e6, best);
}

// The PTX inside an uncompressed fat binary is the comment- and indentation-stripped, NUL-terminated
// form; it must parse to the same module as the PTX nvcc writes with -ptx.
TEST(PtxCorpus, StrippedFatbinFormParsesLikeThePtxFile) {
  std::string fatbin = read_file(fs::path(BARRACUDA_PTX_CORPUS_DIR) / "fatbin" / "calls.fatbin");
  constexpr size_t kContainerHeader = 16;
  ASSERT_GT(fatbin.size(), kContainerHeader + 64);
  uint16_t kind = 0;
  uint32_t header_size = 0;
  uint64_t payload_size = 0;
  std::memcpy(&kind, fatbin.data() + kContainerHeader, sizeof kind);
  std::memcpy(&header_size, fatbin.data() + kContainerHeader + 4, sizeof header_size);
  std::memcpy(&payload_size, fatbin.data() + kContainerHeader + 8, sizeof payload_size);
  ASSERT_EQ(kind, 1) << "first entry is not PTX";
  ASSERT_LE(kContainerHeader + header_size + payload_size, fatbin.size());
  std::string embedded = fatbin.substr(kContainerHeader + header_size, payload_size);
  ASSERT_EQ(embedded.find("//"), std::string::npos) << "expected the comment-stripped form";

  ParseResult from_fatbin = parse(embedded);
  ASSERT_TRUE(from_fatbin) << from_fatbin.error.to_string();
  ParseResult from_file = parse(read_file(fs::path(BARRACUDA_PTX_CORPUS_DIR) / "calls.ptx"));
  ASSERT_TRUE(from_file) << from_file.error.to_string();
  EXPECT_EQ(to_string(*from_fatbin.module), to_string(*from_file.module));
}

}  // namespace
}  // namespace barracuda::ptx
