#pragma once
// The SASS back end's patch module (device/sass_patch.cu) as a fatbin, for sanitizerAddPatches.
#include <string_view>

namespace barracuda {

std::string_view device_sass_patch_fatbin();

}  // namespace barracuda
