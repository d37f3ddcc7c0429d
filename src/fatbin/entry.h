#pragma once
// One code image of a fat binary, decoded: what it is, for which GPU, and its (decompressed) bytes.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace barracuda::fatbin {

enum class EntryKind : std::uint16_t { Ptx = 1, Cubin = 2, LtoIr = 8 };

enum class Compression : std::uint8_t { None, Zlib, Lz4Block, Lz4Frame, Zstd };

// SM architecture number as nvcc writes it: 90 for sm_90 / compute_90.
struct SmArch {
  std::uint32_t value = 0;
  auto operator<=>(const SmArch&) const = default;
};

// PTX ISA version of a PTX entry (9.0 for nvcc 13); the ELF format version for cubins.
struct IsaVersion {
  std::uint16_t major = 0;
  std::uint16_t minor = 0;
  auto operator<=>(const IsaVersion&) const = default;
};

// Header fields of an LTO-IR entry. LTO-IR is reported, not decoded: with flag 0x10000 its bytes are
// no plain compressed stream (the zstd bit is set, yet no zstd frame follows), so the entry keeps its
// payload as stored and these fields, which writing it back needs.
struct OpaqueFields {
  std::uint64_t decompressed_size = 0;
  std::uint64_t reserved = 0;  // header +0x30, non-zero on LTO-IR
  auto operator<=>(const OpaqueFields&) const = default;
};

struct Entry {
  EntryKind kind = EntryKind::Ptx;
  SmArch arch;
  IsaVersion version;
  std::uint64_t flags = 0;  // flag:: bits as stored, compression bit included
  Compression compression = Compression::None;
  std::string name;           // source file name nvcc records with -G/-lineinfo; often empty
  std::string ptxas_options;  // raw bytes of the options block (text for PTX)
  std::uint64_t offset = 0;       // of the entry header, in the frame the container was read from
  std::uint64_t stored_size = 0;  // payload bytes as stored (compressed size when compressed)
  // Decompressed payload. PTX: the text without its trailing NUL and padding. LTO-IR: as stored.
  std::vector<std::byte> payload;
  OpaqueFields opaque;  // LTO-IR only

  std::string_view text() const {
    return {reinterpret_cast<const char*>(payload.data()), payload.size()};
  }
};

std::string_view to_string(EntryKind kind);
std::string_view to_string(Compression compression);
// "sm_90" for cubins, "compute_90" for PTX and LTO-IR, with the a/f suffix of arch- and
// family-specific targets ("sm_90a", "compute_100f").
std::string arch_name(const Entry& entry);
// Names of the set flag bits ("64bit", "linux", "zstd", ...), unknown bits as hex.
std::vector<std::string> flag_names(std::uint64_t flags);

}  // namespace barracuda::fatbin
