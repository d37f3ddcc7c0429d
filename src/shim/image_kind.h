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

// The wrapper and container layouts and magic numbers are fatbin/format.h's (one definition).
// Reads only as many bytes as it needs to tell the kinds apart and never past a NUL, so a PTX string
// shorter than a magic number is safe to classify.
ImageKind classify_image(const void* image);

// Bytes the image occupies where its own header says so: the container (for a wrapper, the container it
// points to), the ELF file up to its last header table, the PTX text with its NUL. The image must be a
// complete image of the given kind, as the driver also assumes.
std::optional<std::size_t> image_size(const void* image, ImageKind kind);

std::string_view to_string(ImageKind kind);

}  // namespace barracuda::shim
