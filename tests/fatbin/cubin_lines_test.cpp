// The line table of cubins nvcc builds here (tests/fatbin/fixtures/kernels.cu with and without
// -lineinfo): rows per kernel, from the kernel's signature line at offset 0.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fatbin/cubin_lines.h"

namespace barracuda::fatbin {
namespace {

std::vector<std::byte> fixture(const std::string& name) {
  std::ifstream in(std::string(BARRACUDA_NVCC_FIXTURES) + "/" + name, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  std::vector<std::byte> out(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) out[i] = static_cast<std::byte>(bytes[i]);
  return out;
}

// kernels.cu: add_one's signature is line 4 and its body ends at 7; scale's at 9 and 14.
void expect_kernel(const KernelLines& lines, const std::string& kernel, uint32_t first, uint32_t last) {
  const auto found = lines.find(kernel);
  ASSERT_NE(found, lines.end()) << kernel;
  const std::vector<SassLine>& rows = found->second;
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rows.front().offset, 0u);
  EXPECT_EQ(rows.front().line, first);
  EXPECT_EQ(rows.back().line, 0u) << "the sequence's end";
  for (const SassLine& row : rows) {
    EXPECT_TRUE(row.file.ends_with("fixtures/kernels.cu")) << row.file;
    if (row.line != 0) {
      EXPECT_GE(row.line, first);
      EXPECT_LE(row.line, last);
    }
  }
  ASSERT_NE(line_at(rows, 0), nullptr);
  EXPECT_EQ(line_at(rows, 0)->line, first);
  EXPECT_EQ(line_at(rows, rows.back().offset), nullptr) << "past the kernel's code";
  const SassLine& second = rows[1];
  EXPECT_EQ(line_at(rows, second.offset + 1)->line, second.line) << "inside a row's range";
}

TEST(CubinLines, EachKernelOfALineinfoCubinHasItsRows) {
  const KernelLines lines = read_cubin_lines(fixture("kernels.lineinfo.cubin"));
  EXPECT_EQ(lines.size(), 2u);
  expect_kernel(lines, "_Z7add_onePii", 4, 7);
  expect_kernel(lines, "_Z5scalePff", 9, 14);
}

TEST(CubinLines, ACubinWithoutLineinfoHasNone) { EXPECT_TRUE(read_cubin_lines(fixture("kernels.cubin")).empty()); }

TEST(CubinLines, NotAnElfImageIsAnError) {
  const std::vector<std::byte> text(64, std::byte{'x'});
  EXPECT_THROW(read_cubin_lines(text), std::runtime_error);
}

}  // namespace
}  // namespace barracuda::fatbin
