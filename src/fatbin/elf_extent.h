#pragma once
// How many bytes a 64-bit ELF image (a cubin) spans, from its header: an image handed over by pointer
// comes without a size, and an uncompressed cubin entry is padded past its end.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fatbin/byte_view.h"

namespace barracuda::fatbin {

inline constexpr unsigned char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
inline constexpr std::size_t kElf64HeaderSize = 64;

bool starts_with_elf_magic(const ByteView& bytes);

// The end of the furthest header table (program or section headers; nvcc puts them last), or nullopt
// when `bytes` does not start with a 64-bit little-endian ELF header.
std::optional<std::uint64_t> elf_extent(const ByteView& bytes);

}  // namespace barracuda::fatbin
