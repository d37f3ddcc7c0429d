#pragma once
// The shim's wrappers for the application's own use of nvJitLink (the library-level JIT linker that
// replaced cuLink*): each link's inputs, the cubin it hands the application and the link's end go to
// the module observers as LinkInput / LinkOutput / on_link_destroy (Linker::kNvJitLink), like the
// driver's JIT links. Reached like NVRTC (nvrtc_hooks.h): the preload library exports the symbols, and
// its dlsym wraps them. nvJitLink.h calls the versioned names (__nvJitLinkAddData_13_0), which are
// exported; dlsym also wraps the plain names. barracuda's own links (inside a hook) pass unrecorded.
#include <nvJitLink.h>

#include <string_view>

namespace barracuda::shim {

bool is_wrapped_nvjitlink_symbol(std::string_view name);

// The wrapper to return from dlsym for `real`, the nvJitLink export `name` found through `handle`;
// null for names not wrapped, or for a second nvJitLink library (its real function is then used).
void* nvjitlink_wrapper_for(std::string_view name, void* handle, void* real);

// What the preload library's exports do: the next library's definition, announced to the observers.
nvJitLinkResult exported_nvjitlink_add_data(std::string_view name, nvJitLinkHandle link, nvJitLinkInputType type,
                                            const void* data, size_t size, const char* input_name);
nvJitLinkResult exported_nvjitlink_add_file(std::string_view name, nvJitLinkHandle link, nvJitLinkInputType type,
                                            const char* path);
nvJitLinkResult exported_nvjitlink_get_linked_cubin(std::string_view name, nvJitLinkHandle link, void* cubin);
nvJitLinkResult exported_nvjitlink_destroy(std::string_view name, nvJitLinkHandle* link);

}  // namespace barracuda::shim
