#include "fatbin/container.h"

#include <algorithm>

#include "fatbin/compression.h"
#include "fatbin/elf_extent.h"
#include "fatbin/format.h"

namespace barracuda::fatbin {
namespace {

bool known_kind(std::uint16_t kind) {
  return kind == static_cast<std::uint16_t>(EntryKind::Ptx) || kind == static_cast<std::uint16_t>(EntryKind::Cubin) ||
         kind == static_cast<std::uint16_t>(EntryKind::LtoIr);
}

// Options block and name live in the header extension; both are optional (offset 0).
void read_header_strings(const ByteView& header_bytes, const EntryHeader& header, Entry& entry) {
  if (header.name_offset != 0) {
    entry.name = header_bytes.text(header.name_offset, header.name_size, "entry name");
  }
  if (header.options_offset != 0) {
    auto block = header_bytes.read<OptionsBlock>(header.options_offset, "ptxas-options block");
    auto bytes = header_bytes.slice(block.offset, block.size, "ptxas options").bytes();
    entry.ptxas_options.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
}

// Cuts padding: PTX ends at its first NUL, an uncompressed cubin at the end of its ELF header tables.
void trim_payload(Entry& entry) {
  auto& payload = entry.payload;
  if (entry.kind == EntryKind::Ptx) {
    payload.erase(std::find(payload.begin(), payload.end(), std::byte{0}), payload.end());
  } else if (entry.kind == EntryKind::Cubin && entry.compression == Compression::None) {
    if (auto extent = elf_extent(ByteView(payload)); extent && *extent < payload.size()) payload.resize(*extent);
  }
}

Entry read_entry(const ByteView& entries, std::uint64_t offset) {
  auto header = entries.read<EntryHeader>(offset, "entry header");
  if (!known_kind(header.kind)) entries.fail(offset, "unknown entry kind " + std::to_string(header.kind));
  if (header.header_size < sizeof(EntryHeader)) {
    entries.fail(offset, "entry header size " + std::to_string(header.header_size) + " is below 64");
  }
  if (header.flags & ~flag::kKnownMask) {
    entries.fail(offset + offsetof(EntryHeader, flags), "unknown entry flags " + hex(header.flags & ~flag::kKnownMask));
  }
  auto compression = compression_from_flags(header.flags);
  if (!compression) entries.fail(offset + offsetof(EntryHeader, flags), "several compression flags in " + hex(header.flags));
  // nvcc pads every payload to 8 bytes (the next entry starts 8-aligned); an unpadded one would not
  // survive rewriting, which pads it (found by fatbin_fuzzer).
  if (header.payload_size % kPayloadAlignment != 0) {
    entries.fail(offset + offsetof(EntryHeader, payload_size),
                 "entry payload size " + std::to_string(header.payload_size) + " is not a multiple of 8");
  }

  Entry entry;
  entry.kind = static_cast<EntryKind>(header.kind);
  entry.arch = SmArch{header.sm_arch};
  entry.version = IsaVersion{header.major, header.minor};
  entry.flags = header.flags;
  entry.compression = *compression;
  entry.offset = entries.origin() + offset;
  read_header_strings(entries.slice(offset, header.header_size, "entry header extension"), header, entry);

  auto payload = entries.slice(offset + header.header_size, header.payload_size, "entry payload");
  bool compressed = entry.compression != Compression::None;
  entry.stored_size = compressed ? header.compressed_size : header.payload_size;
  auto stored = payload.slice(0, entry.stored_size, "compressed payload");
  if (entry.kind == EntryKind::LtoIr) {
    entry.payload.assign(stored.bytes().begin(), stored.bytes().end());
    entry.opaque = {header.decompressed_size, header.reserved};
    return entry;
  }
  if (compressed) {
    entry.payload = decompress(entry.compression, stored.bytes(), header.decompressed_size, stored.origin());
  } else {
    entry.payload.assign(stored.bytes().begin(), stored.bytes().end());
  }
  trim_payload(entry);
  return entry;
}

std::uint64_t entry_extent(const ByteView& entries, std::uint64_t offset) {
  auto header = entries.read<EntryHeader>(offset, "entry header");
  return std::uint64_t{header.header_size} + header.payload_size;
}

}  // namespace

std::uint64_t container_extent(const ByteView& bytes, std::uint64_t offset) {
  auto header = bytes.read<ContainerHeader>(offset, "container header");
  if (header.magic != kContainerMagic) {
    bytes.fail(offset, "bad container magic " + hex(header.magic) + " (expected " + hex(kContainerMagic) + ")");
  }
  if (header.version != kContainerVersion) {
    bytes.fail(offset + offsetof(ContainerHeader, version), "unsupported container version " + std::to_string(header.version));
  }
  if (header.header_size != sizeof(ContainerHeader)) {
    bytes.fail(offset + offsetof(ContainerHeader, header_size),
               "container header size " + std::to_string(header.header_size) + " (expected 16)");
  }
  if (header.entries_size > UINT64_MAX - sizeof(ContainerHeader)) {
    bytes.fail(offset + offsetof(ContainerHeader, entries_size), "container size overflows");
  }
  return sizeof(ContainerHeader) + header.entries_size;
}

Container read_container(const ByteView& bytes, std::uint64_t offset) {
  Container container;
  container.offset = bytes.origin() + offset;
  container.size = container_extent(bytes, offset);
  auto entries = bytes.slice(offset + sizeof(ContainerHeader), container.size - sizeof(ContainerHeader), "container entries");
  std::uint64_t position = 0;
  while (position < entries.size()) {
    container.entries.push_back(read_entry(entries, position));
    // read_entry has checked that header and payload lie inside `entries`, so this cannot overflow.
    position += entry_extent(entries, position);
  }
  return container;
}

void for_each_container(const ByteView& bytes, const std::function<void(Container&&)>& visit) {
  std::uint64_t position = 0;
  while (position < bytes.size()) {
    if (bytes.read<std::byte>(position, "padding") == std::byte{0}) {
      ++position;  // zero padding up to the next 8-aligned container or to the section's end
      continue;
    }
    if (position % kContainerAlignment != 0) bytes.fail(position, "container is not 8-aligned");
    auto container = read_container(bytes, position);
    position += container.size;
    visit(std::move(container));
  }
}

std::vector<Container> read_containers(const ByteView& bytes) {
  std::vector<Container> containers;
  for_each_container(bytes, [&](Container&& container) { containers.push_back(std::move(container)); });
  return containers;
}

}  // namespace barracuda::fatbin
