// Test-only companion of libbarracuda.so, preloaded after it: a ModuleTransformer that rewrites the marker
// kernel's constant (kOriginalMarker -> kReplacedMarker). PTX text is rewritten in place; a fat binary
// (wrapper or container) is replaced by a PTX-only container holding its rewritten PTX entry, built with
// the fat-binary writer, so the driver has no cubin to fall back on and must JIT the replacement. The
// app then reads kReplacedMarker back only if the driver compiled and ran the replaced code.
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "apps/marker.h"
#include "fatbin/error.h"
#include "fatbin/image.h"
#include "fatbin/writer.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim::testing {
namespace {

std::optional<std::string> with_replaced_marker(std::string_view ptx) {
  std::size_t at = ptx.find(kOriginalMarkerText);
  if (at == std::string_view::npos) return std::nullopt;
  std::string text(ptx);
  text.replace(at, std::strlen(kOriginalMarkerText), kReplacedMarkerText);
  return text;
}

class MarkerReplacement final : public ModuleTransformer {
 public:
  const void* transform(const ModuleImage& image) override {
    switch (image.kind) {
      case ImageKind::PtxText:
        return replace_ptx(static_cast<const char*>(image.data));
      case ImageKind::FatbinWrapper:
      case ImageKind::FatbinContainer:
        return replace_fatbin(image);
      case ImageKind::Elf:
      case ImageKind::Unknown:
        break;
    }
    return nullptr;
  }
  void loaded(const ModuleImage&, const LoadedHandle&) override {}

 private:
  const void* replace_ptx(const char* ptx) {
    std::optional<std::string> text = with_replaced_marker(ptx);
    if (!text) return nullptr;
    std::lock_guard lock(mutex_);
    return ptx_.emplace_back(std::move(*text)).c_str();
  }

  const void* replace_fatbin(const ModuleImage& image) {
    fatbin::Image read;
    try {
      read = fatbin::read_image(image.data);
    } catch (const fatbin::FormatError&) {
      return nullptr;
    }
    for (const fatbin::Container& container : read.containers) {
      for (const fatbin::Entry& entry : container.entries) {
        if (entry.kind != fatbin::EntryKind::Ptx) continue;
        std::optional<std::string> text = with_replaced_marker(entry.text());
        if (!text) continue;
        fatbin::Entry replaced = entry;
        replaced.compression = fatbin::Compression::None;
        const auto* bytes = reinterpret_cast<const std::byte*>(text->data());
        replaced.payload.assign(bytes, bytes + text->size());
        std::lock_guard lock(mutex_);
        const fatbin::WrappedFatbin& fatbin = fatbins_.emplace_back(fatbin::write_container({&replaced, 1}));
        return image.kind == ImageKind::FatbinWrapper ? fatbin.wrapper() : fatbin.container().data();
      }
    }
    return nullptr;
  }

  // Replacements live as long as the process, as ModuleTransformer requires.
  std::mutex mutex_;
  std::deque<std::string> ptx_;
  std::deque<fatbin::WrappedFatbin> fatbins_;
};

__attribute__((constructor)) void install_marker_replacement() {
  static MarkerReplacement* const replacement = new MarkerReplacement();
  install_module_transformer(*replacement);
}

}  // namespace
}  // namespace barracuda::shim::testing
