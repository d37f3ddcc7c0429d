#pragma once
// Fat binaries embedded in an ELF file on disk (executable, shared library or object), found with libelf.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fatbin/container.h"

namespace barracuda::fatbin {

inline constexpr const char* kFatbinSection = ".nv_fatbin";       // what the wrappers point at
inline constexpr const char* kPrelinkedSection = "__nv_relfatbin";  // per-object fatbins of -rdc builds

// The containers of one section. Offsets inside the containers count from the section's start.
struct FatbinSection {
  std::string name;
  std::uint64_t file_offset = 0;
  std::vector<Container> containers;
};

// Every fat-binary section of the file, in section order; empty when the file has none. Throws
// std::runtime_error when the file cannot be read as ELF, FormatError (section offsets) on bad content.
std::vector<FatbinSection> read_elf_file(const std::filesystem::path& path);

}  // namespace barracuda::fatbin
