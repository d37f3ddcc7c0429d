#pragma once
// The four payload codecs nvcc's fatbinary uses, through zlib, liblz4 and libzstd.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fatbin/entry.h"

namespace barracuda::fatbin {

// The compression an entry's flags name; nullopt when more than one compression bit is set.
std::optional<Compression> compression_from_flags(std::uint64_t flags);
std::uint64_t compression_flag(Compression compression);

// Decompresses `stored` into exactly `expected_size` bytes. Throws FormatError (at `offset`) on corrupt
// data, a size other than the one announced, or an announced size no real payload reaches.
std::vector<std::byte> decompress(Compression compression, std::span<const std::byte> stored,
                                  std::uint64_t expected_size, std::uint64_t offset);

std::vector<std::byte> compress(Compression compression, std::span<const std::byte> data);

}  // namespace barracuda::fatbin
