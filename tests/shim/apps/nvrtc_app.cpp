// Compiles a kernel with NVRTC and hands it through the run-time compilers the way applications do,
// each twice: with the library linked into the program, and opened with dlopen and looked up with
// dlsym (as Python's ctypes does). Needs no GPU. Under the shim, each nvrtcGetCUBIN must be seen with
// its program's PTX, and each nvJitLink input must be seen.
//   NVRTC for sm_90 -> nvrtcGetCUBIN;  NVRTC for compute_90 -> PTX -> nvJitLinkAddData -> cubin.
#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const kSource = "extern \"C\" __global__ void marker(int* out) { out[threadIdx.x] = 0x1234567; }\n";

struct Nvrtc {
  decltype(&nvrtcCreateProgram) create;
  decltype(&nvrtcCompileProgram) compile;
  decltype(&nvrtcGetCUBINSize) cubin_size;
  decltype(&nvrtcGetCUBIN) cubin;
  decltype(&nvrtcGetPTXSize) ptx_size;
  decltype(&nvrtcGetPTX) ptx;
};

// The cubin (sm_90) or the PTX (compute_90) of kSource; empty on failure.
std::vector<char> compile(const Nvrtc& nvrtc, bool to_ptx) {
  nvrtcProgram program;
  if (nvrtc.create(&program, kSource, "marker.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return {};
  const char* options[] = {to_ptx ? "--gpu-architecture=compute_90" : "--gpu-architecture=sm_90"};
  size_t size = 0;
  if (nvrtc.compile(program, 1, options) != NVRTC_SUCCESS ||
      (to_ptx ? nvrtc.ptx_size : nvrtc.cubin_size)(program, &size) != NVRTC_SUCCESS) {
    return {};
  }
  std::vector<char> code(size);
  return (to_ptx ? nvrtc.ptx : nvrtc.cubin)(program, code.data()) == NVRTC_SUCCESS ? code : std::vector<char>{};
}

struct NvJitLink {
  decltype(&__nvJitLinkCreate_13_0) create;
  decltype(&__nvJitLinkAddData_13_0) add_data;
  decltype(&__nvJitLinkComplete_13_0) complete;
  decltype(&__nvJitLinkGetLinkedCubinSize_13_0) cubin_size;
  decltype(&__nvJitLinkGetLinkedCubin_13_0) cubin;
  decltype(&__nvJitLinkDestroy_13_0) destroy;
};

bool link(const NvJitLink& nvjitlink, const std::vector<char>& ptx) {
  nvJitLinkHandle handle;
  const char* options[] = {"-arch=sm_90"};
  if (nvjitlink.create(&handle, 1, options) != NVJITLINK_SUCCESS) return false;
  size_t size = 0;
  bool ok = nvjitlink.add_data(handle, NVJITLINK_INPUT_PTX, ptx.data(), std::strlen(ptx.data()), "marker.ptx") ==
                NVJITLINK_SUCCESS &&
            nvjitlink.complete(handle) == NVJITLINK_SUCCESS && nvjitlink.cubin_size(handle, &size) == NVJITLINK_SUCCESS;
  std::vector<char> cubin(size);
  ok = ok && nvjitlink.cubin(handle, cubin.data()) == NVJITLINK_SUCCESS;
  nvjitlink.destroy(&handle);
  return ok;
}

template <typename Function>
void find(void* library, const char* name, Function* function) {
  *function = reinterpret_cast<Function>(library != nullptr ? dlsym(library, name) : nullptr);
}

}  // namespace

int main() {
  const Nvrtc linked_nvrtc{&nvrtcCreateProgram, &nvrtcCompileProgram, &nvrtcGetCUBINSize,
                           &nvrtcGetCUBIN,      &nvrtcGetPTXSize,     &nvrtcGetPTX};
  const NvJitLink linked_nvjitlink{&__nvJitLinkCreate_13_0,           &__nvJitLinkAddData_13_0,
                                   &__nvJitLinkComplete_13_0,         &__nvJitLinkGetLinkedCubinSize_13_0,
                                   &__nvJitLinkGetLinkedCubin_13_0,   &__nvJitLinkDestroy_13_0};
  Nvrtc opened_nvrtc{};
  void* nvrtc_library = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
  find(nvrtc_library, "nvrtcCreateProgram", &opened_nvrtc.create);
  find(nvrtc_library, "nvrtcCompileProgram", &opened_nvrtc.compile);
  find(nvrtc_library, "nvrtcGetCUBINSize", &opened_nvrtc.cubin_size);
  find(nvrtc_library, "nvrtcGetCUBIN", &opened_nvrtc.cubin);
  find(nvrtc_library, "nvrtcGetPTXSize", &opened_nvrtc.ptx_size);
  find(nvrtc_library, "nvrtcGetPTX", &opened_nvrtc.ptx);
  NvJitLink opened_nvjitlink{};
  void* nvjitlink_library = dlopen("libnvJitLink.so.13", RTLD_NOW | RTLD_LOCAL);
  find(nvjitlink_library, "__nvJitLinkCreate_13_0", &opened_nvjitlink.create);
  find(nvjitlink_library, "nvJitLinkAddData", &opened_nvjitlink.add_data);  // the plain name, as bindings may ask
  find(nvjitlink_library, "__nvJitLinkComplete_13_0", &opened_nvjitlink.complete);
  find(nvjitlink_library, "__nvJitLinkGetLinkedCubinSize_13_0", &opened_nvjitlink.cubin_size);
  find(nvjitlink_library, "__nvJitLinkGetLinkedCubin_13_0", &opened_nvjitlink.cubin);
  find(nvjitlink_library, "__nvJitLinkDestroy_13_0", &opened_nvjitlink.destroy);
  if (opened_nvrtc.ptx == nullptr || opened_nvjitlink.destroy == nullptr || opened_nvjitlink.add_data == nullptr) {
    std::fprintf(stderr, "dlopen/dlsym failed: %s\n", dlerror());
    return 1;
  }
  const bool cubins = !compile(linked_nvrtc, false).empty() && !compile(opened_nvrtc, false).empty();
  const std::vector<char> ptx = compile(linked_nvrtc, true);
  const bool links = !ptx.empty() && link(linked_nvjitlink, ptx) && link(opened_nvjitlink, ptx);
  std::printf("nvrtc cubins %s, nvJitLink links %s\n", cubins ? "ok" : "missing", links ? "ok" : "missing");
  return cubins && links ? 0 : 1;
}
