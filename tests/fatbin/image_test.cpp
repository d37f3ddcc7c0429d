#include "fatbin/image.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fatbin/error.h"
#include "fatbin/format.h"
#include "fatbin/writer.h"
#include "test_entries.h"

namespace barracuda::fatbin {
namespace {

using ::testing::HasSubstr;
using testing::cubin_entry;
using testing::ptx_entry;

TEST(ReadImage, FollowsAVersion1Wrapper) {
  WrappedFatbin wrapped(write_container(std::vector{cubin_entry(Compression::None), ptx_entry(Compression::Zstd)}));
  auto image = read_image(wrapped.wrapper());
  EXPECT_EQ(image.kind, ImageKind::Wrapper);
  ASSERT_EQ(image.containers.size(), 1u);
  ASSERT_EQ(image.containers[0].entries.size(), 2u);
  EXPECT_EQ(image.containers[0].entries[1].text(), testing::kSamplePtx);
}

TEST(ReadImage, FollowsTheNullTerminatedPrelinkedListOfAVersion2Wrapper) {
  auto linked = write_container(std::vector{cubin_entry(Compression::None)});
  auto object_a = write_container(std::vector{ptx_entry(Compression::Zstd, {90})});
  auto object_b = write_container(std::vector{ptx_entry(Compression::Lz4Block, {80})});
  std::uint64_t prelinked[] = {reinterpret_cast<std::uintptr_t>(object_a.data()),
                               reinterpret_cast<std::uintptr_t>(object_b.data()), 0};
  WrapperRecord record{kWrapperMagic, kWrapperLinkedVersion, reinterpret_cast<std::uintptr_t>(linked.data()),
                       reinterpret_cast<std::uintptr_t>(prelinked)};
  auto image = read_image(&record);
  ASSERT_EQ(image.containers.size(), 3u);
  EXPECT_EQ(image.containers[0].entries[0].kind, EntryKind::Cubin);
  EXPECT_EQ(image.containers[1].entries[0].arch, SmArch{90});
  EXPECT_EQ(image.containers[2].entries[0].arch, SmArch{80});
}

TEST(ReadImage, RejectsAnUnknownWrapperVersion) {
  auto container = write_container(std::vector{ptx_entry(Compression::None)});
  WrapperRecord record{kWrapperMagic, 3, reinterpret_cast<std::uintptr_t>(container.data()), 0};
  EXPECT_THAT([&] { read_image(&record); },
              ::testing::ThrowsMessage<FormatError>(HasSubstr("offset 0x4: unsupported wrapper version 3")));
}

TEST(ReadImage, ReadsABareContainerWithinItsMaximumSize) {
  auto container = write_container(std::vector{ptx_entry(Compression::Zstd)});
  auto image = read_image(container);
  EXPECT_EQ(image.kind, ImageKind::Container);
  EXPECT_EQ(image.containers.at(0).entries.at(0).text(), testing::kSamplePtx);
  EXPECT_EQ(read_image(container.data()).containers.at(0).size, container.size());
  EXPECT_THROW(read_image(container.data(), container.size() - 1), FormatError);
}

TEST(ReadImage, SizesARawCubinFromItsElfHeader) {
  auto elf = testing::minimal_elf(21);
  auto image = read_image(elf.data());
  EXPECT_EQ(image.kind, ImageKind::Elf);
  EXPECT_EQ(image.containers.at(0).entries.at(0).kind, EntryKind::Cubin);
  EXPECT_EQ(image.containers[0].entries[0].payload, elf);
  EXPECT_THAT([&] { read_image(elf.data(), elf.size() - 1); },
              ::testing::ThrowsMessage<FormatError>(HasSubstr("ELF image")));
}

TEST(ReadImage, RejectsA32BitElf) {
  auto elf = testing::minimal_elf(0);
  elf[4] = std::byte{1};  // ELFCLASS32
  EXPECT_THROW(read_image(elf), FormatError);
}

TEST(ReadImage, ReadsNulTerminatedPtxAndItsTarget) {
  std::string text(testing::kSamplePtx);
  auto image = read_image(text.c_str());
  EXPECT_EQ(image.kind, ImageKind::Ptx);
  const auto& entry = image.containers.at(0).entries.at(0);
  EXPECT_EQ(entry.text(), testing::kSamplePtx);
  EXPECT_EQ(entry.arch, SmArch{90});
  EXPECT_EQ(entry.version, (IsaVersion{9, 0}));
}

TEST(ReadImage, StopsPtxWithoutNulAtTheMaximumSize) {
  auto bytes = testing::bytes_of(testing::kSamplePtx);
  auto image = read_image(bytes);
  EXPECT_EQ(image.containers.at(0).entries.at(0).text(), testing::kSamplePtx);
}

TEST(ReadImage, RejectsWhatItDoesNotRecognise) {
  std::vector<std::byte> unknown{std::byte{0xde}, std::byte{0xad}, std::byte{0xbe}, std::byte{0xef}};
  EXPECT_THAT([&] { read_image(unknown); }, ::testing::ThrowsMessage<FormatError>(HasSubstr("unrecognised image")));
  EXPECT_THAT([&] { read_image(std::span(unknown).first(2)); }, ::testing::ThrowsMessage<FormatError>(HasSubstr("too short")));
  EXPECT_THROW(read_image(nullptr), FormatError);
}

}  // namespace
}  // namespace barracuda::fatbin
