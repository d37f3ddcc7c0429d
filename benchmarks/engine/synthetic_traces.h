#pragma once
// Synthetic record streams shaped like common GPU kernels, for the engine benchmarks. Each trace
// is split into per-worker queues the way the GPU side pins blocks to queues (block % queues).
#include <cstdint>
#include <vector>

#include "barracuda/record.h"
#include "engine/launch.h"

namespace barracuda::engine::bench {

struct SyntheticTrace {
  LaunchInfo launch;
  std::vector<std::vector<RecordHeader>> queues;
  uint64_t thread_accesses = 0;
};

// Every thread reads a[i] and writes b[i] for its own i, `rounds` times over fresh elements.
SyntheticTrace coalesced(uint32_t blocks, uint32_t queues, uint32_t rounds);
// The same, but every round revisits the same elements: shadow memory is already allocated, so this
// measures the checking itself.
SyntheticTrace coalesced_reuse(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Uncoalesced: lane i touches row i of a column of a 32x32 word tile (128-byte stride).
SyntheticTrace strided(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Every thread loads a pseudo-random word of a 64 MiB array (a gather: 64-bit lane addresses),
// then stores its own element.
SyntheticTrace scattered(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Every thread reads one global location, then bumps one counter atomically.
SyntheticTrace one_location(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Every thread reads one counter, then bumps it with atomicAdd: the reads an atomic keeps (up to 256).
SyntheticTrace counter_read_and_bumped(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Shared-memory stencil: write own element, barrier, read the neighbour's, barrier.
SyntheticTrace broadcast_read(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Decoupled look-back (cub_scan): warp 0 of each block reads the state words of the 32 tiles before
// its own, then writes its tile's value; every warp also streams its own elements. Race-free.
SyntheticTrace look_back(uint32_t blocks, uint32_t queues, uint32_t rounds);
// The same look-back while predecessors are not ready yet: the blocks in flight spin, re-reading the
// state words `rounds` times, their reads of one word interleaving (cub_scan under the tool).
SyntheticTrace spinning_look_back(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Every warp adds into the same 32 words with atomics (a grid-wide reduction: kmeans's sums,
// histogram bins).
SyntheticTrace atomic_reduction(uint32_t blocks, uint32_t queues, uint32_t rounds);
SyntheticTrace barrier_heavy(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Barriers and exits only: what the host receives from a launch whose shared and global accesses the
// device checks (docs/device_global_check.md).
SyntheticTrace barriers_only(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Lane 0 of each warp takes a global spin lock (atomicCAS + fence), updates a counter, releases
// it (fence + atomicExch).
SyntheticTrace lock_heavy(uint32_t blocks, uint32_t queues, uint32_t rounds);
// hash_table's insert: lane 0 of each warp locks one of 4096 buckets (atomicCAS, fence), updates it
// and unlocks it (fence, atomicExch), with the sync tickets the device gives the fences and the
// unlock, in the order the blocks would take them running side by side: every ticket's turn passes
// to another worker. Race-free.
SyntheticTrace ticketed_lock(uint32_t blocks, uint32_t queues, uint32_t rounds);
// Every lane takes its own lock, with per-lane tickets of location buckets (hash_table's insert).
SyntheticTrace lane_locks(uint32_t blocks, uint32_t queues, uint32_t rounds);
// A persistent cooperative kernel's sweeps (tests/apps/cooperative_solver.cu): every warp writes its
// slice, the grid syncs (a block barrier; thread 0's atom.add.release on the grid's counter, then
// `rounds` ld.acquire reads of it, each with its sync ticket, the blocks spinning side by side; a block
// barrier), and every warp reads the next block's slice. Race-free. rounds 1 is what
// filter_repeated_reads leaves of a spin whose counter no longer changes.
SyntheticTrace grid_sync(uint32_t blocks, uint32_t queues, uint32_t rounds);

}  // namespace barracuda::engine::bench
