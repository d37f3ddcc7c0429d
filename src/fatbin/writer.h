#pragma once
// Building replacement fat binaries: a container holding instrumented PTX and/or cubins, and the
// wrapper record that cuLibraryLoadData / __cudaRegisterFatBinary take.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "fatbin/entry.h"
#include "fatbin/format.h"

namespace barracuda::fatbin {

// One container with `entries`, laid out as nvcc 13 does. Per entry, the writer uses kind, arch,
// version, flags (its compression bit replaced), compression, name, ptxas_options and payload (PTX
// text without a NUL: the writer appends it; LTO-IR as stored, with its `opaque` fields). PTX entries always get a ptxas-options block, empty if
// need be, because the driver crashes on a PTX header without one; copy the original entry's options.
std::vector<std::byte> write_container(std::span<const Entry> entries);

// An entry carrying `ptx` in place of `original`'s PTX, with everything else (arch, ISA version, flags,
// compression, name, ptxas options) copied from it.
Entry replacement_ptx(const Entry& original, std::string_view ptx);

// A version-1 wrapper around a container it owns. Pins itself: the record points into its own storage,
// and the driver keeps using both after loading (CU_LIBRARY_BINARY_IS_PRESERVED).
class WrappedFatbin {
 public:
  explicit WrappedFatbin(std::vector<std::byte> container);
  WrappedFatbin(const WrappedFatbin&) = delete;
  WrappedFatbin& operator=(const WrappedFatbin&) = delete;

  // The __fatBinC_Wrapper_t to hand to the driver.
  const void* wrapper() const { return &record_; }
  std::span<const std::byte> container() const { return container_; }

 private:
  std::vector<std::byte> container_;  // operator new aligns it beyond the 8 bytes the driver needs
  WrapperRecord record_;
};

}  // namespace barracuda::fatbin
