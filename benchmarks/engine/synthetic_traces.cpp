#include "synthetic_traces.h"
#include "barracuda/sync_bucket.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace barracuda::engine::bench {
namespace {

constexpr uint32_t kWarpsPerBlock = 8;  // 256 threads per block
constexpr uint64_t kArrayA = 0x7f00'0000'0000ull;
constexpr uint64_t kArrayB = 0x7f10'0000'0000ull;
constexpr uint64_t kLock = 0x7f20'0000'0000ull;
constexpr uint64_t kScatteredWords = uint64_t{16} << 20;  // a 64 MiB array

class TraceBuilder {
 public:
  TraceBuilder(uint32_t blocks, uint32_t queues) {
    trace_.launch.launch_id = 1;
    trace_.launch.kernel = "synthetic";
    trace_.launch.grid = {blocks, 1, 1};
    trace_.launch.block = {kWarpsPerBlock * kWarpSize, 1, 1};
    trace_.queues.resize(queues);
  }

  void memory(uint32_t block, uint32_t warp, RecordOp op, uint32_t mask, uint64_t base, int32_t stride,
              MemorySpace space = MemorySpace::kGlobal, MemorySemantics sem = MemorySemantics::kWeak) {
    RecordHeader& h = add(block, warp, op, mask);
    h.space_sem = pack_space_sem(space, sem, MemoryScope::kGpu);
    h.size_mode = pack_size_mode(2, AddressMode::kAffine);
    h.base = base;
    h.stride = stride;
    trace_.thread_accesses += static_cast<uint64_t>(std::popcount(mask));
  }
  // A gather: lane i accesses addresses[i] (absolute 64-bit addresses in the record's payload).
  void gather(uint32_t block, uint32_t warp, RecordOp op, const std::array<uint64_t, kWarpSize>& addresses,
              MemorySemantics sem = MemorySemantics::kWeak) {
    RecordHeader& h = add(block, warp, op, ~0u);
    h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, MemoryScope::kGpu);
    h.size_mode = pack_size_mode(2, AddressMode::kFull64);
    auto& queue = trace_.queues[block % trace_.queues.size()];
    std::array<RecordHeader, record_slots(AddressMode::kFull64) - 1> payload;
    static_assert(sizeof(payload) == sizeof(addresses));
    std::memcpy(payload.data(), addresses.data(), sizeof(addresses));
    queue.insert(queue.end(), payload.begin(), payload.end());
    trace_.thread_accesses += kWarpSize;
  }
  // The sync ticket (RecordOp::kSyncTicket) of the record added next for this warp, as the device writes it.
  void ticket(uint32_t block, uint32_t warp, uint32_t mask) { add(block, warp, RecordOp::kSyncTicket, mask).base = next_ticket_++; }
  // The same for lanes of different location buckets (`addresses`: each lane's location): a ticket per
  // lane from its bucket's counter, lanes of one bucket sharing it, in a kFull64 payload.
  void lane_tickets(uint32_t block, uint32_t warp, const std::array<uint64_t, kWarpSize>& addresses) {
    RecordHeader& h = add(block, warp, RecordOp::kSyncTicket, ~0u);
    h.size_mode = pack_size_mode(3, AddressMode::kFull64);
    std::array<uint64_t, kWarpSize> words{};
    std::array<uint64_t, kWarpSize> taken{};  // this warp's ticket per bucket, by the bucket's first lane
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      const uint32_t bucket = sync_bucket(addresses[lane]);
      uint32_t first = lane;
      for (uint32_t other = 0; other < lane; ++other) {
        if (sync_bucket(addresses[other]) == bucket) {
          first = other;
          break;
        }
      }
      if (first == lane) taken[lane] = bucket_tickets_[bucket]++;
      words[lane] = lane_ticket_word(bucket, taken[first]);
    }
    auto& queue = trace_.queues[block % trace_.queues.size()];
    std::array<RecordHeader, record_slots(AddressMode::kFull64) - 1> payload;
    static_assert(sizeof(payload) == sizeof(words));
    std::memcpy(payload.data(), words.data(), sizeof(words));
    queue.insert(queue.end(), payload.begin(), payload.end());
  }
  void fence(uint32_t block, uint32_t warp, uint32_t mask) {
    add(block, warp, RecordOp::kFence, mask).space_sem =
        pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kLegacy, MemoryScope::kGpu);
  }
  void barrier_all_warps(uint32_t block) {
    for (uint32_t w = 0; w < kWarpsPerBlock; ++w) add(block, w, RecordOp::kBarrier, ~0u);
  }
  void exit_all_warps(uint32_t block) {
    for (uint32_t w = 0; w < kWarpsPerBlock; ++w) add(block, w, RecordOp::kWarpExit, 0);
  }
  SyntheticTrace take() { return std::move(trace_); }

 private:
  RecordHeader& add(uint32_t block, uint32_t warp, RecordOp op, uint32_t mask) {
    RecordHeader h{};
    h.op = static_cast<uint8_t>(op);
    h.active_mask = mask;
    h.site_id = static_cast<uint32_t>(op) * 16 + 1;
    h.block_id = block;
    h.warp_id = static_cast<uint16_t>(warp);
    h.launch_id = 1;
    auto& queue = trace_.queues[block % trace_.queues.size()];
    queue.push_back(h);
    return queue.back();
  }

  SyntheticTrace trace_;
  uint64_t next_ticket_ = 0;
  std::vector<uint64_t> bucket_tickets_ = std::vector<uint64_t>(kSyncBuckets);
};

uint64_t thread_index(uint32_t blocks, uint32_t round, uint32_t block, uint32_t warp) {
  return (uint64_t{round} * blocks + block) * kWarpsPerBlock * kWarpSize + warp * kWarpSize;
}

// Runs `step(builder, block, round, warp)` for every warp of every block, `rounds` times per
// block, then lets the block's warps exit.
template <typename WarpStep>
SyntheticTrace every_warp(uint32_t blocks, uint32_t queues, uint32_t rounds, WarpStep step) {
  TraceBuilder t(blocks, queues);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) step(t, b, r, w);
    }
    t.exit_all_warps(b);
  }
  return t.take();
}

SyntheticTrace streaming(uint32_t blocks, uint32_t queues, uint32_t rounds, bool reuse) {
  return every_warp(blocks, queues, rounds, [&](TraceBuilder& t, uint32_t b, uint32_t r, uint32_t w) {
    const uint64_t i = thread_index(blocks, reuse ? 0 : r, b, w);
    t.memory(b, w, RecordOp::kLoad, ~0u, kArrayA + i * 4, 4);
    t.memory(b, w, RecordOp::kStore, ~0u, kArrayB + i * 4, 4);
  });
}

}  // namespace

SyntheticTrace coalesced(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return streaming(blocks, queues, rounds, false);
}

SyntheticTrace coalesced_reuse(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return streaming(blocks, queues, rounds, true);
}

SyntheticTrace strided(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // Column walks over a 32x32 tile of words per block: warp w of round r takes column
  // (8r + w) % 32, so every word is touched once per 32 warp-rounds, none coalesced.
  return every_warp(blocks, queues, rounds, [](TraceBuilder& t, uint32_t b, uint32_t r, uint32_t w) {
    const uint64_t column = (r * kWarpsPerBlock + w) % kWarpSize * 4;
    const uint64_t tile = uint64_t{b} * kWarpSize * kWarpSize * 4;
    t.memory(b, w, RecordOp::kLoad, ~0u, kArrayA + tile + column, kWarpSize * 4);
    t.memory(b, w, RecordOp::kStore, ~0u, kArrayB + tile + column, kWarpSize * 4);
  });
}

SyntheticTrace scattered(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // xorshift: a fixed, cheap pseudo-random word index per lane.
  uint64_t state = 0x9E3779B97F4A7C15ull;
  return every_warp(blocks, queues, rounds, [&](TraceBuilder& t, uint32_t b, uint32_t r, uint32_t w) {
    std::array<uint64_t, kWarpSize> addresses;
    for (uint64_t& address : addresses) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      address = kArrayA + (state % kScatteredWords) * 4;
    }
    t.gather(b, w, RecordOp::kLoad, addresses);
    t.memory(b, w, RecordOp::kStore, ~0u, kArrayB + thread_index(blocks, r, b, w) * 4, 4);
  });
}

SyntheticTrace one_location(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return every_warp(blocks, queues, rounds, [](TraceBuilder& t, uint32_t b, uint32_t, uint32_t w) {
    t.memory(b, w, RecordOp::kLoad, ~0u, kArrayA, 0);
    t.memory(b, w, RecordOp::kAtomic, ~0u, kArrayB, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
  });
}

SyntheticTrace counter_read_and_bumped(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return every_warp(blocks, queues, rounds, [](TraceBuilder& t, uint32_t b, uint32_t, uint32_t w) {
    t.memory(b, w, RecordOp::kLoad, ~0u, kArrayB, 0);
    t.memory(b, w, RecordOp::kAtomic, ~0u, kArrayB, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
  });
}

SyntheticTrace atomic_reduction(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return every_warp(blocks, queues, rounds, [](TraceBuilder& t, uint32_t b, uint32_t, uint32_t w) {
    t.memory(b, w, RecordOp::kAtomic, ~0u, kArrayB, 4, MemorySpace::kGlobal, MemorySemantics::kLegacy);
  });
}

SyntheticTrace broadcast_read(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // Every thread reads one of 16 coefficients (backprop's adjust_weights reads deltas[i % 16]) and
  // writes its own element: a handful of words read by every thread of the grid.
  std::array<uint64_t, kWarpSize> addresses;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) addresses[lane] = kArrayA + (lane % 16) * 4;
  return every_warp(blocks, queues, rounds, [&](TraceBuilder& t, uint32_t b, uint32_t r, uint32_t w) {
    t.gather(b, w, RecordOp::kLoad, addresses);
    t.memory(b, w, RecordOp::kStore, ~0u, kArrayB + thread_index(blocks, r, b, w) * 4, 4);
  });
}

SyntheticTrace look_back(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // Tile t's state is the 8 bytes at kLock + 8t: its status word (read by its successors' look-back)
  // and its value word (written by its own block). Blocks of neighbouring ids run side by side, so
  // every worker checks words of the same few hundred bytes.
  return every_warp(blocks, queues, rounds, [&](TraceBuilder& t, uint32_t b, uint32_t r, uint32_t w) {
    const uint64_t tile = uint64_t{b} * rounds + r;
    if (w == 0) {
      std::array<uint64_t, kWarpSize> predecessors;
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) predecessors[lane] = kLock + (tile > lane ? tile - 1 - lane : 0) * 8;
      t.gather(b, w, RecordOp::kLoad, predecessors);
      t.memory(b, w, RecordOp::kStore, 1u, kLock + tile * 8 + 4, 0);
    }
    const uint64_t i = thread_index(blocks, r, b, w);
    t.memory(b, w, RecordOp::kLoad, ~0u, kArrayA + i * 4, 4);
    t.memory(b, w, RecordOp::kStore, ~0u, kArrayB + i * 4, 4);
  });
}

SyntheticTrace spinning_look_back(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // Windows of kWarpSize blocks in flight, each spinning `rounds` times on the state words of the tiles
  // before it: round by round, every block of the window reads once (their records interleave in the
  // queues, as blocks running side by side log them), then each block writes its own state.
  TraceBuilder t(blocks, queues);
  for (uint32_t first = 0; first < blocks; first += kWarpSize) {
    const uint32_t last = std::min(blocks, first + kWarpSize);
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t b = first; b < last; ++b) {
        std::array<uint64_t, kWarpSize> predecessors;
        for (uint32_t lane = 0; lane < kWarpSize; ++lane) predecessors[lane] = kLock + (b > lane ? b - 1 - lane : 0) * 8;
        t.gather(b, 0, RecordOp::kLoad, predecessors);
      }
    }
    for (uint32_t b = first; b < last; ++b) {
      t.memory(b, 0, RecordOp::kStore, 1u, kLock + uint64_t{b} * 8 + 4, 0);
      t.exit_all_warps(b);
    }
  }
  return t.take();
}

SyntheticTrace barrier_heavy(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  TraceBuilder t(blocks, queues);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) t.memory(b, w, RecordOp::kStore, ~0u, w * 128, 4, MemorySpace::kShared);
      t.barrier_all_warps(b);
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) {
        t.memory(b, w, RecordOp::kLoad, ~0u, ((w + 1) % kWarpsPerBlock) * 128, 4, MemorySpace::kShared);
      }
      t.barrier_all_warps(b);
    }
    t.exit_all_warps(b);
  }
  return t.take();
}

SyntheticTrace barriers_only(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  TraceBuilder t(blocks, queues);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t r = 0; r < rounds; ++r) t.barrier_all_warps(b);
    t.exit_all_warps(b);
  }
  return t.take();
}

SyntheticTrace lock_heavy(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  return every_warp(blocks, queues, rounds, [](TraceBuilder& t, uint32_t b, uint32_t, uint32_t w) {
    t.memory(b, w, RecordOp::kAtomic, 1u, kLock, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
    t.fence(b, w, 1u);
    t.memory(b, w, RecordOp::kLoad, 1u, kArrayA, 0);
    t.memory(b, w, RecordOp::kStore, 1u, kArrayA, 0);
    t.fence(b, w, 1u);
    t.memory(b, w, RecordOp::kAtomic, 1u, kLock, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
  });
}

SyntheticTrace ticketed_lock(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // Round-major, as the blocks run side by side on the GPU: consecutive tickets come from blocks of
  // different queues, so every turn of the ticket order passes from one worker to another.
  constexpr uint32_t kBuckets = 4096;
  TraceBuilder t(blocks, queues);
  for (uint32_t r = 0; r < rounds; ++r) {
    for (uint32_t b = 0; b < blocks; ++b) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) {
        const uint64_t bucket = (thread_index(blocks, r, b, w) / kWarpSize * 2654435761u) % kBuckets;
        t.memory(b, w, RecordOp::kAtomic, 1u, kLock + bucket * 4, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
        t.ticket(b, w, 1u);
        t.fence(b, w, 1u);
        t.memory(b, w, RecordOp::kLoad, 1u, kArrayA + bucket * 4, 0);
        t.memory(b, w, RecordOp::kStore, 1u, kArrayA + bucket * 4, 0);
        t.ticket(b, w, 1u);
        t.fence(b, w, 1u);
        t.ticket(b, w, 1u);
        t.memory(b, w, RecordOp::kAtomic, 1u, kLock + bucket * 4, 0, MemorySpace::kGlobal, MemorySemantics::kLegacy);
      }
    }
  }
  for (uint32_t b = 0; b < blocks; ++b) t.exit_all_warps(b);
  return t.take();
}

SyntheticTrace grid_sync(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  constexpr uint32_t kSweeps = 16;
  TraceBuilder t(blocks, queues);
  const auto slice = [](uint32_t b, uint32_t w) { return kArrayA + uint64_t{b * kWarpsPerBlock + w} * kWarpSize * 4; };
  const auto sync_grid = [&] {
    for (uint32_t b = 0; b < blocks; ++b) t.barrier_all_warps(b);
    for (uint32_t b = 0; b < blocks; ++b) {
      t.ticket(b, 0, 1u);
      t.memory(b, 0, RecordOp::kAtomic, 1u, kLock, 0, MemorySpace::kGlobal, MemorySemantics::kRelease);
    }
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t b = 0; b < blocks; ++b) {
        t.ticket(b, 0, 1u);
        t.memory(b, 0, RecordOp::kLoad, 1u, kLock, 0, MemorySpace::kGlobal, MemorySemantics::kAcquire);
      }
    }
    for (uint32_t b = 0; b < blocks; ++b) t.barrier_all_warps(b);
  };
  for (uint32_t sweep = 0; sweep < kSweeps; ++sweep) {
    for (uint32_t b = 0; b < blocks; ++b) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) t.memory(b, w, RecordOp::kStore, ~0u, slice(b, w), 4);
    }
    sync_grid();
    for (uint32_t b = 0; b < blocks; ++b) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) t.memory(b, w, RecordOp::kLoad, ~0u, slice((b + 1) % blocks, w), 4);
    }
    sync_grid();
  }
  for (uint32_t b = 0; b < blocks; ++b) t.exit_all_warps(b);
  return t.take();
}

SyntheticTrace lane_locks(uint32_t blocks, uint32_t queues, uint32_t rounds) {
  // hash_table's insert as the runtime logs it: every lane takes its own bucket's lock (atomicCAS,
  // __threadfence()), updates the bucket, and releases it (__threadfence(), atomicExch); each
  // synchronising record carries a ticket per lane from its lane's location bucket, the fences the
  // bucket of their lane's last read. Round-major, as the blocks run side by side on the GPU.
  constexpr uint32_t kLocks = 1u << 18;
  TraceBuilder t(blocks, queues);
  for (uint32_t r = 0; r < rounds; ++r) {
    for (uint32_t b = 0; b < blocks; ++b) {
      for (uint32_t w = 0; w < kWarpsPerBlock; ++w) {
        std::array<uint64_t, kWarpSize> locks, slots;
        for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
          const uint64_t lock = ((thread_index(blocks, r, b, w) + lane) * 2654435761u) % kLocks;
          locks[lane] = kLock + lock * 4;
          slots[lane] = kArrayA + lock * 4;
        }
        t.lane_tickets(b, w, locks);
        t.gather(b, w, RecordOp::kAtomic, locks, MemorySemantics::kLegacy);
        t.lane_tickets(b, w, locks);
        t.fence(b, w, ~0u);
        t.gather(b, w, RecordOp::kLoad, slots);
        t.gather(b, w, RecordOp::kStore, slots);
        t.lane_tickets(b, w, slots);
        t.fence(b, w, ~0u);
        t.lane_tickets(b, w, locks);
        t.gather(b, w, RecordOp::kAtomic, locks, MemorySemantics::kLegacy);
      }
    }
  }
  for (uint32_t b = 0; b < blocks; ++b) t.exit_all_warps(b);
  return t.take();
}

}  // namespace barracuda::engine::bench
