// A device-linked (-rdc) module: cudart hands the driver a version-2 wrapper whose own container holds
// only the linked cubin, with each object's PTX in a prelinked container. The instrumenter must
// instrument every object's PTX and link them together (nvJitLink; no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fatbin/format.h"
#include "runtime/module_instrumenter.h"

namespace barracuda::runtime {
namespace {

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

TEST(RdcInstrument, EveryObjectOfADeviceLinkedModuleIsInstrumentedAndLinked) {
  const std::vector<char> linked = read_file(RDC_LINKED_FATBIN);  // cubin only, like the device-linked image
  const std::vector<char> claim = read_file(RDC_CLAIM_FATBIN);
  const std::vector<char> store = read_file(RDC_STORE_FATBIN);
  ASSERT_FALSE(linked.empty() || claim.empty() || store.empty());
  const uint64_t prelinked[] = {address_of(claim.data()), address_of(store.data()), 0};
  const fatbin::WrapperRecord wrapper{fatbin::kWrapperMagic, fatbin::kWrapperLinkedVersion, address_of(linked.data()),
                                      address_of(prelinked)};

  const std::filesystem::path cache = std::filesystem::path(testing::TempDir()) / "barracuda-rdc-test-cache";
  std::filesystem::remove_all(cache);
  SiteRegistry sites;
  InstrumenterConfig config{.device_arch = [] { return 90u; }, .cache = CubinCache(cache)};
  ModuleInstrumenter instrumenter(std::move(config), sites, [] { return CUdeviceptr{0}; });
  const shim::ModuleImage image{shim::ModuleId{1}, {shim::Hook::LibraryLoadData, false}, &wrapper,
                                shim::ImageKind::FatbinWrapper, std::nullopt};
  const void* cubin = instrumenter.transform(image);
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

}  // namespace
}  // namespace barracuda::runtime
