#include "fatbin/entry.h"

#include <array>
#include <utility>

#include "fatbin/error.h"
#include "fatbin/format.h"

namespace barracuda::fatbin {

std::string_view to_string(EntryKind kind) {
  switch (kind) {
    case EntryKind::Ptx: return "ptx";
    case EntryKind::Cubin: return "cubin";
    case EntryKind::LtoIr: return "lto-ir";
  }
  return "unknown";
}

std::string_view to_string(Compression compression) {
  switch (compression) {
    case Compression::None: return "none";
    case Compression::Zlib: return "zlib";
    case Compression::Lz4Block: return "lz4-block";
    case Compression::Lz4Frame: return "lz4-frame";
    case Compression::Zstd: return "zstd";
  }
  return "unknown";
}

std::string arch_name(const Entry& entry) {
  std::string name = (entry.kind == EntryKind::Cubin ? "sm_" : "compute_") + std::to_string(entry.arch.value);
  if (entry.flags & flag::kArchSpecific) name += 'a';
  if (entry.flags & flag::kFamilySpecific) name += 'f';
  return name;
}


std::vector<std::string> flag_names(std::uint64_t flags) {
  static constexpr std::array<std::pair<std::uint64_t, std::string_view>, 13> kNames{{
      {flag::k64Bit, "64bit"},
      {flag::kDebug, "debug"},
      {flag::kHostLinux, "linux"},
      {flag::kHostMac, "mac"},
      {flag::kHostWindows, "windows"},
      {flag::kZlib, "zlib"},
      {flag::kLz4Block, "lz4-block"},
      {flag::kLz4Frame, "lz4-frame"},
      {flag::kZstd, "zstd"},
      {flag::kLtoIr, "lto"},
      {flag::kArchSpecific, "arch-specific"},
      {flag::kFamilySpecific, "family-specific"},
      {flag::kCubinCompatBlock, "compat-block"},
  }};
  std::vector<std::string> names;
  for (auto [bit, name] : kNames) {
    if (flags & bit) names.emplace_back(name);
  }
  if (flags & ~flag::kKnownMask) names.push_back(hex(flags & ~flag::kKnownMask));
  return names;
}

}  // namespace barracuda::fatbin
