#pragma once
// On-disk layout of a barracuda trace file (`record=FILE` writes one, `barracuda replay` reads it).
// All integers are little-endian; the file is a header followed by sections:
//
//   FileHeader                      magic "BCDTRACE", format version, record format version (record.h)
//   SectionHeader + payload         repeated; kinds below, in the order the runtime produced them
//   SectionHeader(kEnd) + EndPayload  written by TraceWriter::finish(): a file without it was cut short
//
// Section payloads:
//   kModule    ModuleHeader, kernel_count strings (kernel names), then site_count entries of
//              SiteFixed + function string + file string. Site i has global id site_base + i, the
//              value RecordHeader::site_id carries.
//   kLaunch    LaunchFixed + kernel name string (+ LaunchFlags from version 3).
//   kSlotChunk ChunkHeader, then one LZ4 frame (content size and checksum set) holding slot_count raw 32-byte
//              queue slots of queue `queue_index`, in queue order.
//   kEnd       EndPayload (counts, cross-checked by the reader).
// A string is a u32 byte length followed by the bytes (no NUL).
#include <bit>
#include <cstdint>

#include "barracuda/record.h"

namespace barracuda::trace {

static_assert(std::endian::native == std::endian::little, "trace files are little-endian and written raw");

inline constexpr char kTraceMagic[8] = {'B', 'C', 'D', 'T', 'R', 'A', 'C', 'E'};
// Version 2 added each site's inner location and address parameter (SiteInfo::inner_*, parameter);
// version 3 each launch's LaunchFlags (child grids launched from the device). Versions 1 and 2 are
// still read.
inline constexpr uint32_t kTraceFormatVersion = 3;
inline constexpr uint32_t kOldestTraceFormatVersion = 1;

// Limits that keep a reader's memory bounded whatever the file claims.
inline constexpr uint32_t kMaxSectionPayloadBytes = 64u << 20;
inline constexpr uint32_t kMaxChunkSlots = 1u << 16;  // 2 MiB of slots per chunk
inline constexpr uint32_t kMaxStringBytes = 1u << 16;

struct FileHeader {
  char magic[8];
  uint32_t format_version;         // kTraceFormatVersion
  uint32_t record_format_version;  // kRecordFormatVersion of the slots in this file
};
static_assert(sizeof(FileHeader) == 16);

enum class SectionKind : uint32_t {
  kModule = 1,
  kLaunch = 2,
  kSlotChunk = 3,
  kEnd = 4,
};

struct SectionHeader {
  uint32_t kind;           // SectionKind
  uint32_t payload_bytes;  // bytes that follow this header, at most kMaxSectionPayloadBytes
};
static_assert(sizeof(SectionHeader) == 8);

struct ModuleHeader {
  uint32_t module_index;
  uint32_t site_base;
  uint32_t kernel_count;
  uint32_t site_count;
};
static_assert(sizeof(ModuleHeader) == 16);

struct SiteFixed {
  uint32_t ptx_line;
  uint32_t line;  // 0: no line info
  uint32_t column;
};
static_assert(sizeof(SiteFixed) == 12);

struct SiteInnerFixed {  // version 2 on, after a site's file: then the inner file's string
  uint32_t line;  // 0: the site is not in an inlined function
  uint32_t column;
  int32_t parameter;  // SiteInfo::parameter
};
static_assert(sizeof(SiteInnerFixed) == 12);

struct LaunchFixed {
  uint64_t launch_id;  // full launch sequence number; records carry its low 16 bits
  uint64_t stream;     // CUstream handle value, as an opaque id
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_shared_bytes;
  uint32_t queue_count;  // device queues the launch logged into
};
static_assert(sizeof(LaunchFixed) == 48);

enum LaunchFlag : uint32_t {
  // The launch's kernels may launch child grids from the device (engine::LaunchInfo::launches_child_grids).
  kLaunchChildGrids = 1u << 0,
};
struct LaunchFlags {  // version 3 on, after the kernel name
  uint32_t flags;     // LaunchFlag bits; others reserved (0)
};
static_assert(sizeof(LaunchFlags) == 4);

struct ChunkHeader {
  uint32_t queue_index;
  uint32_t slot_count;  // 1..kMaxChunkSlots
};
static_assert(sizeof(ChunkHeader) == 8);

struct EndPayload {
  uint64_t module_count;
  uint64_t launch_count;
  uint64_t chunk_count;
  uint64_t slot_count;
};
static_assert(sizeof(EndPayload) == 32);

}  // namespace barracuda::trace
