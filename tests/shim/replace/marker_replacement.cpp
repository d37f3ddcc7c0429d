// Test-only companion of libbarracuda.so, preloaded after it: a ModuleTransformer that returns, for every
// PTX image containing the marker kernel's constant, a copy with kReplacedMarker in its place. The app
// then reads kReplacedMarker back only if the driver compiled and ran the replacement. Fat binaries are
// left alone: rewriting them needs the fat-binary writer (branch `fatbin`).
#include <cstring>
#include <deque>
#include <mutex>
#include <string>

#include "apps/marker.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim::testing {
namespace {

class MarkerReplacement final : public ModuleTransformer {
 public:
  const void* transform(const ModuleImage& image) override {
    if (image.kind != ImageKind::PtxText) return nullptr;
    std::string text(static_cast<const char*>(image.data));
    std::size_t at = text.find(kOriginalMarkerText);
    if (at == std::string::npos) return nullptr;
    text.replace(at, std::strlen(kOriginalMarkerText), kReplacedMarkerText);
    std::lock_guard lock(mutex_);
    // Replacements live as long as the process, as ModuleTransformer requires.
    return replacements_.emplace_back(std::move(text)).c_str();
  }
  void loaded(const ModuleImage&, const LoadedHandle&) override {}

 private:
  std::mutex mutex_;
  std::deque<std::string> replacements_;
};

__attribute__((constructor)) void install_marker_replacement() {
  static MarkerReplacement* const replacement = new MarkerReplacement();
  install_module_transformer(*replacement);
}

}  // namespace
}  // namespace barracuda::shim::testing
