// GPU test of the device runtime (label gpu; exits 77 where no GPU is present): links the probe
// kernels' PTX with the embedded runtime PTX through nvJitLink (as the shim will), loads the cubin,
// points __barracuda_queues at a device arena, launches, drains the queues concurrently with the
// host protocol code (runtime/queue_drain.h) and checks every record against what the probe logged.
#include <algorithm>
#include <bit>
#include <chrono>
#include <map>
#include <vector>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

#include "gpu_queue_harness.h"
#include "runtime_probe_ptx.h"
#include "runtime_probe_sites.h"

namespace barracuda {
namespace {

using probe::ProbeSite;
using testing::check;
using testing::check_cuda;
using testing::DecodedRecord;
using testing::DeviceArena;
using testing::WarpRecords;

const DecodedRecord& find_site(const std::vector<DecodedRecord>& warp, ProbeSite site) {
  return testing::find_site(warp, static_cast<uint32_t>(site));
}

void check_access(const DecodedRecord& record, RecordOp op, MemorySpace space, AddressMode mode, uint32_t mask,
                  const char* what) {
  std::string name = what;
  check(record.header.op == static_cast<uint8_t>(op), name + ": op");
  check(RecordView(record.header).space() == space, name + ": memory space");
  check(RecordView(record.header).address_mode() == mode, name + ": address mode");
  check(record.header.active_mask == mask, name + ": active mask");
}

void check_patterns(const WarpRecords& records, uint64_t data) {
  check(records.size() == probe::kPatternThreads / 32, "one record stream per warp");
  std::map<uint32_t, std::vector<uint64_t>> tickets;  // bucket -> the tickets its records carry
  for (const auto& [key, warp] : records) {
    const uint32_t warp_index = key.second;
    check(warp.front().header.op == static_cast<uint8_t>(RecordOp::kWarpEntry), "first record is warp entry");
    check(warp.back().header.op == static_cast<uint8_t>(RecordOp::kWarpExit), "last record is warp exit");
    const uint64_t first_thread = 32 * warp_index;

    const auto& coalesced = find_site(warp, ProbeSite::kCoalesced);
    check_access(coalesced, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "coalesced");
    check(coalesced.header.stride == 8 && coalesced.header.base == data + 8 * first_thread, "coalesced base/stride");
    check(RecordView(coalesced.header).access_bytes() == 8 && coalesced.header.flags == 0, "coalesced size/flags");

    const auto& scattered = find_site(warp, ProbeSite::kScattered);
    check_access(scattered, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kDelta32, ~0u, "scattered");
    const auto& far = find_site(warp, ProbeSite::kFar);
    check_access(far, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kFull64, ~0u, "far");
    for (uint64_t lane = 0; lane < 32; ++lane) {
      check(scattered.addresses[lane] == data + 4 * lane * lane, "scattered lane address");
      check(far.addresses[lane] == data + (lane << 33) + lane * lane, "far lane address");
    }

    const auto& same = find_site(warp, ProbeSite::kDivergentSameValue);
    check_access(same, RecordOp::kStore, MemorySpace::kGlobal, AddressMode::kAffine, 0x11111111u, "divergent store");
    check(same.header.stride == 0 && same.addresses[4] == data, "divergent store address");
    check(same.header.flags == (kFlagIntraWarpConflict | kFlagSameValue), "divergent store flags");
    const auto& different = find_site(warp, ProbeSite::kConflictDifferentValues);
    check(different.header.flags == kFlagIntraWarpConflict, "different-value store flags");

    const auto& shared = find_site(warp, ProbeSite::kGenericShared);
    check_access(shared, RecordOp::kStore, MemorySpace::kShared, AddressMode::kAffine, ~0u, "generic shared");
    check(shared.header.stride == 4 && shared.header.base < 48 * 1024, "shared window offset");
    const auto& global = find_site(warp, ProbeSite::kGenericGlobal);
    check_access(global, RecordOp::kAtomic, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "generic global");
    check(global.header.base == data + 8 * first_thread, "generic global address unchanged");

    check(find_site(warp, ProbeSite::kBarrier).header.op == static_cast<uint8_t>(RecordOp::kBarrier), "barrier");
    const RecordView fence(find_site(warp, ProbeSite::kFence).header);
    check(fence.op() == RecordOp::kFence && fence.scope() == MemoryScope::kGpu &&
              fence.semantics() == MemorySemantics::kAcqRel,
          "fence");
    // Tickets count per location bucket (barracuda/sync_bucket.h). A fence's is its thread's last read's.
    const auto& fence_record = find_site(warp, ProbeSite::kFence);
    check(fence_record.sync_ticket && fence_record.sync_bucket == sync_bucket(data) &&
              fence_record.header.active_mask == ~0u,
          "the fence carries a ticket of its last read's bucket");
    tickets[fence_record.sync_bucket].push_back(fence_record.sync_ticket.value_or(0));
    // The legacy atomic's lanes reach several buckets: one record, a ticket per lane, one per bucket.
    const auto& atomic = find_site(warp, ProbeSite::kLegacyAtomic);
    check_access(atomic, RecordOp::kAtomic, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "legacy atomic");
    check(!atomic.sync_ticket && atomic.lane_tickets.size() == kWarpSize, "legacy atomic carries a ticket per lane");
    std::map<uint32_t, uint64_t> bucket_ticket;
    for (uint32_t lane = 0; lane < kWarpSize && atomic.lane_tickets.size() == kWarpSize; ++lane) {
      const uint64_t word = atomic.lane_tickets[lane];
      check(lane_ticket_bucket(word) == sync_bucket(atomic.addresses[lane]), "a lane's ticket is of its address's bucket");
      const auto [it, first] = bucket_ticket.emplace(lane_ticket_bucket(word), lane_ticket_number(word));
      check(it->second == lane_ticket_number(word), "the lanes of one bucket share its ticket");
    }
    check(bucket_ticket.size() > 1, "the legacy atomic's lanes reach several buckets");
    for (const auto& [bucket, number] : bucket_ticket) tickets[bucket].push_back(number);
    const auto& unticketed = find_site(warp, ProbeSite::kLegacyAtomicNoTicket);
    check_access(unticketed, RecordOp::kAtomic, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "marked atomic");
    check(!unticketed.sync_ticket, "kAccessNoSyncTicket: the legacy atomic carries no ticket");
    const auto& spin = find_site(warp, ProbeSite::kSpinRead);
    check_access(spin, RecordOp::kLoad, MemorySpace::kGlobal, AddressMode::kAffine, ~0u, "spin read");
    check((spin.header.flags & kFlagSpinRead) != 0 && !spin.sync_ticket, "kAccessSpinRead: the record has kFlagSpinRead");
    check((coalesced.header.flags & kFlagSpinRead) == 0, "an unmarked load has no kFlagSpinRead");
    check(!coalesced.sync_ticket && !shared.sync_ticket && !global.sync_ticket, "plain accesses carry no ticket");
    const auto& branch = find_site(warp, ProbeSite::kBranch).header;
    check(branch.op == static_cast<uint8_t>(RecordOp::kBranchIf) && branch.active_mask == (1u << probe::kBranchTakenLanes) - 1 &&
              branch.base == ~0u,
          "branch masks");
    check(find_site(warp, ProbeSite::kReconverge).header.active_mask == ~0u, "reconvergence mask");
  }
  for (auto& [bucket, numbers] : tickets) {
    std::sort(numbers.begin(), numbers.end());
    for (size_t i = 0; i < numbers.size(); ++i) {
      check(numbers[i] == i, "the sync tickets of bucket " + std::to_string(bucket) + " are unique and dense from 0");
    }
  }
}

void check_flood(const WarpRecords& records, uint32_t blocks, uint32_t warps_per_block, uint32_t per_warp) {
  check(records.size() == blocks * warps_per_block, "every flood warp logged");
  for (const auto& [key, warp] : records) {
    check(warp.size() == per_warp + 2, "flood warp record count");
    for (uint32_t sequence = 0; sequence < per_warp; ++sequence) {
      const DecodedRecord& record = warp[1 + sequence];
      check(record.addresses[0] == probe::flood_tag(key.first, key.second, sequence), "flood record in order, intact");
      check(RecordView(record.header).address_mode() == static_cast<AddressMode>(sequence % 3),
            "flood encoding rotates");
    }
  }
}

void run(cudaLibrary_t library) {
  cudaStream_t stream;
  check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "kernel stream");
  uint64_t* data = nullptr;
  check_cuda(cudaMalloc(&data, probe::kPatternThreads * sizeof(uint64_t)), "cudaMalloc data");

  cudaKernel_t patterns, flood;
  check_cuda(cudaLibraryGetKernel(&patterns, library, "probe_patterns"), "find probe_patterns");
  check_cuda(cudaLibraryGetKernel(&flood, library, "probe_flood"), "find probe_flood");
  {
    DeviceArena arena(library, {4, 1, 1024});
    void* args[] = {&data};
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(patterns), dim3(1), dim3(probe::kPatternThreads), args, 0,
                                stream),
               "launch probe_patterns");
    check_patterns(arena.drain_launch(stream), reinterpret_cast<uint64_t>(data));
    check_cuda(cudaStreamSynchronize(stream), "probe_patterns");
    std::puts("probe_patterns: every record as expected");
  }
  {
    // 64-slot rings shared by hundreds of warps: constant wrap-around and back-pressure.
    constexpr uint32_t kBlocks = 264, kThreads = 256, kPerWarp = 200;
    DeviceArena arena(library, {8, 1, 64});
    uint32_t per_warp = kPerWarp;
    void* args[] = {&per_warp};
    auto start = std::chrono::steady_clock::now();
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(flood), dim3(kBlocks), dim3(kThreads), args, 0, stream),
               "launch probe_flood");
    check_flood(arena.drain_launch(stream), kBlocks, kThreads / 32, kPerWarp);
    check_cuda(cudaStreamSynchronize(stream), "probe_flood");
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("probe_flood: %u warps x %u records through 8 x 64-slot queues, all in order (%.3f s)\n",
                kBlocks * kThreads / 32, kPerWarp, seconds);
  }
  cudaFree(data);
  cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace barracuda

int main() {
  return barracuda::testing::run_gpu_test("device_runtime_gpu_test", {{"runtime_probe", barracuda::runtime_probe_ptx()}},
                                          barracuda::testing::RuntimeLinking::kSeparateModule, barracuda::run);
}
