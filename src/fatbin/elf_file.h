#pragma once
// Fat binaries in a file on disk: embedded in an ELF file (executable, shared library or object), found
// with libelf, or a bare fat-binary file as `nvcc -fatbin` writes it.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "fatbin/container.h"

namespace barracuda::fatbin {

inline constexpr const char* kFatbinSection = ".nv_fatbin";       // what the wrappers point at
inline constexpr const char* kPrelinkedSection = "__nv_relfatbin";  // per-object fatbins of -rdc builds

struct SectionInfo {
  std::string name;
  std::uint64_t file_offset = 0;
};

// The containers of one section. Offsets inside the containers count from the section's start.
struct FatbinSection : SectionInfo {
  std::vector<Container> containers;
};

// Every fat-binary section of the file that holds containers, in section order. Throws
// std::runtime_error when the file cannot be read as ELF, FormatError (section offsets) on bad content.
std::vector<FatbinSection> read_elf_file(const std::filesystem::path& path);

// The same one container at a time (see for_each_container), in file order.
using SectionContainerVisitor = std::function<void(const SectionInfo&, Container&&)>;
void for_each_elf_container(const std::filesystem::path& path, const SectionContainerVisitor& visit);

// A bare fat-binary file is presented as one section of this name at offset 0.
inline constexpr const char* kWholeFileSection = "(file)";

// for_each_elf_container, or for a file starting with the container magic, its containers.
void for_each_file_container(const std::filesystem::path& path, const SectionContainerVisitor& visit);

}  // namespace barracuda::fatbin
