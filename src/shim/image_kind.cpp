#include "shim/image_kind.h"

#include <elf.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "fatbin/format.h"

namespace barracuda::shim {
namespace {

// Magic numbers as they appear in memory (little-endian); none contains a zero byte, so comparing
// byte by byte stops at the first mismatch before any NUL that ends a short PTX string.
constexpr std::array<std::uint8_t, 4> little_endian_bytes(std::uint32_t magic) {
  return {static_cast<std::uint8_t>(magic), static_cast<std::uint8_t>(magic >> 8),
          static_cast<std::uint8_t>(magic >> 16), static_cast<std::uint8_t>(magic >> 24)};
}
constexpr std::array<std::uint8_t, 4> kWrapperBytes = little_endian_bytes(fatbin::kWrapperMagic);
constexpr std::array<std::uint8_t, 4> kContainerBytes = little_endian_bytes(fatbin::kContainerMagic);
static_assert(kWrapperBytes[0] != 0 && kWrapperBytes[1] != 0 && kWrapperBytes[2] != 0 && kWrapperBytes[3] != 0);
constexpr std::array<std::uint8_t, 4> kElfBytes{ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3};

bool starts_with(const std::uint8_t* bytes, const std::array<std::uint8_t, 4>& magic) {
  for (std::size_t i = 0; i < magic.size(); ++i) {
    if (bytes[i] != magic[i]) return false;
  }
  return true;
}

// PTX is plain text: accept printable ASCII and whitespace up to the first directive or comment.
bool looks_like_ptx(const std::uint8_t* bytes) {
  for (std::size_t i = 0; bytes[i] != 0; ++i) {
    std::uint8_t c = bytes[i];
    if (c == '.' || c == '/') return true;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return false;
}

std::size_t container_size(const std::uint8_t* container) {
  fatbin::ContainerHeader header;
  std::memcpy(&header, container, sizeof header);
  return header.header_size + header.entries_size;
}

std::size_t elf_size(const std::uint8_t* image) {
  Elf64_Ehdr header;
  std::memcpy(&header, image, sizeof header);
  std::size_t sections_end = header.e_shoff + std::size_t{header.e_shnum} * header.e_shentsize;
  std::size_t segments_end = header.e_phoff + std::size_t{header.e_phnum} * header.e_phentsize;
  return std::max({sections_end, segments_end, std::size_t{header.e_ehsize}});
}

}  // namespace

ImageKind classify_image(const void* image) {
  if (image == nullptr) return ImageKind::Unknown;
  const auto* bytes = static_cast<const std::uint8_t*>(image);
  if (starts_with(bytes, kWrapperBytes)) return ImageKind::FatbinWrapper;
  if (starts_with(bytes, kContainerBytes)) return ImageKind::FatbinContainer;
  if (starts_with(bytes, kElfBytes)) return ImageKind::Elf;
  if (looks_like_ptx(bytes)) return ImageKind::PtxText;
  return ImageKind::Unknown;
}

std::optional<std::size_t> image_size(const void* image, ImageKind kind) {
  const auto* bytes = static_cast<const std::uint8_t*>(image);
  switch (kind) {
    case ImageKind::FatbinWrapper: {
      fatbin::WrapperRecord wrapper;
      std::memcpy(&wrapper, bytes, sizeof wrapper);
      const auto* container = reinterpret_cast<const std::uint8_t*>(wrapper.data);
      if (container == nullptr || classify_image(container) != ImageKind::FatbinContainer) return std::nullopt;
      return container_size(container);
    }
    case ImageKind::FatbinContainer:
      return container_size(bytes);
    case ImageKind::Elf:
      if (bytes[EI_CLASS] != ELFCLASS64) return std::nullopt;
      return elf_size(bytes);
    case ImageKind::PtxText:
      return std::strlen(reinterpret_cast<const char*>(bytes)) + 1;
    case ImageKind::Unknown:
      break;
  }
  return std::nullopt;
}

std::string_view to_string(ImageKind kind) {
  switch (kind) {
    case ImageKind::FatbinWrapper: return "fatbin-wrapper";
    case ImageKind::FatbinContainer: return "fatbin";
    case ImageKind::Elf: return "elf";
    case ImageKind::PtxText: return "ptx";
    case ImageKind::Unknown: break;
  }
  return "unknown";
}

}  // namespace barracuda::shim
