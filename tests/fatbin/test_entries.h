#pragma once
// Entries and images the fat-binary tests build their containers from.
#include <elf.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fatbin/entry.h"
#include "fatbin/format.h"

namespace barracuda::fatbin::testing {

inline constexpr std::string_view kSamplePtx =
    ".version 9.0\n.target sm_90\n.address_size 64\n\n"
    ".visible .entry add_one(\n.param .u64 p\n)\n{\nret;\n}\n"
    ".visible .entry scale(\n.param .u64 p\n)\n{\nret;\n}\n";

inline std::vector<std::byte> bytes_of(std::string_view text) {
  const auto* start = reinterpret_cast<const std::byte*>(text.data());
  return {start, start + text.size()};
}

// A minimal 64-bit ELF: header, `body_size` bytes of body, one (null) section header at the end.
inline std::vector<std::byte> minimal_elf(std::size_t body_size) {
  std::vector<std::byte> image(sizeof(Elf64_Ehdr) + body_size + sizeof(Elf64_Shdr));
  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_shoff = sizeof(Elf64_Ehdr) + body_size;
  header.e_shnum = 1;
  header.e_shentsize = sizeof(Elf64_Shdr);
  std::memcpy(image.data(), &header, sizeof header);
  for (std::size_t i = 0; i < body_size; ++i) image[sizeof header + i] = static_cast<std::byte>(i * 7 + 1);
  return image;
}

inline Entry ptx_entry(Compression compression, SmArch arch = {90}, std::string options = {}) {
  Entry entry;
  entry.kind = EntryKind::Ptx;
  entry.arch = arch;
  entry.version = {9, 0};
  entry.flags = flag::k64Bit | flag::kHostLinux;
  entry.compression = compression;
  entry.ptxas_options = std::move(options);
  entry.payload = bytes_of(kSamplePtx);
  return entry;
}

inline Entry cubin_entry(Compression compression, std::size_t body_size = 37) {
  Entry entry;
  entry.kind = EntryKind::Cubin;
  entry.arch = {90};
  entry.version = {1, 8};
  entry.flags = flag::k64Bit | flag::kHostLinux;
  entry.compression = compression;
  entry.payload = minimal_elf(body_size);
  return entry;
}

// LTO-IR as nvcc 13 stores it: compression bit set, bytes that are no compressed stream.
inline Entry lto_entry(Compression compression) {
  Entry entry;
  entry.kind = EntryKind::LtoIr;
  entry.arch = {90};
  entry.version = {1, 65};
  entry.flags = flag::k64Bit | flag::kHostLinux | flag::kLtoIr;
  entry.compression = compression;
  entry.name = "helper.cu";
  entry.ptxas_options = "-ftz=0 -prec_div=1";
  entry.payload = bytes_of("opaque NVVM IR, not a compressed frame");
  entry.opaque = {2220, 0xdbc87664};
  return entry;
}

inline constexpr Compression kAllCompressions[] = {Compression::None, Compression::Zlib, Compression::Lz4Block,
                                                   Compression::Lz4Frame, Compression::Zstd};

}  // namespace barracuda::fatbin::testing
