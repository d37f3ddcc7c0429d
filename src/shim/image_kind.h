#pragma once
// Recognises what kind of GPU code image an application hands to the driver, from its leading magic.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace barracuda::shim {

enum class ImageKind : std::uint8_t {
  FatbinWrapper,    // __fatBinC_Wrapper_t, what cudart passes to cuLibraryLoadData
  FatbinContainer,  // the fat binary itself (nvcc -fatbin, or what a wrapper points to)
  Elf,              // a cubin
  PtxText,          // NUL-terminated PTX source
  Unknown,
};

// Layout of fatbinary_section.h's __fatBinC_Wrapper_t (BRIEF section 3).
struct FatbinWrapper {
  std::uint32_t magic;
  std::uint32_t version;        // 1, or 2 for device-linked (rdc) binaries
  const std::uint8_t* container;
  const void* prelinked_fatbins;  // version 2 only
};
static_assert(sizeof(FatbinWrapper) == 24);

// The 16-byte header that starts every fat-binary container; its entries follow it.
struct FatbinContainerHeader {
  std::uint32_t magic;
  std::uint16_t version;
  std::uint16_t header_size;
  std::uint64_t entries_size;
};
static_assert(sizeof(FatbinContainerHeader) == 16);

inline constexpr std::uint32_t kFatbinWrapperMagic = 0x466243B1;
inline constexpr std::uint32_t kFatbinContainerMagic = 0xBA55ED50;

// Reads only as many bytes as it needs to tell the kinds apart and never past a NUL, so a PTX string
// shorter than a magic number is safe to classify.
ImageKind classify_image(const void* image);

// Bytes the image occupies where its own header says so: the container (for a wrapper, the container it
// points to), the ELF file up to its last header table, the PTX text with its NUL. The image must be a
// complete image of the given kind, as the driver also assumes.
std::optional<std::size_t> image_size(const void* image, ImageKind kind);

std::string_view to_string(ImageKind kind);

}  // namespace barracuda::shim
