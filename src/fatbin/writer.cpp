#include "fatbin/writer.h"

#include <cstring>
#include <string_view>

#include "fatbin/compression.h"

namespace barracuda::fatbin {
namespace {

std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

template <typename T>
void put(std::vector<std::byte>& out, std::size_t offset, const T& value) {
  std::memcpy(out.data() + offset, &value, sizeof value);
}

// Appends `text`, its NUL and zero padding to 8; returns where it starts.
std::uint32_t append_text(std::vector<std::byte>& header, std::string_view text) {
  auto start = header.size();
  header.resize(align_up(start + text.size() + 1, kPayloadAlignment));
  std::memcpy(header.data() + start, text.data(), text.size());
  return static_cast<std::uint32_t>(start);
}

// The header extension after the fixed 64 bytes: name, then options block and options text.
std::vector<std::byte> build_header(const Entry& entry, EntryHeader fixed) {
  std::vector<std::byte> header(sizeof(EntryHeader));
  if (!entry.name.empty()) {
    fixed.name_offset = append_text(header, entry.name);
    fixed.name_size = static_cast<std::uint32_t>(entry.name.size());
  }
  if (entry.kind == EntryKind::Ptx || !entry.ptxas_options.empty()) {
    fixed.options_offset = static_cast<std::uint32_t>(header.size());
    header.resize(header.size() + sizeof(OptionsBlock));
    OptionsBlock block{0, static_cast<std::uint32_t>(entry.ptxas_options.size())};
    block.offset = append_text(header, entry.ptxas_options);
    put(header, fixed.options_offset, block);
  }
  fixed.header_size = static_cast<std::uint32_t>(header.size());
  put(header, 0, fixed);
  return header;
}

void append_entry(std::vector<std::byte>& out, const Entry& entry) {
  bool opaque = entry.kind == EntryKind::LtoIr;
  std::vector<std::byte> plain(entry.payload);
  if (entry.kind == EntryKind::Ptx) plain.push_back(std::byte{0});
  auto stored = opaque ? plain : compress(entry.compression, plain);

  EntryHeader fixed{};
  fixed.kind = static_cast<std::uint16_t>(entry.kind);
  fixed.header_version = kEntryHeaderVersion;
  fixed.payload_size = align_up(stored.size(), kPayloadAlignment);
  fixed.minor = entry.version.minor;
  fixed.major = entry.version.major;
  fixed.sm_arch = entry.arch.value;
  fixed.flags = (entry.flags & ~flag::kCompressionMask) | compression_flag(entry.compression);
  if (entry.compression != Compression::None) {
    fixed.compressed_size = static_cast<std::uint32_t>(stored.size());
    fixed.decompressed_size = plain.size();
  }
  if (opaque) {
    fixed.decompressed_size = entry.opaque.decompressed_size;
    fixed.reserved = entry.opaque.reserved;
  }
  auto header = build_header(entry, fixed);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), stored.begin(), stored.end());
  out.resize(out.size() + (fixed.payload_size - stored.size()));
}

}  // namespace

std::vector<std::byte> write_container(std::span<const Entry> entries) {
  std::vector<std::byte> out(sizeof(ContainerHeader));
  for (const Entry& entry : entries) append_entry(out, entry);
  put(out, 0, ContainerHeader{kContainerMagic, kContainerVersion, sizeof(ContainerHeader), out.size() - sizeof(ContainerHeader)});
  return out;
}

Entry replacement_ptx(const Entry& original, std::string_view ptx) {
  Entry replacement = original;
  replacement.kind = EntryKind::Ptx;
  const auto* text = reinterpret_cast<const std::byte*>(ptx.data());
  replacement.payload.assign(text, text + ptx.size());
  return replacement;
}

WrappedFatbin::WrappedFatbin(std::vector<std::byte> container)
    : container_(std::move(container)),
      record_{kWrapperMagic, kWrapperVersion, reinterpret_cast<std::uintptr_t>(container_.data()), 0} {}

}  // namespace barracuda::fatbin
