// GPU test of the whole device path (label gpu; exits 77 where no GPU is present): nvcc-compiled
// kernels (instrumented_kernels.cu) are instrumented by instrument_module, merged with the device
// runtime (runtime_merge.h), linked, run, and their queues drained; the kernels' own results must be unchanged and the
// records must name the right sites, spaces, strides and masks.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "device/runtime_ptx.h"
#include "gpu_queue_harness.h"
#include "instrumented_kernels_ptx.h"
#include "ptx/parser.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_call.h"
#include "ptx/passes/runtime_merge.h"
#include "ptx/printer.h"

namespace barracuda {
namespace {

using testing::check;
using testing::check_cuda;
using testing::DecodedRecord;
using testing::DeviceArena;
using testing::WarpRecords;

struct InstrumentedModule {
  std::string ptx;
  ptx::passes::SiteTable sites;
};

InstrumentedModule instrument_kernels() {
  ptx::ParseResult parsed = ptx::parse(std::string(instrumented_kernels_ptx()));
  check(static_cast<bool>(parsed), "kernels parse: " + parsed.error.to_string());
  // Every access logged: shared_reverse's load after its barrier too (write_free_intervals.h).
  ptx::passes::InstrumentResult result = ptx::passes::instrument_module(*parsed.module, {.log_write_free_loads = true});
  // Merged, the way the shim compiles a module: one program for ptxas, fewer registers.
  static const ptx::ParseResult runtime = ptx::parse(std::string(device_runtime_ptx()));
  check(static_cast<bool>(runtime), "runtime parses: " + runtime.error.to_string());
  ptx::passes::merge_device_runtime(*parsed.module, *runtime.module);
  return {ptx::to_string(*parsed.module), std::move(result.sites)};
}

// The site of `kind` in `function` at CUDA source line `line`.
uint32_t site_at(const ptx::passes::SiteTable& sites, std::string_view function, ptx::passes::SiteKind kind,
                 uint32_t line, std::string_view instruction_prefix) {
  for (const ptx::passes::Site& site : sites.sites()) {
    if (site.function == function && site.kind == kind && site.source_line == line &&
        site.instruction.rfind(instruction_prefix, 0) == 0) {
      return site.id;
    }
  }
  throw std::runtime_error("no site " + std::string(instruction_prefix) + " at line " + std::to_string(line));
}

std::vector<int> run_kernel(cudaLibrary_t library, const char* name, uint32_t blocks, uint32_t threads,
                            WarpRecords& records) {
  cudaKernel_t kernel;
  check_cuda(cudaLibraryGetKernel(&kernel, library, name), name);
  cudaStream_t stream;
  check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "kernel stream");
  int* data = nullptr;
  size_t count = size_t{blocks} * threads;
  check_cuda(cudaMalloc(&data, count * sizeof(int)), "cudaMalloc");
  check_cuda(cudaMemset(data, 0, count * sizeof(int)), "cudaMemset");
  {
    DeviceArena arena(library, {4, 1, 256});
    // The kernel logs in launch slot 0 (the arena leaves it zeroed), as the host names it before a launch.
    void* slot_global = nullptr;
    size_t slot_bytes = 0;
    check_cuda(cudaLibraryGetGlobal(&slot_global, &slot_bytes, library, ptx::passes::launch_slot_global(name).c_str()),
               "find the kernel's launch-slot global");
    check_cuda(cudaMemset(slot_global, 0, slot_bytes), "name launch slot 0");
    void* args[] = {&data};
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(blocks), dim3(threads), args, 0, stream),
               name);
    records = arena.drain_launch(stream);
    check_cuda(cudaStreamSynchronize(stream), name);
  }
  std::vector<int> host(count);
  check_cuda(cudaMemcpy(host.data(), data, count * sizeof(int), cudaMemcpyDeviceToHost), "read results");
  cudaFree(data);
  cudaStreamDestroy(stream);
  return host;
}

void check_store_coalesced(cudaLibrary_t library, const ptx::passes::SiteTable& sites) {
  WarpRecords records;
  std::vector<int> data = run_kernel(library, "store_coalesced", 2, 64, records);
  for (size_t i = 0; i < data.size(); ++i) check(data[i] == static_cast<int>(i % 64), "store_coalesced result");
  uint32_t store = site_at(sites, "store_coalesced", ptx::passes::SiteKind::Access, 5, "st.global");
  check(records.size() == 4, "store_coalesced: 4 warps logged");
  for (const auto& [key, warp] : records) {
    check(warp.front().header.op == static_cast<uint8_t>(RecordOp::kWarpEntry), "entry first");
    check(warp.back().header.op == static_cast<uint8_t>(RecordOp::kWarpExit), "exit last");
    const DecodedRecord& record = testing::find_site(warp, store);
    check(record.header.op == static_cast<uint8_t>(RecordOp::kStore) && record.header.active_mask == ~0u &&
              RecordView(record.header).address_mode() == AddressMode::kAffine && record.header.stride == 4 &&
              RecordView(record.header).space() == MemorySpace::kGlobal,
          "store_coalesced: one affine global store of stride 4 per warp");
    check(record.addresses[1] - record.addresses[0] == 4, "lane addresses 4 bytes apart");
  }
  std::puts("store_coalesced: results unchanged, records as expected");
}

void check_shared_reverse(cudaLibrary_t library, const ptx::passes::SiteTable& sites) {
  WarpRecords records;
  std::vector<int> out = run_kernel(library, "shared_reverse", 1, 64, records);
  for (int i = 0; i < 64; ++i) check(out[i] == 63 - i, "shared_reverse result");
  uint32_t shared_store = site_at(sites, "shared_reverse", ptx::passes::SiteKind::Access, 10, "st.shared");
  uint32_t barrier = site_at(sites, "shared_reverse", ptx::passes::SiteKind::Synchronization, 11, "bar");
  uint32_t shared_load = site_at(sites, "shared_reverse", ptx::passes::SiteKind::Access, 12, "ld.shared");
  for (const auto& [key, warp] : records) {
    const DecodedRecord& store = testing::find_site(warp, shared_store);
    check(RecordView(store.header).space() == MemorySpace::kShared && store.header.stride == 4, "shared store stride 4");
    const DecodedRecord& load = testing::find_site(warp, shared_load);
    check(RecordView(load.header).space() == MemorySpace::kShared && load.header.stride == -4, "reversed load stride -4");
    check(load.addresses[0] == store.addresses[0] + 252 - 256 * key.second, "load mirrors the store window");
    check(testing::find_site(warp, barrier).header.op == static_cast<uint8_t>(RecordOp::kBarrier), "barrier logged");
  }
  std::puts("shared_reverse: results unchanged, records as expected");
}

void check_divergent_store(cudaLibrary_t library, const ptx::passes::SiteTable& sites) {
  WarpRecords records;
  std::vector<int> data = run_kernel(library, "divergent_store", 1, 32, records);
  for (int i = 0; i < 32; ++i) check(data[i] == (i % 2 == 0 ? 1 : 0), "divergent_store result");
  uint32_t store = site_at(sites, "divergent_store", ptx::passes::SiteKind::Access, 16, "st.global");
  const DecodedRecord& record = testing::find_site(records.at({0, 0}), store);
  check(record.header.active_mask == 0x55555555u && record.header.stride == 4, "even lanes store, stride 4");
  std::puts("divergent_store: results unchanged, records as expected");
}

void run(cudaLibrary_t library, const ptx::passes::SiteTable& sites) {
  check_store_coalesced(library, sites);
  check_shared_reverse(library, sites);
  check_divergent_store(library, sites);
}

}  // namespace
}  // namespace barracuda

int main() {
  barracuda::InstrumentedModule module = barracuda::instrument_kernels();
  return barracuda::testing::run_gpu_test("instrumented_kernel_gpu_test", {{"instrumented_kernels", module.ptx}},
                                          barracuda::testing::RuntimeLinking::kMerged,
                                          [&](cudaLibrary_t library) { barracuda::run(library, module.sites); });
}
