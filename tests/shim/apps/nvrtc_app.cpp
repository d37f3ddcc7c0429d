// Compiles a kernel with NVRTC for sm_90 and takes the cubin twice: through NVRTC linked into the
// program, and through NVRTC opened with dlopen and looked up with dlsym (as Python's ctypes does).
// Needs no GPU. Under the shim, each nvrtcGetCUBIN must be seen with its program's PTX.
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdio>
#include <vector>

namespace {

const char* const kSource = "extern \"C\" __global__ void marker(int* out) { out[threadIdx.x] = 0x1234567; }\n";

template <typename Create, typename Compile, typename Size, typename Get>
size_t cubin_size(Create create, Compile compile, Size size_of, Get get) {
  nvrtcProgram program;
  if (create(&program, kSource, "marker.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return 0;
  const char* options[] = {"--gpu-architecture=sm_90"};
  size_t size = 0;
  if (compile(program, 1, options) != NVRTC_SUCCESS || size_of(program, &size) != NVRTC_SUCCESS) return 0;
  std::vector<char> cubin(size);
  return get(program, cubin.data()) == NVRTC_SUCCESS ? size : 0;
}

}  // namespace

int main() {
  const size_t linked = cubin_size(&nvrtcCreateProgram, &nvrtcCompileProgram, &nvrtcGetCUBINSize, &nvrtcGetCUBIN);
  void* library = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return 1;
  const size_t opened = cubin_size(reinterpret_cast<decltype(&nvrtcCreateProgram)>(dlsym(library, "nvrtcCreateProgram")),
                                   reinterpret_cast<decltype(&nvrtcCompileProgram)>(dlsym(library, "nvrtcCompileProgram")),
                                   reinterpret_cast<decltype(&nvrtcGetCUBINSize)>(dlsym(library, "nvrtcGetCUBINSize")),
                                   reinterpret_cast<decltype(&nvrtcGetCUBIN)>(dlsym(library, "nvrtcGetCUBIN")));
  std::printf("linked cubin %s, dlopen cubin %s\n", linked ? "ok" : "missing", opened ? "ok" : "missing");
  return linked && opened ? 0 : 1;
}
