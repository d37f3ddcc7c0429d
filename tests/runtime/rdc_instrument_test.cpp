// A device-linked (-rdc) module: cudart hands the driver a version-2 wrapper whose own container holds
// only the linked cubin, with each object's PTX in a prelinked container. The instrumenter must
// instrument every object's PTX and link them together (nvJitLink; no GPU needed).
#include <gtest/gtest.h>

#include <elf.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fatbin/format.h"
#include "barracuda/queue.h"
#include "runtime/module_instrumenter.h"

namespace barracuda::runtime {
namespace {

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

// The test objects as cudart hands them to the driver: a version-2 wrapper whose own container holds
// only the linked cubin, with each object's PTX in a prelinked container.
class DeviceLinkedModule {
 public:
  DeviceLinkedModule()
      : linked_(read_file(RDC_LINKED_FATBIN)), claim_(read_file(RDC_CLAIM_FATBIN)), store_(read_file(RDC_STORE_FATBIN)) {}
  DeviceLinkedModule(const DeviceLinkedModule&) = delete;
  DeviceLinkedModule& operator=(const DeviceLinkedModule&) = delete;

  bool read() const { return !linked_.empty() && !claim_.empty() && !store_.empty(); }
  shim::ModuleImage image() const {
    return shim::ModuleImage{shim::ModuleId{1}, {shim::Hook::LibraryLoadData, false}, &wrapper_,
                             shim::ImageKind::FatbinWrapper, std::nullopt};
  }

 private:
  std::vector<char> linked_, claim_, store_;
  const uint64_t prelinked_[3] = {address_of(claim_.data()), address_of(store_.data()), 0};
  const fatbin::WrapperRecord wrapper_{fatbin::kWrapperMagic, fatbin::kWrapperLinkedVersion, address_of(linked_.data()),
                                       address_of(prelinked_)};
};

InstrumenterConfig config_with_cache(const std::filesystem::path& cache) {
  return InstrumenterConfig{.device_arch = [] { return 90u; }, .cache = CubinCache(cache)};
}

std::filesystem::path empty_cache(const char* name) {
  const std::filesystem::path cache = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(cache);
  return cache;
}

TEST(RdcInstrument, EveryObjectOfADeviceLinkedModuleIsInstrumentedAndLinked) {
  const DeviceLinkedModule module;
  ASSERT_TRUE(module.read());
  const std::filesystem::path cache = empty_cache("barracuda-rdc-test-cache");
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(config_with_cache(cache), sites, [] { return SharedQueues(); });
  const void* cubin = instrumenter.transform(module.image());
  ASSERT_NE(cubin, nullptr) << (instrumenter.skipped().empty() ? "" : instrumenter.skipped()[0].reason);
  EXPECT_EQ(std::memcmp(cubin, "\x7f" "ELF", 4), 0);

  const std::vector<std::string> kernels = instrumenter.instrumented_kernels();
  EXPECT_NE(std::find(kernels.begin(), kernels.end(), "_Z5claimPi"), kernels.end());
  bool store_site = false;
  for (uint32_t id = 1; id < sites.next_id(); ++id) {
    const std::optional<trace::SiteInfo> site = sites.find(id);
    ASSERT_TRUE(site) << id;
    store_site |= site->file.ends_with("rdc/store.cu") && site->line == 3;
  }
  EXPECT_TRUE(store_site) << "the store in the second object has no site";
  std::filesystem::remove_all(cache);
}

// Perturbed (option perturb), every object defines the weak seed global the host sets after the load:
// the link keeps one, and the linked cubin has it.
TEST(RdcInstrument, PerturbedObjectsLinkWithOneSeedGlobal) {
  const DeviceLinkedModule module;
  ASSERT_TRUE(module.read());
  const std::filesystem::path cache = empty_cache("barracuda-rdc-perturb-cache");
  InstrumenterConfig config = config_with_cache(cache);
  config.passes.perturb_seed = 5;
  SiteRegistry sites;
  ModuleInstrumenter instrumenter(std::move(config), sites, [] { return SharedQueues(); });
  const auto* cubin = static_cast<const char*>(instrumenter.transform(module.image()));
  ASSERT_NE(cubin, nullptr) << (instrumenter.skipped().empty() ? "" : instrumenter.skipped()[0].reason);
  Elf64_Ehdr header;
  std::memcpy(&header, cubin, sizeof header);
  // The section headers come last in the cubins nvJitLink writes: the image ends with them.
  const std::string_view elf(cubin, header.e_shoff + size_t{header.e_shnum} * header.e_shentsize);
  EXPECT_NE(elf.find(BARRACUDA_PERTURB_SEED_SYMBOL), std::string_view::npos);
  std::filesystem::remove_all(cache);
}

// The statistics' JIT figures: a fresh cache compiles the module, a second run finds it there.
TEST(RdcInstrument, TotalsTellCompiledModulesFromCachedOnes) {
  using std::chrono::nanoseconds;
  const DeviceLinkedModule module;
  ASSERT_TRUE(module.read());
  const std::filesystem::path cache = empty_cache("barracuda-totals-test-cache");
  for (const bool first_run : {true, false}) {
    SiteRegistry sites;
    ModuleInstrumenter instrumenter(config_with_cache(cache), sites, [] { return SharedQueues(); });
    ASSERT_NE(instrumenter.transform(module.image()), nullptr);
    const InstrumentationTotals totals = instrumenter.totals();
    EXPECT_EQ(totals.compiled, first_run ? 1u : 0u);
    EXPECT_EQ(totals.compile_time > nanoseconds{0}, first_run);
    EXPECT_EQ(totals.cached, first_run ? 0u : 1u);
    EXPECT_EQ(totals.cache_load_time > nanoseconds{0}, !first_run);
  }
  std::filesystem::remove_all(cache);
}

// A module that launches kernels from the device (dynamic parallelism, nvcc 13 -rdc), instrumented
// from its PTX text as module 1, with an empty cache of the test's own.
class DeviceLaunchModule : public testing::Test {
 protected:
  DeviceLaunchModule() { ptx_.push_back('\0'); }
  ~DeviceLaunchModule() override { std::filesystem::remove_all(cache_); }

  const void* instrument() {
    return instrumenter_.transform({shim::ModuleId{1}, {shim::Hook::ModuleLoadData, false}, ptx_.data(),
                                    shim::ImageKind::PtxText, ptx_.size()});
  }

  std::vector<char> ptx_ = read_file(DEVICE_LAUNCH_PTX);
  const std::filesystem::path cache_ =
      empty_cache(("barracuda-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())).c_str());
  SiteRegistry sites_;
  ModuleInstrumenter instrumenter_{config_with_cache(cache_), sites_, [] { return SharedQueues(); }};
};

// It is linked with libcudadevrt, and its child grids are checked too (the kernel's copy for its
// launches from the device is not a kernel of its own): nothing is left unchecked, and its launches
// are told to expect child grids.
TEST_F(DeviceLaunchModule, LinksTheDeviceRuntimeAndChecksTheChildGrids) {
  ASSERT_NE(instrument(), nullptr);
  std::vector<std::string> kernels = instrumenter_.instrumented_kernels();
  std::sort(kernels.begin(), kernels.end());
  EXPECT_EQ(kernels, (std::vector<std::string>{"_Z5childPii", "_Z6parentPii"}));
  EXPECT_TRUE(instrumenter_.skipped().empty());
  EXPECT_TRUE(instrumenter_.launches_from_device(shim::ModuleId{1}));
  EXPECT_FALSE(instrumenter_.launches_from_device(shim::ModuleId{2}));
}

// The launch path asks, per module and kernel, whether the device can check the kernel's global
// memory (ptx/passes/global_checkable_kernels.h): `child` only loads and stores global memory;
// `parent` calls the device runtime's launch functions, which the module cannot see into.
TEST_F(DeviceLaunchModule, TellsWhichKernelsGlobalMemoryTheDeviceCanCheck) {
  ASSERT_NE(instrument(), nullptr);
  EXPECT_TRUE(instrumenter_.global_checkable(shim::ModuleId{1}, "_Z5childPii"));
  EXPECT_FALSE(instrumenter_.global_checkable(shim::ModuleId{1}, "_Z6parentPii"));
  EXPECT_FALSE(instrumenter_.global_checkable(shim::ModuleId{2}, "_Z5childPii")) << "no such module";
}

}  // namespace
}  // namespace barracuda::runtime
