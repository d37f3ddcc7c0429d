#include "fatbin/image.h"

#include <cstring>

#include "fatbin/elf_extent.h"
#include "fatbin/format.h"
#include "fatbin/ptx_scan.h"

namespace barracuda::fatbin {
namespace {

constexpr std::size_t kMaxPrelinkedFatbins = 1 << 16;

const std::byte* bytes_at(std::uint64_t address) { return reinterpret_cast<const std::byte*>(address); }

// The bytes from `start` up to `max_size`, or a window of `length` when no maximum is known.
ByteView window(const std::byte* start, std::optional<std::size_t> max_size, std::uint64_t length) {
  return ByteView({start, max_size ? *max_size : static_cast<std::size_t>(length)});
}

// A container reached by address: its header says how long it is.
Container read_container_at(const std::byte* start, std::optional<std::size_t> max_size) {
  if (start == nullptr) throw FormatError(0, "null container pointer");
  auto extent = container_extent(window(start, max_size, sizeof(ContainerHeader)));
  return read_container(window(start, max_size, extent));
}

Image read_wrapper(const std::byte* start, std::optional<std::size_t> max_size) {
  auto record = window(start, max_size, sizeof(WrapperRecord)).read<WrapperRecord>(0, "wrapper record");
  if (record.version != kWrapperVersion && record.version != kWrapperLinkedVersion) {
    throw FormatError(offsetof(WrapperRecord, version), "unsupported wrapper version " + std::to_string(record.version));
  }
  Image image{ImageKind::Wrapper, {read_container_at(bytes_at(record.data), std::nullopt)}};
  if (record.version == kWrapperLinkedVersion && record.filename_or_fatbins != 0) {
    const auto* list = reinterpret_cast<const std::uint64_t*>(record.filename_or_fatbins);
    for (std::size_t i = 0; list[i] != 0; ++i) {
      if (i == kMaxPrelinkedFatbins) throw FormatError(offsetof(WrapperRecord, filename_or_fatbins), "prelinked fatbin list does not end");
      image.containers.push_back(read_container_at(bytes_at(list[i]), std::nullopt));
    }
  }
  return image;
}

Image single_entry_image(ImageKind kind, Entry entry) {
  Container container;
  container.size = entry.stored_size;
  container.entries.push_back(std::move(entry));
  return {kind, {std::move(container)}};
}

Image read_elf(const std::byte* start, std::optional<std::size_t> max_size) {
  auto extent = elf_extent(window(start, max_size, kElf64HeaderSize));
  if (!extent) throw FormatError(0, "ELF image is truncated or not 64-bit little-endian");
  auto bytes = window(start, max_size, *extent).slice(0, *extent, "ELF image").bytes();
  Entry entry;
  entry.kind = EntryKind::Cubin;
  entry.stored_size = bytes.size();
  entry.payload.assign(bytes.begin(), bytes.end());
  return single_entry_image(ImageKind::Elf, std::move(entry));
}

Image read_ptx(const std::byte* start, std::optional<std::size_t> max_size) {
  const char* text = reinterpret_cast<const char*>(start);
  std::size_t length = max_size ? ::strnlen(text, *max_size) : std::strlen(text);
  Entry entry;
  entry.kind = EntryKind::Ptx;
  entry.stored_size = length;
  entry.payload.assign(start, start + length);
  entry.arch = ptx_target(entry.text()).value_or(SmArch{});
  entry.version = ptx_isa_version(entry.text()).value_or(IsaVersion{});
  return single_entry_image(ImageKind::Ptx, std::move(entry));
}

bool looks_like_ptx(const std::byte* start, std::optional<std::size_t> max_size) {
  // nvcc's PTX starts with a comment or a directive; both begin with printable text.
  auto first = static_cast<unsigned char>(*start);
  return (!max_size || *max_size > 0) && (first == '/' || first == '.' || first == '\n' || first == ' ' || first == '\t');
}

}  // namespace

std::string_view to_string(ImageKind kind) {
  switch (kind) {
    case ImageKind::Wrapper: return "wrapper";
    case ImageKind::Container: return "container";
    case ImageKind::Elf: return "elf";
    case ImageKind::Ptx: return "ptx";
  }
  return "unknown";
}

Image read_image(const void* image, std::optional<std::size_t> max_size) {
  if (image == nullptr) throw FormatError(0, "null image pointer");
  const auto* start = static_cast<const std::byte*>(image);
  auto head = window(start, max_size, 4);
  if (head.size() < 4) throw FormatError(0, "image of " + std::to_string(head.size()) + " bytes is too short");
  auto magic = head.read<std::uint32_t>(0, "magic");
  if (magic == kWrapperMagic) return read_wrapper(start, max_size);
  if (magic == kContainerMagic) return {ImageKind::Container, {read_container_at(start, max_size)}};
  if (starts_with_elf_magic(head)) return read_elf(start, max_size);
  if (looks_like_ptx(start, max_size)) return read_ptx(start, max_size);
  throw FormatError(0, "unrecognised image (magic " + hex(magic) + ")");
}

Image read_image(std::span<const std::byte> image) { return read_image(image.data(), image.size()); }

}  // namespace barracuda::fatbin
