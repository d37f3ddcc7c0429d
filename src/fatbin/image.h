#pragma once
// What the driver is handed in cuLibraryLoadData / cuModuleLoadData(Ex) / cuModuleLoadFatBinary: a
// wrapper record, a bare container, a cubin ELF or NUL-terminated PTX. One entry point tells them
// apart and reads what is there.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fatbin/container.h"

namespace barracuda::fatbin {

enum class ImageKind : std::uint8_t { Wrapper, Container, Elf, Ptx };

std::string_view to_string(ImageKind kind);

struct Image {
  ImageKind kind = ImageKind::Ptx;
  // Wrapper: its container, then each prelinked container of a version-2 (-rdc) wrapper. Container: it.
  // Elf / Ptx: one container-less entry, presented as a container at offset 0 so that every kind of
  // image reads the same way (a raw cubin's arch and version are left 0; raw PTX's come from its
  // .target and .version). Offsets count from the start of each container (or image).
  std::vector<Container> containers;
};

// Reads the image at `image`. With `max_size`, nothing past image + max_size is read and an image
// claiming more is a FormatError; without it the sizes the image's own headers give are trusted (the
// driver API passes no size either). Throws FormatError on anything malformed or unrecognised.
Image read_image(const void* image, std::optional<std::size_t> max_size = std::nullopt);

// The same for an image held in a buffer: the buffer's size is the maximum. A wrapper's pointers are
// followed without bounds, so only pass wrappers that point into live memory.
Image read_image(std::span<const std::byte> image);

}  // namespace barracuda::fatbin
