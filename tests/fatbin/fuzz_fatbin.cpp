// libFuzzer target: every reader entry point on arbitrary bytes must either succeed or throw
// FormatError, and whatever it reads must survive a write/read round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "fatbin/container.h"
#include "fatbin/error.h"
#include "fatbin/format.h"
#include "fatbin/image.h"
#include "fatbin/ptx_scan.h"
#include "fatbin/writer.h"

namespace {

using namespace barracuda::fatbin;

bool same_entries(const Container& a, const Container& b) {
  if (a.entries.size() != b.entries.size()) return false;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const Entry& x = a.entries[i];
    const Entry& y = b.entries[i];
    if (x.kind != y.kind || x.arch != y.arch || x.version != y.version || x.flags != y.flags ||
        x.compression != y.compression || x.name != y.name || x.ptxas_options != y.ptxas_options ||
        x.payload != y.payload || x.opaque != y.opaque) {
      return false;
    }
  }
  return true;
}

void read_section(std::span<const std::byte> bytes) {
  try {
    for (const Container& container : read_containers(ByteView(bytes))) {
      auto rewritten = write_container(container.entries);
      if (!same_entries(container, read_container(ByteView(rewritten)))) __builtin_trap();
    }
  } catch (const FormatError&) {
  }
}

void read_any_image(std::span<const std::byte> bytes) {
  std::uint32_t magic = 0;
  if (bytes.size() >= sizeof magic) std::memcpy(&magic, bytes.data(), sizeof magic);
  if (magic == kWrapperMagic) return;  // a wrapper holds raw pointers: only live memory can be one
  try {
    read_image(bytes);
  } catch (const FormatError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  read_section(bytes);
  read_any_image(bytes);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ptx_kernels(text);
  ptx_isa_version(text);
  ptx_target(text);
  return 0;
}
