// classify_image must stop at the first NUL whatever precedes it (PTX strings may be shorter than a magic
// number): the input is copied into an exactly sized NUL-terminated buffer so ASan sees any over-read.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "shim/image_kind.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = std::make_unique<std::uint8_t[]>(size + 1);
  std::memcpy(text.get(), data, size);
  text[size] = 0;
  using barracuda::shim::ImageKind;
  ImageKind kind = barracuda::shim::classify_image(text.get());
  if (kind == ImageKind::PtxText) {
    std::size_t length = std::strlen(reinterpret_cast<const char*>(text.get()));
    if (barracuda::shim::image_size(text.get(), kind) != length + 1) __builtin_trap();
  }
  return 0;
}
