#include "shim/kernel_registry.h"

#include <gtest/gtest.h>

namespace barracuda::shim {
namespace {

const void* handle(std::uintptr_t value) { return reinterpret_cast<const void*>(value); }

TEST(KernelRegistry, AKernelNameKnownInOneModuleNamesThatModule) {
  KernelRegistry kernels;
  kernels.add_module(handle(0x100), ModuleId{3});
  kernels.add_kernel(handle(0x1), handle(0x100), "_Z4fillPii");
  kernels.add_kernel(handle(0x2), handle(0x100), "_Z3sumPKiPi");
  EXPECT_EQ(kernels.sole_module_of_kernel("_Z4fillPii"), ModuleId{3});
  EXPECT_EQ(kernels.sole_module_of_kernel("_Z5otherv"), ModuleId::Unknown) << "never seen";
}

TEST(KernelRegistry, AKernelNameInTwoModulesNamesNone) {
  KernelRegistry kernels;
  kernels.add_module(handle(0x100), ModuleId{3});
  kernels.add_module(handle(0x200), ModuleId{4});
  kernels.add_kernel(handle(0x1), handle(0x100), "_Z4fillPii");
  kernels.add_kernel(handle(0x2), handle(0x200), "_Z4fillPii");  // the same template in another library
  EXPECT_EQ(kernels.sole_module_of_kernel("_Z4fillPii"), ModuleId::Unknown);
}

TEST(KernelRegistry, HandlesOfUnknownModulesDoNotCount) {
  KernelRegistry kernels;
  kernels.add_module(handle(0x100), ModuleId{3});
  kernels.add_named(handle(0x1), ModuleId::Unknown, "_Z4fillPii");
  kernels.add_kernel(handle(0x2), handle(0x100), "_Z4fillPii");
  EXPECT_EQ(kernels.sole_module_of_kernel("_Z4fillPii"), ModuleId{3});
}

}  // namespace
}  // namespace barracuda::shim
