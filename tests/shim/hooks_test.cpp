// Module loads, kernel attribution, re-entrancy and dlsym routing, against fake driver functions.
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "recording_observer.h"
#include "shim/dlsym_route.h"
#include "shim/driver_entry.h"
#include "shim/reentrancy_guard.h"

namespace barracuda::shim {
namespace {

constexpr const char* kPtx = "//\n.version 9.0\n.target sm_90\n.address_size 64\n";
constexpr const char* kReplacementPtx = ".version 9.0\n.target sm_90\n.address_size 64\n// replaced\n";

std::vector<const void*> driver_loaded_images;
PFN_cuModuleLoadData_v2000 wrapped_module_load = nullptr;
bool reenter_on_next_load = false;

// Like nvJitLink or the driver itself, this "driver" calls back into the hooked entry point once.
CUresult fake_module_load(CUmodule* module, const void* image) {
  driver_loaded_images.push_back(image);
  if (reenter_on_next_load) {
    reenter_on_next_load = false;
    CUmodule inner;
    EXPECT_EQ(wrapped_module_load(&inner, kPtx), CUDA_SUCCESS);
  }
  *module = reinterpret_cast<CUmodule>(0xA000 + driver_loaded_images.size());
  return CUDA_SUCCESS;
}

CUresult fake_library_load(CUlibrary* library, const void* code, CUjit_option*, void**, unsigned int,
                           CUlibraryOption*, void**, unsigned int) {
  driver_loaded_images.push_back(code);
  *library = reinterpret_cast<CUlibrary>(0xB000);
  return CUDA_SUCCESS;
}

CUresult fake_module_get_function(CUfunction* function, CUmodule, const char*) {
  *function = reinterpret_cast<CUfunction>(0xC001);
  return CUDA_SUCCESS;
}
CUresult fake_library_get_kernel(CUkernel* kernel, CUlibrary, const char*) {
  *kernel = reinterpret_cast<CUkernel>(0xC002);
  return CUDA_SUCCESS;
}
CUresult fake_kernel_get_function(CUfunction* function, CUkernel) {
  *function = reinterpret_cast<CUfunction>(0xC003);
  return CUDA_SUCCESS;
}
CUresult fake_launch_ex(const CUlaunchConfig*, CUfunction, void**, void**) { return CUDA_SUCCESS; }
CUresult fake_graph_launch(CUgraphExec, CUstream) { return CUDA_ERROR_INVALID_VALUE; }
CUresult fake_link_add_data(CUlinkState, CUjitInputType, void*, size_t, const char*, unsigned int, CUjit_option*,
                            void**) {
  return CUDA_ERROR_INVALID_PTX;
}

class ReplacingTransformer final : public ModuleTransformer {
 public:
  const void* transform(const ModuleImage& image) override {
    seen.push_back(image);
    return replacement;
  }
  void loaded(const ModuleImage& image, const LoadedHandle& handle) override {
    loaded_ids.push_back(image.id);
    loaded_modules.push_back(handle.module);
  }
  const void* replacement = nullptr;
  std::vector<ModuleImage> seen;
  std::vector<ModuleId> loaded_ids;
  std::vector<CUmodule> loaded_modules;
};

template <typename Function>
Function wrap(Hook hook, Function fake) {
  return reinterpret_cast<Function>(wrapper_for({hook, false}, reinterpret_cast<void*>(fake)));
}

class HooksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    driver_loaded_images.clear();
    wrapped_module_load = wrap(Hook::ModuleLoadData, &fake_module_load);
    install_module_transformer(transformer);
  }

  testing::RecordingObserver& observer = testing::RecordingObserver::fresh();
  ReplacingTransformer transformer;
};

TEST_F(HooksTest, TheDriverLoadsTheTransformersReplacement) {
  transformer.replacement = kReplacementPtx;
  CUmodule module;
  ASSERT_EQ(wrapped_module_load(&module, kPtx), CUDA_SUCCESS);
  ASSERT_EQ(driver_loaded_images.size(), 1u);
  EXPECT_EQ(driver_loaded_images[0], kReplacementPtx);

  ASSERT_EQ(transformer.seen.size(), 1u);
  const ModuleImage& image = transformer.seen[0];
  EXPECT_EQ(image.data, kPtx);
  EXPECT_EQ(image.kind, ImageKind::PtxText);
  EXPECT_EQ(image.size, std::strlen(kPtx) + 1);
  EXPECT_EQ(image.entry, (HookedSymbol{Hook::ModuleLoadData, false}));

  // The transformer gets the handle of the module it replaced, to set up its globals.
  EXPECT_EQ(transformer.loaded_ids, (std::vector<ModuleId>{image.id}));
  EXPECT_EQ(transformer.loaded_modules, (std::vector<CUmodule>{module}));

  ASSERT_EQ(observer.loads.size(), 1u);
  EXPECT_EQ(observer.loads[0].original.id, image.id);
  EXPECT_EQ(observer.loads[0].loaded, kReplacementPtx);
  EXPECT_EQ(observer.loads[0].result, CUDA_SUCCESS);
}

TEST_F(HooksTest, WithoutReplacementTheOriginalIsLoadedAndIdsIncrease) {
  CUmodule module;
  ASSERT_EQ(wrapped_module_load(&module, kPtx), CUDA_SUCCESS);
  ASSERT_EQ(wrapped_module_load(&module, kPtx), CUDA_SUCCESS);
  EXPECT_EQ(driver_loaded_images, (std::vector<const void*>{kPtx, kPtx}));
  EXPECT_TRUE(transformer.loaded_ids.empty()) << "nothing replaced, nothing to set up";
  ASSERT_EQ(observer.loads.size(), 2u);
  EXPECT_EQ(observer.loads[0].loaded, kPtx);
  EXPECT_EQ(static_cast<unsigned>(observer.loads[1].original.id), static_cast<unsigned>(observer.loads[0].original.id) + 1);
}

TEST_F(HooksTest, ReentrantLoadsFromTheDriverGoStraightThrough) {
  transformer.replacement = kReplacementPtx;
  reenter_on_next_load = true;
  CUmodule module;
  ASSERT_EQ(wrapped_module_load(&module, kPtx), CUDA_SUCCESS);
  // Outer load replaced, nested load forwarded as is, and only the outer one observed.
  EXPECT_EQ(driver_loaded_images, (std::vector<const void*>{kReplacementPtx, kPtx}));
  EXPECT_EQ(transformer.seen.size(), 1u);
  EXPECT_EQ(observer.loads.size(), 1u);
}

TEST_F(HooksTest, LaunchesAreNamedAndAttributedThroughTheLibraryKernelAndFunctionHandles) {
  auto library_load = wrap(Hook::LibraryLoadData, &fake_library_load);
  auto get_kernel = wrap(Hook::LibraryGetKernel, &fake_library_get_kernel);
  auto kernel_function = wrap(Hook::KernelGetFunction, &fake_kernel_get_function);
  auto launch_ex = wrap(Hook::LaunchKernelEx, &fake_launch_ex);

  CUlibrary library;
  ASSERT_EQ(library_load(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0), CUDA_SUCCESS);
  CUkernel kernel;
  ASSERT_EQ(get_kernel(&kernel, library, "_Z6kernelPi"), CUDA_SUCCESS);
  CUfunction function;
  ASSERT_EQ(kernel_function(&function, kernel), CUDA_SUCCESS);

  CUlaunchConfig config{};
  config.gridDimX = 5;
  config.gridDimY = 6;
  config.gridDimZ = 7;
  config.blockDimX = 32;
  config.blockDimY = 2;
  config.blockDimZ = 1;
  config.sharedMemBytes = 512;
  ASSERT_EQ(launch_ex(&config, function, nullptr, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(launch_ex(&config, reinterpret_cast<CUfunction>(kernel), nullptr, nullptr), CUDA_SUCCESS);

  ASSERT_EQ(observer.loads.size(), 1u);
  ASSERT_EQ(observer.launches.size(), 2u);
  for (const testing::RecordedLaunch& launch : observer.launches) {
    EXPECT_EQ(launch.kernel_name, "_Z6kernelPi");
    EXPECT_EQ(launch.module, observer.loads[0].original.id);
    EXPECT_EQ(launch.entry, (HookedSymbol{Hook::LaunchKernelEx, false}));
    EXPECT_EQ(launch.grid.z, 7u);
    EXPECT_EQ(launch.block.y, 2u);
    EXPECT_EQ(launch.shared_mem_bytes, 512u);
  }
}

TEST_F(HooksTest, ModuleFunctionsAreNamedByTheirLookup) {
  auto get_function = wrap(Hook::ModuleGetFunction, &fake_module_get_function);
  auto launch_ex = wrap(Hook::LaunchKernelEx, &fake_launch_ex);
  CUmodule module;
  ASSERT_EQ(wrapped_module_load(&module, kPtx), CUDA_SUCCESS);
  CUfunction function;
  ASSERT_EQ(get_function(&function, module, "marker"), CUDA_SUCCESS);
  CUlaunchConfig config{};
  ASSERT_EQ(launch_ex(&config, function, nullptr, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(observer.launches.size(), 1u);
  EXPECT_EQ(observer.launches[0].kernel_name, "marker");
  EXPECT_EQ(observer.launches[0].module, observer.loads.back().original.id);
}

TEST_F(HooksTest, GraphLaunchesAreAnnouncedWithTheirStreamAndResult) {
  auto graph_launch = wrap(Hook::GraphLaunch, &fake_graph_launch);
  const auto stream = reinterpret_cast<CUstream>(0x5200);
  EXPECT_EQ(graph_launch(reinterpret_cast<CUgraphExec>(0x6000), stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(observer.launches_begun, 1);
  ASSERT_EQ(observer.launches.size(), 1u);
  EXPECT_EQ(observer.launches[0].entry, (HookedSymbol{Hook::GraphLaunch, false}));
  EXPECT_EQ(observer.launches[0].stream, stream);
  EXPECT_EQ(observer.launches[0].module, ModuleId::Unknown);
  EXPECT_EQ(observer.launches[0].result, CUDA_ERROR_INVALID_VALUE);
}

TEST_F(HooksTest, LinkInputsAreRecordedAndPassedThrough) {
  auto link_add_data = wrap(Hook::LinkAddData, &fake_link_add_data);
  char ptx[] = ".version 9.0";
  auto state = reinterpret_cast<CUlinkState>(0xD000);
  EXPECT_EQ(link_add_data(state, CU_JIT_INPUT_PTX, ptx, sizeof ptx, "a.ptx", 0, nullptr, nullptr),
            CUDA_ERROR_INVALID_PTX);
  {
    ReentrancyGuard inside_hook;
    link_add_data(state, CU_JIT_INPUT_PTX, ptx, sizeof ptx, "nested.ptx", 0, nullptr, nullptr);
  }
  ASSERT_EQ(observer.links.size(), 1u);
  EXPECT_EQ(observer.links[0].type, CU_JIT_INPUT_PTX);
  EXPECT_EQ(observer.links[0].data, ptx);
  EXPECT_EQ(observer.links[0].size, sizeof ptx);
  EXPECT_STREQ(observer.links[0].name, "a.ptx");
  EXPECT_EQ(observer.links[0].result, CUDA_ERROR_INVALID_PTX);
  EXPECT_TRUE(transformer.seen.empty()) << "link inputs are recorded, not transformed";
}

TEST(DlsymRoute, WrapsLibcudaSymbolsTheShimHooks) {
  void* libcuda = dlopen(FAKE_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(libcuda, nullptr) << dlerror();
  void* real = dlsym(libcuda, "cuModuleLoadData");
  ASSERT_NE(real, nullptr);
  void* routed = route_dlsym(libcuda, "cuModuleLoadData");
  EXPECT_NE(routed, nullptr);
  EXPECT_NE(routed, real);
  EXPECT_EQ(route_dlsym(libcuda, "cuModuleLoadData"), routed);
  EXPECT_NE(route_dlsym(libcuda, "cuGetProcAddress_v2"), nullptr);
}

TEST(DlsymRoute, LeavesEverythingElseToTheRealDlsym) {
  void* libcuda = dlopen(FAKE_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(libcuda, nullptr) << dlerror();
  EXPECT_EQ(route_dlsym(libcuda, "cuCtxSetCurrent"), nullptr);       // not hooked
  EXPECT_EQ(route_dlsym(libcuda, "cuLaunchKernelEx_ptsz"), nullptr);  // hooked, but the fake lacks it
  EXPECT_EQ(route_dlsym(RTLD_NEXT, "cuModuleLoadData"), nullptr);     // relative to the caller
  EXPECT_EQ(route_dlsym(libcuda, nullptr), nullptr);
}

TEST(DlsymRoute, LookupsFromInsideAHookAreNotWrapped) {
  void* libcuda = dlopen(FAKE_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(libcuda, nullptr) << dlerror();
  ReentrancyGuard inside_hook;
  EXPECT_FALSE(inside_hook.nested());
  EXPECT_EQ(route_dlsym(libcuda, "cuModuleLoadData"), nullptr);
  ReentrancyGuard nested;
  EXPECT_TRUE(nested.nested());
}

}  // namespace
}  // namespace barracuda::shim
