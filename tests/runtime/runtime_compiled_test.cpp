// Cubins NVRTC compiled at run time carry no PTX; barracuda keeps the PTX NVRTC compiled them from
// (runtime_compiled_ptx.h) and instruments the cubin from it when the application loads it. NVRTC and
// nvJitLink need no GPU: these tests compile real cubins.
#include <gtest/gtest.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fatbin/image.h"
#include "runtime/jit_link.h"
#include "runtime/module_instrumenter.h"
#include "runtime/runtime_compiled_ptx.h"
#include "shim/image_kind.h"

namespace barracuda::runtime {
namespace {

const char* const kSource =
    "extern \"C\" __global__ void publish(int* flag, int* seen) {\n"
    "  if (blockIdx.x == 0) flag[0] = 1;\n"
    "  if (blockIdx.x == 1) seen[0] = flag[0];\n"
    "}\n";

struct Compiled {
  std::vector<char> cubin;
  std::string ptx;
};

// What an application gets from NVRTC for sm_90, and the PTX the program still holds.
Compiled compile_with_nvrtc(const char* source) {
  nvrtcProgram program;
  EXPECT_EQ(nvrtcCreateProgram(&program, source, "runtime_kernels.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
  const char* options[] = {"--gpu-architecture=sm_90", "-lineinfo"};
  EXPECT_EQ(nvrtcCompileProgram(program, 2, options), NVRTC_SUCCESS);
  Compiled compiled;
  size_t size = 0;
  EXPECT_EQ(nvrtcGetCUBINSize(program, &size), NVRTC_SUCCESS);
  compiled.cubin.resize(size);
  EXPECT_EQ(nvrtcGetCUBIN(program, compiled.cubin.data()), NVRTC_SUCCESS);
  EXPECT_EQ(nvrtcGetPTXSize(program, &size), NVRTC_SUCCESS);
  compiled.ptx.resize(size);
  EXPECT_EQ(nvrtcGetPTX(program, compiled.ptx.data()), NVRTC_SUCCESS);
  compiled.ptx.resize(std::strlen(compiled.ptx.c_str()));
  nvrtcDestroyProgram(&program);
  return compiled;
}

std::filesystem::path empty_dir(const char* name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  return dir;
}

shim::RuntimeCompiledCubin announced(const Compiled& compiled) {
  return {compiled.cubin.data(), compiled.cubin.size(), compiled.ptx};
}

// The size the shim gives a cubin loaded with cuModuleLoadData: its ELF extent.
size_t loaded_size(const std::vector<char>& cubin) {
  return shim::image_size(cubin.data(), shim::ImageKind::Elf).value();
}

std::vector<std::string> ptx_of(const RuntimeCompiledPtx& known, const std::vector<char>& cubin) {
  const std::optional<RuntimeCompiledModule> module = known.find(cubin.data(), loaded_size(cubin));
  return module ? module->ptx : std::vector<std::string>{};
}

TEST(RuntimeCompiledPtx, FindsThePtxOfACopiedCubinByItsContent) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  ASSERT_FALSE(compiled.cubin.empty());
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_cubin_compiled(announced(compiled));
  const std::vector<char> copy = compiled.cubin;  // applications copy NVRTC's buffer before loading it
  EXPECT_EQ(ptx_of(known, copy), std::vector{compiled.ptx});

  std::vector<char> other = compiled.cubin;
  other[other.size() / 2] ^= 1;
  EXPECT_FALSE(known.find(other.data(), loaded_size(other)));
}

// A program's own cache of NVRTC cubins (CuPy's kernel cache) outlives the run that compiled them.
TEST(RuntimeCompiledPtx, LaterRunsFindThePtxOnDisk) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::filesystem::path dir = empty_dir("barracuda-nvrtc-ptx-test");
  RuntimeCompiledPtx{dir}.on_cubin_compiled(announced(compiled));
  const RuntimeCompiledPtx later_run{dir};
  EXPECT_EQ(ptx_of(later_run, compiled.cubin), std::vector{compiled.ptx});

  // A damaged entry is a miss, never PTX that does not belong to the cubin.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) std::ofstream(entry.path()) << "garbage";
  EXPECT_FALSE(RuntimeCompiledPtx{dir}.find(compiled.cubin.data(), loaded_size(compiled.cubin)));
  std::filesystem::remove_all(dir);
}

InstrumenterConfig config(const std::filesystem::path& cache, const RuntimeCompiledPtx* known) {
  InstrumenterConfig config{.device_arch = [] { return 90u; }, .cache = CubinCache(cache)};
  if (known != nullptr) {
    config.runtime_compiled = [known](const void* cubin, size_t size) { return known->find(cubin, size); };
  }
  return config;
}

shim::ModuleImage cubin_image(const std::vector<char>& cubin) {
  return {shim::ModuleId{1}, {shim::Hook::ModuleLoadData, false}, cubin.data(), shim::ImageKind::Elf,
          loaded_size(cubin)};
}

TEST(RuntimeCompiledPtx, TheInstrumenterChecksAnNvrtcCubinFromItsPtx) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::filesystem::path cache = empty_dir("barracuda-nvrtc-cubin-cache");
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_cubin_compiled(announced(compiled));
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config(cache, &known), sites, [] { return SharedQueues(); });
  const std::vector<char> copy = compiled.cubin;
  const void* replacement = instrumenter.transform(cubin_image(copy));
  ASSERT_NE(replacement, nullptr) << (instrumenter.skipped().empty() ? "" : instrumenter.skipped()[0].reason);
  EXPECT_EQ(std::memcmp(replacement, "\x7f" "ELF", 4), 0);
  const std::vector<std::string> kernels = instrumenter.instrumented_kernels();
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), "publish"), kernels.end());
  bool racing_line = false;
  for (uint32_t id = 1; id < sites.next_id(); ++id) {
    const std::optional<trace::SiteInfo> site = sites.find(id);
    ASSERT_TRUE(site);
    racing_line |= site->file.ends_with("runtime_kernels.cu") && site->line == 3;
  }
  EXPECT_TRUE(racing_line) << "no site names runtime_kernels.cu:3";
  std::filesystem::remove_all(cache);
}

// A module whose PTX holds NCCL's kernels is library code (runtime/library_code.h): left alone and
// listed, not skipped.
TEST(RuntimeCompiledPtx, NcclsKernelsAreLeftAloneAsLibraryCode) {
  const Compiled compiled = compile_with_nvrtc(
      "extern \"C\" __global__ void ncclDevKernel_AllReduce_Sum_f32_RING_LL(int* data) { data[0] = 1; }\n");
  const std::filesystem::path cache = empty_dir("barracuda-nvrtc-nccl-cache");
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_cubin_compiled(announced(compiled));
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config(cache, &known), sites, [] { return SharedQueues(); });
  EXPECT_EQ(instrumenter.transform(cubin_image(compiled.cubin)), nullptr);
  EXPECT_TRUE(instrumenter.skipped().empty());
  ASSERT_EQ(instrumenter.library_code().size(), 1u);
  EXPECT_NE(instrumenter.library_code().begin()->find("NCCL"), std::string::npos);
  EXPECT_TRUE(instrumenter.instrumented_kernels().empty());
  std::filesystem::remove_all(cache);
}

// GPUs of two architectures in one process: the instrumented module is a fat binary with a cubin for
// each (a library loaded once serves every context), compiled from the one instrumented PTX.
TEST(RuntimeCompiledPtx, AModuleIsCompiledForEveryArchitectureOfTheProcess) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::filesystem::path cache = empty_dir("barracuda-two-arch-cache");
  InstrumenterConfig two_archs = config(cache, nullptr);
  two_archs.other_device_archs = [] { return std::vector<unsigned>{100, 90}; };
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(std::move(two_archs), sites, [] { return SharedQueues(); });
  const shim::ModuleImage ptx_image{shim::ModuleId{1}, {shim::Hook::ModuleLoadData, false}, compiled.ptx.c_str(),
                                    shim::ImageKind::PtxText, compiled.ptx.size() + 1};
  const void* replacement = instrumenter.transform(ptx_image);
  ASSERT_NE(replacement, nullptr) << (instrumenter.skipped().empty() ? "" : instrumenter.skipped()[0].reason);
  const fatbin::Image image = fatbin::read_image(replacement);
  ASSERT_EQ(image.kind, fatbin::ImageKind::Container);
  ASSERT_EQ(image.containers.size(), 1u);
  std::vector<uint32_t> archs;
  for (const fatbin::Entry& entry : image.containers[0].entries) {
    EXPECT_EQ(entry.kind, fatbin::EntryKind::Cubin);
    EXPECT_EQ(std::memcmp(entry.payload.data(), "\x7f" "ELF", 4), 0);
    archs.push_back(entry.arch.value);
  }
  EXPECT_EQ(archs, (std::vector<uint32_t>{90, 100})) << "the current GPU's first";
  std::filesystem::remove_all(cache);
}

TEST(RuntimeCompiledPtx, AnUnknownCubinIsNamedAsNotInstrumented) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::filesystem::path cache = empty_dir("barracuda-nvrtc-unknown-cache");
  RuntimeCompiledPtx nothing_known{std::filesystem::path()};
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config(cache, &nothing_known), sites, [] { return SharedQueues(); });
  EXPECT_EQ(instrumenter.transform(cubin_image(compiled.cubin)), nullptr);
  ASSERT_EQ(instrumenter.skipped().size(), 1u);
  EXPECT_NE(instrumenter.skipped()[0].reason.find("cubin only"), std::string::npos);
  // Heap memory, not a shared object's image: possibly NVRTC's output from an earlier run.
  EXPECT_EQ(instrumenter.skipped()[0].reason.find("shipped in"), std::string::npos);
  EXPECT_NE(instrumenter.skipped()[0].reason.find("CUPY_CACHE_DIR"), std::string::npos);
  std::filesystem::remove_all(cache);
}

// Whether the instrumenter, knowing what `known` knows, instruments `cubin` and finds its kernel.
bool instruments_publish(const RuntimeCompiledPtx& known, const std::vector<char>& cubin, const char* cache_name) {
  const std::filesystem::path cache = empty_dir(cache_name);
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config(cache, &known), sites, [] { return SharedQueues(); });
  const bool instrumented = instrumenter.transform(cubin_image(cubin)) != nullptr;
  if (!instrumented && !instrumenter.skipped().empty()) ADD_FAILURE() << instrumenter.skipped()[0].reason;
  const std::vector<std::string> kernels = instrumenter.instrumented_kernels();
  std::filesystem::remove_all(cache);
  return instrumented && std::find(kernels.begin(), kernels.end(), "publish") != kernels.end();
}

// A JIT link (cuLinkAddData with PTX, cuLinkComplete): the linked cubin is instrumented from its inputs.
shim::LinkId link_state(uintptr_t id) { return {shim::Linker::kDriver, reinterpret_cast<const void*>(id)}; }

shim::LinkInput ptx_input(shim::LinkId state, const std::string& ptx) {
  return {state, CU_JIT_INPUT_PTX, ptx.c_str(), ptx.size() + 1, "kernels.ptx", false, CUDA_SUCCESS};
}

std::vector<char> linked_cubin(const std::string& ptx) {
  return link_to_cubin(JitRequest{{{"kernels.ptx", ptx}}, "sm_90", {}}).cubin;
}

TEST(RuntimeCompiledPtx, ALinkedCubinIsKnownByItsPtxInputs) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::vector<char> cubin = linked_cubin(compiled.ptx);
  ASSERT_FALSE(cubin.empty());
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_link_input(ptx_input(link_state(1), compiled.ptx));
  known.on_link_complete({link_state(1), cubin.data(), cubin.size(), CUDA_SUCCESS});
  EXPECT_EQ(ptx_of(known, cubin), std::vector{compiled.ptx});

  EXPECT_TRUE(instruments_publish(known, cubin, "barracuda-link-cubin-cache"));
}

TEST(RuntimeCompiledPtx, ALinkWithAnInputWithoutPtxIsNamedWithItsReason) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::vector<char> cubin = linked_cubin(compiled.ptx);
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_link_input(ptx_input(link_state(2), compiled.ptx));
  known.on_link_input({link_state(2), CU_JIT_INPUT_CUBIN, compiled.cubin.data(), compiled.cubin.size(), "other.cubin",
                       false, CUDA_SUCCESS});
  known.on_link_complete({link_state(2), cubin.data(), cubin.size(), CUDA_SUCCESS});
  const std::filesystem::path cache = empty_dir("barracuda-link-skip-cache");
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config(cache, &known), sites, [] { return SharedQueues(); });
  EXPECT_EQ(instrumenter.transform(cubin_image(cubin)), nullptr);
  ASSERT_EQ(instrumenter.skipped().size(), 1u);
  EXPECT_NE(instrumenter.skipped()[0].reason.find("other.cubin"), std::string::npos) << instrumenter.skipped()[0].reason;
  std::filesystem::remove_all(cache);
}

// NVRTC's LTO-IR (-dlto) linked by the application's nvJitLink with -lto: turned into PTX by nvJitLink
// (-lto -ptx) when the cubin loads, then instrumented like any PTX.
TEST(RuntimeCompiledPtx, AnLtoLinkIsInstrumentedFromItsOptimisedPtx) {
  nvrtcProgram program;
  ASSERT_EQ(nvrtcCreateProgram(&program, kSource, "runtime_kernels.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
  const char* options[] = {"--gpu-architecture=compute_90", "-dlto"};
  ASSERT_EQ(nvrtcCompileProgram(program, 2, options), NVRTC_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(nvrtcGetLTOIRSize(program, &size), NVRTC_SUCCESS);
  std::string lto_ir(size, '\0');
  ASSERT_EQ(nvrtcGetLTOIR(program, lto_ir.data()), NVRTC_SUCCESS);
  nvrtcDestroyProgram(&program);

  nvJitLinkHandle link;
  const char* link_options[] = {"-arch=sm_90", "-lto"};
  ASSERT_EQ(nvJitLinkCreate(&link, 2, link_options), NVJITLINK_SUCCESS);
  ASSERT_EQ(nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, lto_ir.data(), lto_ir.size(), "kernels.ltoir"), NVJITLINK_SUCCESS);
  ASSERT_EQ(nvJitLinkComplete(link), NVJITLINK_SUCCESS);
  ASSERT_EQ(nvJitLinkGetLinkedCubinSize(link, &size), NVJITLINK_SUCCESS);
  std::vector<char> cubin(size);
  ASSERT_EQ(nvJitLinkGetLinkedCubin(link, cubin.data()), NVJITLINK_SUCCESS);
  nvJitLinkDestroy(&link);

  RuntimeCompiledPtx known{std::filesystem::path()};
  const shim::LinkId id{shim::Linker::kNvJitLink, &known};
  known.on_link_input({id, CU_JIT_INPUT_NVVM, lto_ir.data(), lto_ir.size(), "kernels.ltoir", false, CUDA_SUCCESS});
  known.on_link_complete({id, cubin.data(), cubin.size(), CUDA_SUCCESS});
  EXPECT_TRUE(instruments_publish(known, cubin, "barracuda-lto-cubin-cache"));
}

// A destroyed link's inputs do not leak into a later link that reuses the handle.
TEST(RuntimeCompiledPtx, ADestroyedLinkForgetsItsInputs) {
  const Compiled compiled = compile_with_nvrtc(kSource);
  const std::vector<char> cubin = linked_cubin(compiled.ptx);
  RuntimeCompiledPtx known{std::filesystem::path()};
  known.on_link_input({link_state(3), CU_JIT_INPUT_LIBRARY, "!<arch>", 8, "libx.a", false, CUDA_SUCCESS});
  known.on_link_destroy(link_state(3));
  known.on_link_input(ptx_input(link_state(3), compiled.ptx));
  known.on_link_complete({link_state(3), cubin.data(), cubin.size(), CUDA_SUCCESS});
  EXPECT_EQ(ptx_of(known, cubin), std::vector{compiled.ptx});
}

}  // namespace
}  // namespace barracuda::runtime
