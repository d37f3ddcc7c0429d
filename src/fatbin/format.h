#pragma once
// On-disk layout of CUDA fat binaries as nvcc 13 writes them (measured on nvcc 13.0 output; all fields
// little-endian). The reader never casts raw bytes to these structs: it copies them out through
// ByteView, so misaligned or truncated input cannot fault.
#include <cstddef>
#include <cstdint>

namespace barracuda::fatbin {

// __fatBinC_Wrapper_t from fatbinary_section.h: what __cudaRegisterFatBinary and cuLibraryLoadData see.
struct WrapperRecord {
  std::uint32_t magic;    // kWrapperMagic
  std::uint32_t version;  // kWrapperVersion or kWrapperLinkedVersion
  std::uint64_t data;     // address of the container
  // Version 1: unused (offline file name). Version 2 (device-linked, -rdc): address of a NULL-terminated
  // array of container addresses, the prelinked fatbins of each object (section __nv_relfatbin).
  std::uint64_t filename_or_fatbins;
};
static_assert(sizeof(WrapperRecord) == 24);
static_assert(offsetof(WrapperRecord, data) == 8);

inline constexpr std::uint32_t kWrapperMagic = 0x466243B1;
inline constexpr std::uint32_t kWrapperVersion = 1;
inline constexpr std::uint32_t kWrapperLinkedVersion = 2;

// A container: this header, then `entries_size` bytes of entries. Several containers follow each other
// in a section, each starting 8-aligned.
struct ContainerHeader {
  std::uint32_t magic;        // kContainerMagic
  std::uint16_t version;      // kContainerVersion
  std::uint16_t header_size;  // sizeof(ContainerHeader)
  std::uint64_t entries_size;
};
static_assert(sizeof(ContainerHeader) == 16);

inline constexpr std::uint32_t kContainerMagic = 0xBA55ED50;
inline constexpr std::uint16_t kContainerVersion = 1;
inline constexpr std::size_t kContainerAlignment = 8;

// One entry: this header, an extension up to `header_size` (name, options block), then `payload_size`
// bytes of (possibly compressed) payload. Offsets inside the header count from the entry's start.
struct EntryHeader {
  std::uint16_t kind;             // EntryKind
  std::uint16_t header_version;   // 0x0101 in every entry nvcc 13 writes
  std::uint32_t header_size;      // >= sizeof(EntryHeader); the payload starts here
  std::uint64_t payload_size;     // stored bytes, padded to 8
  std::uint32_t compressed_size;  // unpadded compressed size; 0 when not compressed
  std::uint32_t options_offset;   // 0, or offset of an OptionsBlock
  std::uint16_t minor;            // PTX ISA version (PTX) or ELF format version (cubin)
  std::uint16_t major;
  std::uint32_t sm_arch;  // 90 for sm_90/compute_90
  std::uint32_t name_offset;  // 0, or offset of the source file name (NUL-terminated)
  std::uint32_t name_size;    // without the NUL
  std::uint64_t flags;        // EntryFlag bits
  std::uint64_t reserved;     // 0, except a hash-like value on LTO-IR entries
  std::uint64_t decompressed_size;  // 0 when not compressed; counts a PTX's trailing NUL
};
static_assert(sizeof(EntryHeader) == 64);
static_assert(offsetof(EntryHeader, compressed_size) == 0x10);
static_assert(offsetof(EntryHeader, options_offset) == 0x14);
static_assert(offsetof(EntryHeader, minor) == 0x18);
static_assert(offsetof(EntryHeader, sm_arch) == 0x1c);
static_assert(offsetof(EntryHeader, name_offset) == 0x20);
static_assert(offsetof(EntryHeader, flags) == 0x28);
static_assert(offsetof(EntryHeader, decompressed_size) == 0x38);

inline constexpr std::uint16_t kEntryHeaderVersion = 0x0101;
inline constexpr std::size_t kPayloadAlignment = 8;

// Where the ptxas options live inside the header extension. For PTX the bytes are the option text
// (NUL-terminated, padded); sm_100+ cubins keep a binary block here instead. The driver needs the block
// to exist on PTX entries: a 0x40-byte PTX header without one crashes it.
struct OptionsBlock {
  std::uint32_t offset;  // from the entry's start
  std::uint32_t size;    // without the NUL
};
static_assert(sizeof(OptionsBlock) == 8);

// Entry flag bits. Exactly one compression bit at most.
namespace flag {
inline constexpr std::uint64_t k64Bit = 0x1;
inline constexpr std::uint64_t kDebug = 0x2;
inline constexpr std::uint64_t kHostLinux = 0x10;
inline constexpr std::uint64_t kHostMac = 0x20;
inline constexpr std::uint64_t kHostWindows = 0x40;
inline constexpr std::uint64_t kZlib = 0x1000;
inline constexpr std::uint64_t kLz4Block = 0x2000;
inline constexpr std::uint64_t kLz4Frame = 0x4000;
inline constexpr std::uint64_t kZstd = 0x8000;
// Set on every LTO-IR entry seen, whose payload is then no plain compressed stream.
inline constexpr std::uint64_t kLtoIr = 0x10000;
inline constexpr std::uint64_t kArchSpecific = 0x100000;   // sm_90a-style targets
inline constexpr std::uint64_t kFamilySpecific = 0x200000; // sm_100f-style targets
// Set on every sm_100+ cubin nvcc 13 writes, which also carry a binary block in the options area.
inline constexpr std::uint64_t kCubinCompatBlock = 0x1000000;

inline constexpr std::uint64_t kCompressionMask = kZlib | kLz4Block | kLz4Frame | kZstd;
inline constexpr std::uint64_t kKnownMask = k64Bit | kDebug | kHostLinux | kHostMac | kHostWindows |
                                            kCompressionMask | kLtoIr | kArchSpecific | kFamilySpecific |
                                            kCubinCompatBlock;
}  // namespace flag

}  // namespace barracuda::fatbin
