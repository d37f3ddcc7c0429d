#include "fatbin/compression.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fatbin/error.h"
#include "fatbin/format.h"
#include "test_entries.h"

namespace barracuda::fatbin {

// Found by gtest through ADL: names the codec in test output instead of dumping its byte.
void PrintTo(Compression compression, std::ostream* out) { *out << to_string(compression); }

namespace {

using ::testing::HasSubstr;
using testing::kAllCompressions;

std::string test_name(const ::testing::TestParamInfo<Compression>& param_info) {
  std::string name(to_string(param_info.param));
  std::erase(name, '-');
  return name;
}

class EveryCodec : public ::testing::TestWithParam<Compression> {};
class EveryCompressingCodec : public ::testing::TestWithParam<Compression> {};

std::vector<std::byte> sample() {
  std::vector<std::byte> data;
  for (int i = 0; i < 20; ++i) {
    auto text = testing::bytes_of(testing::kSamplePtx);
    data.insert(data.end(), text.begin(), text.end());
  }
  return data;
}

TEST_P(EveryCodec, RoundTrips) {
  auto data = sample();
  auto stored = compress(GetParam(), data);
  if (GetParam() != Compression::None) {
    EXPECT_LT(stored.size(), data.size());
  }
  EXPECT_EQ(decompress(GetParam(), stored, data.size(), 0), data);
}

TEST_P(EveryCompressingCodec, RejectsAWrongAnnouncedSize) {
  auto data = sample();
  auto stored = compress(GetParam(), data);
  EXPECT_THROW(decompress(GetParam(), stored, data.size() + 1, 0), FormatError);
  EXPECT_THROW(decompress(GetParam(), stored, data.size() - 1, 0), FormatError);
}

TEST_P(EveryCompressingCodec, RejectsTruncatedData) {
  auto data = sample();
  auto stored = compress(GetParam(), data);
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, stored.size() / 2, stored.size() - 1}) {
    std::span<const std::byte> prefix(stored.data(), cut);
    EXPECT_THROW(decompress(GetParam(), prefix, data.size(), 0), FormatError) << "cut at " << cut;
  }
}

INSTANTIATE_TEST_SUITE_P(Fatbin, EveryCodec, ::testing::ValuesIn(kAllCompressions), test_name);
INSTANTIATE_TEST_SUITE_P(Fatbin, EveryCompressingCodec,
                         ::testing::Values(Compression::Zlib, Compression::Lz4Block, Compression::Lz4Frame,
                                           Compression::Zstd),
                         test_name);

TEST(Decompress, RejectsGarbageWithTheOffsetGiven) {
  std::vector<std::byte> garbage(64, std::byte{0x5a});
  for (auto codec : {Compression::Zlib, Compression::Lz4Frame, Compression::Zstd}) {
    try {
      decompress(codec, garbage, 1000, 0x1234);
      ADD_FAILURE() << to_string(codec) << " accepted garbage";
    } catch (const FormatError& error) {
      EXPECT_EQ(error.offset(), 0x1234u);
      EXPECT_THAT(error.what(), HasSubstr("offset 0x1234"));
    }
  }
}

TEST(Decompress, RefusesImplausibleExpansion) {
  auto stored = compress(Compression::Zstd, sample());
  try {
    decompress(Compression::Zstd, stored, std::uint64_t{1} << 40, 0);
    FAIL() << "a terabyte was announced and believed";
  } catch (const FormatError& error) {
    EXPECT_THAT(error.detail(), HasSubstr("implausible"));
  }
}

TEST(CompressionFlags, MapEachBitAndRejectTwo) {
  for (auto codec : kAllCompressions) EXPECT_EQ(compression_from_flags(compression_flag(codec) | flag::k64Bit), codec);
  EXPECT_EQ(compression_from_flags(flag::kZstd | flag::kZlib), std::nullopt);
}

}  // namespace
}  // namespace barracuda::fatbin
