// Acceptance over the nvcc-generated corpus (tests/ptx/corpus/*.cu, compiled at build time):
// every module parses, printing is a fixed point, and ptxas compiles the printed module to the
// same cubin as the original.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
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

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Best of five, timed in thread CPU time, so other work on a shared machine does not decide the figure.
double best_parse_seconds(const std::vector<std::string>& texts) {
  double best = 1e9;
  for (int round = 0; round < 5; ++round) {
    std::vector<std::string> copies = texts;  // parse() takes ownership; copying is not parsing
    double start = thread_cpu_seconds();
    for (std::string& text : copies) EXPECT_TRUE(parse(std::move(text)));
    best = std::min(best, thread_cpu_seconds() - start);
  }
  return best;
}

TEST(PtxCorpus, ParseSpeed) {
  std::vector<std::string> texts;
  size_t bytes = 0;
  for (const fs::path& file : corpus_modules()) {
    texts.push_back(read_file(file));
    bytes += texts.back().size();
  }
  ASSERT_GT(bytes, 1'000'000u);
  double seconds = best_parse_seconds(texts);
  std::printf("parse speed, whole corpus: %.1f MB/s (%.2f MB in %.3f s of CPU time, one thread)\n",
              bytes / 1e6 / seconds, bytes / 1e6, seconds);
  // CUB's module is all code (no debug sections, which the parser skips as text): the harder figure.
  std::vector<std::string> code{read_file(fs::path(BARRACUDA_PTX_CORPUS_DIR) / "cub.ptx")};
  seconds = best_parse_seconds(code);
  std::printf("parse speed, cub.ptx (code only): %.1f MB/s (%.2f MB in %.3f s)\n", code[0].size() / 1e6 / seconds,
              code[0].size() / 1e6, seconds);
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
