#include "fatbin/container.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "fatbin/error.h"
#include "fatbin/format.h"
#include "fatbin/writer.h"
#include "expect_same_entry.h"
#include "test_entries.h"

namespace barracuda::fatbin {
namespace {

using ::testing::HasSubstr;
using testing::cubin_entry;
using testing::expect_same_entry;
using testing::kAllCompressions;
using testing::ptx_entry;

std::vector<Entry> mixed_entries() {
  std::vector<Entry> entries;
  for (auto codec : kAllCompressions) {
    entries.push_back(ptx_entry(codec, {80}, "-O3 -v"));
    entries.push_back(cubin_entry(codec, 29 + entries.size()));
  }
  entries.push_back(testing::lto_entry(Compression::Zstd));
  Entry debug = ptx_entry(Compression::Zstd, {90}, " -g --dont-merge-basicblocks ");
  debug.flags |= flag::kDebug;
  debug.name = "kernels.cu";
  entries.push_back(debug);
  return entries;
}

TEST(WriteThenRead, GivesTheSameEntriesForEveryKindAndCompression) {
  auto entries = mixed_entries();
  auto bytes = write_container(entries);
  auto container = read_container(ByteView(bytes));
  EXPECT_EQ(container.size, bytes.size());
  ASSERT_EQ(container.entries.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same_entry(container.entries[i], entries[i]);
  }
}

TEST(ReadContainer, KeepsLtoIrAsStoredDespiteItsCompressionBit) {
  auto lto = testing::lto_entry(Compression::Zstd);
  auto bytes = write_container(std::vector{lto});
  EntryHeader header;
  std::memcpy(&header, bytes.data() + sizeof(ContainerHeader), sizeof header);
  EXPECT_EQ(header.flags & flag::kZstd, flag::kZstd);
  EXPECT_EQ(header.compressed_size, lto.payload.size());
  EXPECT_EQ(header.decompressed_size, 2220u);
  EXPECT_EQ(header.reserved, 0xdbc87664u);
  auto container = read_container(ByteView(bytes));
  const Entry& read = container.entries.at(0);
  EXPECT_EQ(read.payload, lto.payload);
  EXPECT_EQ(read.stored_size, lto.payload.size());
  EXPECT_EQ(read.opaque, lto.opaque);
}

TEST(WriteThenRead, KeepsTheHeaderFieldsOfUncompressedLtoIr) {
  auto lto = testing::lto_entry(Compression::None);
  auto container = read_container(ByteView(write_container(std::vector{lto})));
  EXPECT_EQ(container.entries.at(0).opaque, lto.opaque);
  EXPECT_EQ(container.entries[0].payload.size(), (lto.payload.size() + 7) / 8 * 8);  // as stored: padded
}

TEST(WriteThenRead, RecordsStoredSizeAndOffsets) {
  auto bytes = write_container(std::vector{ptx_entry(Compression::None), ptx_entry(Compression::Zstd)});
  auto container = read_container(ByteView(bytes));
  ASSERT_EQ(container.entries.size(), 2u);
  EXPECT_EQ(container.entries[0].offset, sizeof(ContainerHeader));
  // Uncompressed PTX is stored with its NUL, padded to 8.
  EXPECT_EQ(container.entries[0].stored_size, (testing::kSamplePtx.size() + 1 + 7) / 8 * 8);
  EXPECT_LT(container.entries[1].stored_size, testing::kSamplePtx.size());
  EXPECT_EQ(container.entries[1].text(), testing::kSamplePtx);
}

TEST(Writer, GivesPtxAnOptionsBlockEvenWithoutOptions) {
  auto bytes = write_container(std::vector{ptx_entry(Compression::None)});
  EntryHeader header;
  std::memcpy(&header, bytes.data() + sizeof(ContainerHeader), sizeof header);
  EXPECT_EQ(header.header_size, 0x50u);  // what nvcc 13 writes, and what the driver needs
  EXPECT_EQ(header.options_offset, 0x40u);
  OptionsBlock block;
  std::memcpy(&block, bytes.data() + sizeof(ContainerHeader) + header.options_offset, sizeof block);
  EXPECT_EQ(block.offset, 0x48u);
  EXPECT_EQ(block.size, 0u);
}

TEST(Writer, ReplacementPtxKeepsTheOriginalOptionsAndTarget) {
  auto original = ptx_entry(Compression::Zstd, {80}, " -g --dont-merge-basicblocks ");
  original.name = "kernels.cu";
  auto replacement = replacement_ptx(original, ".version 9.0\n.target sm_80\n// instrumented\n");
  auto container = read_container(ByteView(write_container(std::vector{replacement})));
  const Entry& read = container.entries.at(0);
  EXPECT_EQ(read.text(), ".version 9.0\n.target sm_80\n// instrumented\n");
  EXPECT_EQ(read.ptxas_options, original.ptxas_options);
  EXPECT_EQ(read.name, original.name);
  EXPECT_EQ(read.arch, SmArch{80});
  EXPECT_EQ(read.compression, Compression::Zstd);
}

TEST(Writer, WrapperPointsAtItsContainer) {
  WrappedFatbin wrapped(write_container(std::vector{ptx_entry(Compression::Zstd)}));
  WrapperRecord record;
  std::memcpy(&record, wrapped.wrapper(), sizeof record);
  EXPECT_EQ(record.magic, kWrapperMagic);
  EXPECT_EQ(record.version, kWrapperVersion);
  EXPECT_EQ(record.data, reinterpret_cast<std::uintptr_t>(wrapped.container().data()));
  EXPECT_EQ(record.data % 8, 0u);
}

TEST(ReadContainer, FailsCleanlyWhenTruncatedAnywhere) {
  auto bytes = write_container(std::vector{ptx_entry(Compression::Zstd, {90}, "-O2"), cubin_entry(Compression::None)});
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    // A copy of exactly `length` bytes, so that ASan catches any read past it.
    std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
    EXPECT_THROW(read_container(ByteView(prefix)), FormatError) << "length " << length;
  }
}

// Overwrites the `T` at `offset` of a one-PTX-entry container and returns the reader's complaint.
template <typename T>
std::string error_after_patch(std::size_t offset, T value, Entry entry = ptx_entry(Compression::Zstd, {90}, "-O2")) {
  auto bytes = write_container(std::vector{entry});
  std::memcpy(bytes.data() + offset, &value, sizeof value);
  try {
    read_containers(ByteView(bytes));
  } catch (const FormatError& error) {
    return error.what();
  }
  return "no error";
}

constexpr std::size_t kEntry = sizeof(ContainerHeader);

TEST(ReadContainer, NamesWhatIsWrong) {
  EXPECT_THAT(error_after_patch(0, std::uint32_t{0x12345678}), HasSubstr("offset 0x0: bad container magic 0x12345678"));
  EXPECT_THAT(error_after_patch(4, std::uint16_t{2}), HasSubstr("unsupported container version 2"));
  EXPECT_THAT(error_after_patch(6, std::uint16_t{24}), HasSubstr("container header size 24"));
  EXPECT_THAT(error_after_patch(8, std::uint64_t{1} << 40), HasSubstr("container entries"));
  EXPECT_THAT(error_after_patch(8, ~std::uint64_t{0}), HasSubstr("overflows"));
  EXPECT_THAT(error_after_patch(kEntry, std::uint16_t{3}), HasSubstr("offset 0x10: unknown entry kind 3"));
  EXPECT_THAT(error_after_patch(kEntry + 4, std::uint32_t{0x20}), HasSubstr("entry header size 32 is below 64"));
  EXPECT_THAT(error_after_patch(kEntry + 4, std::uint32_t{1} << 30), HasSubstr("entry header extension"));
  EXPECT_THAT(error_after_patch(kEntry + 8, std::uint64_t{1} << 33), HasSubstr("entry payload"));
  // Found by fatbin_fuzzer: an unpadded payload does not survive rewriting (the writer pads it).
  EXPECT_THAT(error_after_patch(kEntry + 8, std::uint64_t{137}), HasSubstr("entry payload size 137 is not a multiple of 8"));
  EXPECT_THAT(error_after_patch(kEntry + 0x10, std::uint32_t{1} << 20), HasSubstr("compressed payload"));
  EXPECT_THAT(error_after_patch(kEntry + 0x14, std::uint32_t{0x1000}), HasSubstr("ptxas-options block"));
  EXPECT_THAT(error_after_patch(kEntry + 0x40, std::uint32_t{0x1000}), HasSubstr("ptxas options"));
  EXPECT_THAT(error_after_patch(kEntry + 0x20, std::uint64_t{0x100'0000'0040}), HasSubstr("entry name (256 bytes)"));
  EXPECT_THAT(error_after_patch(kEntry + 0x28, flag::kZstd | 0x80), HasSubstr("offset 0x38: unknown entry flags 0x80"));
  EXPECT_THAT(error_after_patch(kEntry + 0x28, flag::kZstd | flag::kZlib), HasSubstr("several compression flags"));
  EXPECT_THAT(error_after_patch(kEntry + 0x38, std::uint64_t{testing::kSamplePtx.size() + 9}),
              HasSubstr("zstd payload decompressed to " + std::to_string(testing::kSamplePtx.size() + 1)));
  EXPECT_THAT(error_after_patch(kEntry + 0x38, std::uint64_t{5}), HasSubstr("zstd: "));
}

TEST(ReadContainer, RejectsACorruptCompressedPayload) {
  auto bytes = write_container(std::vector{ptx_entry(Compression::Zstd)});
  auto payload = kEntry + 0x50;
  for (std::size_t i = payload; i < payload + 8; ++i) bytes[i] ^= std::byte{0xff};
  EXPECT_THROW(read_container(ByteView(bytes)), FormatError);
}

TEST(ReadContainers, ReadsEverySectionContainerAcrossPadding) {
  auto first = write_container(std::vector{ptx_entry(Compression::Lz4Block)});
  auto second = write_container(std::vector{cubin_entry(Compression::None), ptx_entry(Compression::Zlib)});
  std::vector<std::byte> section(first);
  section.insert(section.end(), second.begin(), second.end());
  section.resize(section.size() + 8);  // trailing zero padding, as sections have
  auto containers = read_containers(ByteView(section, 0x100));
  ASSERT_EQ(containers.size(), 2u);
  EXPECT_EQ(containers[0].offset, 0x100u);
  EXPECT_EQ(containers[1].offset, 0x100u + first.size());
  EXPECT_EQ(containers[1].entries.size(), 2u);
  // Behind the cubin's 64-byte header and its 165-byte ELF padded to 168.
  EXPECT_EQ(containers[1].entries[1].offset, 0x100u + first.size() + kEntry + 64 + 168);
}

TEST(ReadContainers, RejectsMisalignedAndForeignData) {
  auto container = write_container(std::vector{ptx_entry(Compression::None)});
  std::vector<std::byte> misaligned(3 + container.size());
  std::copy(container.begin(), container.end(), misaligned.begin() + 3);
  EXPECT_THAT([&] { read_containers(ByteView(misaligned)); },
              ::testing::ThrowsMessage<FormatError>(HasSubstr("offset 0x3: container is not 8-aligned")));
  std::vector<std::byte> trailing(container);
  trailing.push_back(std::byte{0x42});
  EXPECT_THROW(read_containers(ByteView(trailing)), FormatError);
}

TEST(ReadContainer, TrimsAnUncompressedCubinToItsElfExtent) {
  auto entry = cubin_entry(Compression::None, 5);  // 64 + 5 + 64 bytes: padded to 136 when stored
  auto container = read_container(ByteView(write_container(std::vector{entry})));
  EXPECT_EQ(container.entries[0].stored_size, 136u);
  EXPECT_EQ(container.entries[0].payload.size(), 133u);
}

}  // namespace
}  // namespace barracuda::fatbin
