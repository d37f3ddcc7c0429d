#include "fatbin/elf_extent.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace barracuda::fatbin {

static_assert(sizeof(Elf64_Ehdr) == kElf64HeaderSize);

bool starts_with_elf_magic(const ByteView& bytes) {
  return bytes.size() >= sizeof kElfMagic && std::memcmp(bytes.bytes().data(), kElfMagic, sizeof kElfMagic) == 0;
}

std::optional<std::uint64_t> elf_extent(const ByteView& bytes) {
  if (!starts_with_elf_magic(bytes) || bytes.size() < sizeof(Elf64_Ehdr)) return std::nullopt;
  auto header = bytes.read<Elf64_Ehdr>(0, "ELF header");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) return std::nullopt;
  // Each product fits: u16 * u16 < 2^32, added to a u64 offset that a later bounds check catches.
  std::uint64_t program_headers = header.e_phoff + std::uint64_t{header.e_phnum} * header.e_phentsize;
  std::uint64_t section_headers = header.e_shoff + std::uint64_t{header.e_shnum} * header.e_shentsize;
  if (program_headers < header.e_phoff || section_headers < header.e_shoff) return std::nullopt;
  return std::max({std::uint64_t{sizeof(Elf64_Ehdr)}, program_headers, section_headers});
}

}  // namespace barracuda::fatbin
