// End-to-end fixture for kernels compiled at run time. The program compiles CUDA C++ with NVRTC and
// loads a cubin that holds no PTX:
//   linked   NVRTC linked, compiled for sm_90, the cubin of nvrtcGetCUBIN copied and loaded;
//   dlopen   the same with NVRTC opened with dlopen and looked up with dlsym (as Python's ctypes, CuPy
//            and cuda-python do);
//   jitlink  compiled to PTX (compute_90), linked by the driver (cuLinkAddData, cuLinkComplete);
//   linkfile the same PTX written to a file and added with cuLinkAddFile;
//   nvjitlink the same PTX linked by the program's own nvJitLink;
//   lto      NVRTC's LTO-IR (-dlto) linked by the program's own nvJitLink with -lto.
//   nvrtc_program racy|clean linked|dlopen|jitlink|linkfile|nvjitlink|lto
#include <cuda.h>
#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "driver_fixture.h"

namespace {

// Line numbers matter: the race is between lines 4 and 5 of "nvrtc_kernels.cu".
const char* const kSource =
    "// kernels compiled at run time\n"
    "extern \"C\" __global__ void publish_racy(int* flag, int* seen) {\n"
    "  // block 0 writes, block 1 reads, nothing orders them\n"
    "  if (blockIdx.x == 0 && threadIdx.x == 0) flag[0] = 1;\n"
    "  if (blockIdx.x == 1 && threadIdx.x == 0) seen[0] = flag[0];\n"
    "}\n"
    "extern \"C\" __global__ void fill_clean(int* slots, int*) {\n"
    "  slots[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;\n"
    "}\n";

struct Nvrtc {
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetLTOIRSize) lto_ir_size = nullptr;
  decltype(&nvrtcGetLTOIR) lto_ir = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
};

Nvrtc linked_nvrtc() {
  return {&nvrtcCreateProgram, &nvrtcCompileProgram, &nvrtcGetCUBINSize, &nvrtcGetCUBIN,       &nvrtcGetPTXSize,
          &nvrtcGetPTX,        &nvrtcGetLTOIRSize,   &nvrtcGetLTOIR,     &nvrtcGetProgramLogSize, &nvrtcGetProgramLog,
          &nvrtcDestroyProgram};
}

template <typename Function>
bool find(void* library, const char* name, Function* function) {
  *function = reinterpret_cast<Function>(dlsym(library, name));
  if (*function == nullptr) std::fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
  return *function != nullptr;
}

bool opened_nvrtc(Nvrtc* nvrtc) {
  void* library = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen libnvrtc.so.13: %s\n", dlerror());
    return false;
  }
  return find(library, "nvrtcCreateProgram", &nvrtc->create) && find(library, "nvrtcCompileProgram", &nvrtc->compile) &&
         find(library, "nvrtcGetCUBINSize", &nvrtc->cubin_size) && find(library, "nvrtcGetCUBIN", &nvrtc->cubin) &&
         find(library, "nvrtcGetProgramLogSize", &nvrtc->log_size) && find(library, "nvrtcGetProgramLog", &nvrtc->log) &&
         find(library, "nvrtcDestroyProgram", &nvrtc->destroy);
}

enum class Output { kCubin, kPtx, kLtoIr };

// The cubin, PTX or LTO-IR, in a buffer of the program's own (NVRTC's program is destroyed before the
// load).
bool compile(const Nvrtc& nvrtc, Output output, std::vector<char>* code) {
  const bool to_ptx = output == Output::kPtx;
  nvrtcProgram program;
  if (nvrtc.create(&program, kSource, "nvrtc_kernels.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return false;
  const char* options[] = {output == Output::kCubin ? "--gpu-architecture=sm_90" : "--gpu-architecture=compute_90",
                           "-lineinfo", "-dlto"};
  if (nvrtc.compile(program, output == Output::kLtoIr ? 3 : 2, options) != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtc.log_size(program, &size);
    std::vector<char> log(size + 1);
    nvrtc.log(program, log.data());
    std::fprintf(stderr, "nvrtc: %s\n", log.data());
    return false;
  }
  size_t size = 0;
  const auto size_of = output == Output::kLtoIr ? nvrtc.lto_ir_size : to_ptx ? nvrtc.ptx_size : nvrtc.cubin_size;
  const auto get = output == Output::kLtoIr ? nvrtc.lto_ir : to_ptx ? nvrtc.ptx : nvrtc.cubin;
  if (size_of(program, &size) != NVRTC_SUCCESS || size == 0) return false;
  std::vector<char> nvrtc_buffer(size);
  if (get(program, nvrtc_buffer.data()) != NVRTC_SUCCESS) return false;
  nvrtc.destroy(&program);
  *code = nvrtc_buffer;  // a copy: the tool must recognise the bytes, not the address
  return true;
}

// Links `ptx` with the driver's JIT linker, from memory or from a file; the cubin copied out of the
// link state, which is destroyed before the load.
bool jit_link(const std::vector<char>& ptx, bool from_file, std::vector<char>* cubin) {
  CUlinkState state;
  using e2e::ok;
  if (!ok(cuLinkCreate(0, nullptr, nullptr, &state), "cuLinkCreate")) return false;
  bool added = false;
  if (from_file) {
    char path[] = "/tmp/nvrtc_program_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return false;
    const bool written = write(fd, ptx.data(), std::strlen(ptx.data())) == static_cast<ssize_t>(std::strlen(ptx.data()));
    close(fd);
    added = written && ok(cuLinkAddFile(state, CU_JIT_INPUT_PTX, path, 0, nullptr, nullptr), "cuLinkAddFile");
    unlink(path);
  } else {
    added = ok(cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.data()), ptx.size(), "nvrtc_kernels.ptx",
                             0, nullptr, nullptr),
               "cuLinkAddData");
  }
  void* linked = nullptr;
  size_t size = 0;
  if (!added || !ok(cuLinkComplete(state, &linked, &size), "cuLinkComplete")) return false;
  cubin->assign(static_cast<char*>(linked), static_cast<char*>(linked) + size);
  return ok(cuLinkDestroy(state), "cuLinkDestroy");
}

// Links PTX (or with `lto`, LTO-IR) with nvJitLink for sm_90; the cubin copied out before the handle is
// destroyed.
bool nvjitlink(const std::vector<char>& code, bool lto, std::vector<char>* cubin) {
  nvJitLinkHandle link;
  const char* options[] = {"-arch=sm_90", "-lto"};
  if (nvJitLinkCreate(&link, lto ? 2 : 1, options) != NVJITLINK_SUCCESS) return false;
  size_t size = 0;
  const bool linked = (lto ? nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, code.data(), code.size(), "nvrtc_kernels.ltoir")
                           : nvJitLinkAddData(link, NVJITLINK_INPUT_PTX, code.data(), std::strlen(code.data()),
                                              "nvrtc_kernels.ptx")) == NVJITLINK_SUCCESS &&
                      nvJitLinkComplete(link) == NVJITLINK_SUCCESS &&
                      nvJitLinkGetLinkedCubinSize(link, &size) == NVJITLINK_SUCCESS;
  if (linked) {
    cubin->resize(size);
    if (nvJitLinkGetLinkedCubin(link, cubin->data()) != NVJITLINK_SUCCESS) cubin->clear();
  }
  nvJitLinkDestroy(&link);
  if (cubin->empty()) std::fprintf(stderr, "nvJitLink failed\n");
  return !cubin->empty();
}

}  // namespace

int main(int argc, char** argv) {
  const bool racy = argc > 1 && std::strcmp(argv[1], "racy") == 0;
  const char* mode = argc > 2 ? argv[2] : "linked";
  const bool opened = std::strcmp(mode, "dlopen") == 0;
  const bool link_file = std::strcmp(mode, "linkfile") == 0;
  const bool lto = std::strcmp(mode, "lto") == 0;
  const bool own_linker = lto || std::strcmp(mode, "nvjitlink") == 0;
  const bool jit = link_file || own_linker || std::strcmp(mode, "jitlink") == 0;
  Nvrtc nvrtc = linked_nvrtc();
  if (opened && !opened_nvrtc(&nvrtc)) return 1;
  std::vector<char> code;
  if (!compile(nvrtc, lto ? Output::kLtoIr : jit ? Output::kPtx : Output::kCubin, &code)) return 1;

  CUdevice device;
  if (!e2e::use_primary_context(&device)) return 1;
  std::vector<char> cubin;
  const bool linked = !jit ? (cubin = code, true) : own_linker ? nvjitlink(code, lto, &cubin) : jit_link(code, link_file, &cubin);
  if (!linked) return 1;
  CUmodule module;
  const std::string label = std::string("nvrtc_program ") + (racy ? "racy " : "clean ") + mode;
  if (!e2e::ok(cuModuleLoadData(&module, cubin.data()), "cuModuleLoadData") ||
      !e2e::launch_fixture_kernel(module, racy, label.c_str())) {
    return 1;
  }
  cuModuleUnload(module);
  cuDevicePrimaryCtxRelease(device);
  return 0;
}
