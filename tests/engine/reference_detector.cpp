#include "reference_detector.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace barracuda::engine::test {
namespace {

bool reaches(MemoryScope scope, MemoryScope level) { return static_cast<int>(scope) >= static_cast<int>(level); }

}  // namespace

ReferenceDetector::ReferenceDetector(const LaunchInfo& launch)
    : launch_(launch), per_block_(launch.padded_threads_per_block()) {
  const uint32_t total = launch.block_count() * per_block_;
  threads_.resize(total);
  for (uint32_t t = 0; t < total; ++t) {
    threads_[t].strict.assign(total, 0);
    threads_[t].wide.assign(total, 0);
    threads_[t].assumed.assign(total, 0);
    threads_[t].strict[t] = threads_[t].wide[t] = threads_[t].assumed[t] = 1;
  }
  blocks_.resize(launch.block_count());
  for (Block& b : blocks_) {
    b.warps.resize(launch.warps_per_block());
    for (uint32_t w = 0; w < b.warps.size(); ++w) {
      const uint32_t first = w * 32, real = static_cast<uint32_t>(launch.block.volume());
      const uint32_t n = first >= real ? 0 : std::min(32u, real - first);
      b.warps[w].live = b.warps[w].path = n == 32 ? ~0u : (1u << n) - 1;
    }
  }
}

void ReferenceDetector::join_into(Clocks& into, const Clocks& from) {
  if (from.empty()) return;
  for (size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

void ReferenceDetector::sync_threads(const std::vector<uint32_t>& members) {
  if (members.empty()) return;
  Clocks strict(threads_.size(), 0), wide(threads_.size(), 0), assumed(threads_.size(), 0);
  for (uint32_t t : members) {
    join_into(strict, threads_[t].strict);
    join_into(wide, threads_[t].wide);
    join_into(assumed, threads_[t].assumed);
  }
  for (uint32_t t : members) {
    threads_[t].strict = strict;
    threads_[t].wide = wide;
    threads_[t].assumed = assumed;
    ++threads_[t].strict[t];
    ++threads_[t].wide[t];
    ++threads_[t].assumed[t];
  }
}

void ReferenceDetector::complete_barrier(uint32_t b) {
  Block& block = blocks_[b];
  std::vector<uint32_t> all;
  for (uint32_t local = 0; local < per_block_; ++local) all.push_back(global_thread(b, local));
  sync_threads(all);
  block.barrier_sites.push_back(block.pending_site);
  executed_.insert(block.pending_site);
  if (std::exchange(block.acquired_beyond_block, false)) useful_.insert(block.pending_site);
  block.pending = false;
  for (Warp& w : block.warps) w.arrived = 0;
}

void ReferenceDetector::settle(uint32_t b, uint32_t warp, uint32_t lanes) {
  Block& block = blocks_[b];
  if (block.pending && (block.warps[warp].arrived & lanes)) {
    divergent_.insert(block.pending_site);
    complete_barrier(b);
  }
}

void ReferenceDetector::release(uint32_t t, uint64_t address, MemoryScope scope) {
  const uint32_t b = block_of(t);
  Thread& thread = threads_[t];
  auto join_sync = [](Clocks& location, const Clocks& clocks) {
    if (location.empty()) location.assign(clocks.size(), 0);
    join_into(location, clocks);
  };
  join_sync(blocks_[b].cta_sync[address], thread.strict);
  join_sync(blocks_[b].cta_assumed[address], thread.assumed);
  // Grid-wide synchronisation: the block's latest barrier orders its accesses before a release that
  // reaches other blocks, and its next barrier hands on an acquire from them (barriers useful).
  if (reaches(scope, MemoryScope::kCluster) && !blocks_[b].barrier_sites.empty()) {
    useful_.insert(blocks_[b].barrier_sites.back());
  }
  if (reaches(scope, MemoryScope::kCluster)) {
    join_sync(cluster_sync_[{launch_.cluster_of(BlockId{b}), address}], thread.strict);
    join_sync(cluster_assumed_[{launch_.cluster_of(BlockId{b}), address}], thread.assumed);
  }
  if (reaches(scope, MemoryScope::kGpu)) {
    join_sync(gpu_sync_[address], thread.strict);
    join_sync(gpu_assumed_[address], thread.assumed);
  }
  join_sync(wide_sync_[address], thread.wide);
  ++thread.strict[t];
  ++thread.wide[t];
  ++thread.assumed[t];
}

void ReferenceDetector::acquire(uint32_t t, uint64_t address, MemoryScope scope) {
  const uint32_t b = block_of(t);
  Thread& thread = threads_[t];
  auto find = [](const auto& map, const auto& key) -> const Clocks* {
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
  };
  if (auto* c = find(blocks_[b].cta_sync, address)) join_into(thread.strict, *c);
  if (reaches(scope, MemoryScope::kCluster)) blocks_[b].acquired_beyond_block = true;
  if (reaches(scope, MemoryScope::kCluster)) {
    if (auto* c = find(cluster_sync_, std::pair{launch_.cluster_of(BlockId{b}), address})) join_into(thread.strict, *c);
  }
  if (reaches(scope, MemoryScope::kGpu)) {
    if (auto* c = find(gpu_sync_, address)) join_into(thread.strict, *c);
  }
  if (auto* c = find(wide_sync_, address)) join_into(thread.wide, *c);
  acquire_assumed(t, address, scope);
}

void ReferenceDetector::acquire_assumed(uint32_t t, uint64_t address, MemoryScope scope) {
  const uint32_t b = block_of(t);
  Thread& thread = threads_[t];
  auto find = [](const auto& map, const auto& key) -> const Clocks* {
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
  };
  if (auto* c = find(blocks_[b].cta_assumed, address)) join_into(thread.assumed, *c);
  if (reaches(scope, MemoryScope::kCluster)) {
    if (auto* c = find(cluster_assumed_, std::pair{launch_.cluster_of(BlockId{b}), address})) join_into(thread.assumed, *c);
  }
  if (reaches(scope, MemoryScope::kGpu)) {
    if (auto* c = find(gpu_assumed_, address)) join_into(thread.assumed, *c);
  }
}

bool ReferenceDetector::covers(MemoryScope scope, uint32_t a, uint32_t b) const {
  if (scope == MemoryScope::kCta) return block_of(a) == block_of(b);
  if (scope == MemoryScope::kCluster) {
    return launch_.cluster_of(BlockId{block_of(a)}) == launch_.cluster_of(BlockId{block_of(b)});
  }
  return true;
}

bool ReferenceDetector::check(const Access& earlier, const Access& current, const RecordHeader& h) {
  if (earlier.thread == current.thread || !(earlier.write || current.write)) return false;
  const bool same_record = earlier.record == current.record;
  if ((h.flags & kFlagSameValue) && earlier.write && current.write && same_record) return false;
  // Atomics of gpu or system scope never race: a barrier between two of them orders nothing needed.
  if (earlier.atomic && current.atomic && earlier.scope >= MemoryScope::kGpu && current.scope >= MemoryScope::kGpu) return false;
  const Thread& me = threads_[current.thread];
  const uint32_t b = block_of(current.thread);
  if (block_of(earlier.thread) == b && earlier.generation < blocks_[b].barrier_sites.size()) {
    useful_.insert(blocks_[b].barrier_sites[earlier.generation]);
    return false;
  }
  if (earlier.clock <= me.strict[earlier.thread]) return false;
  bool scoped;
  bool unfenced = false;
  const bool volatile_pair =
      (earlier.volatile_store && current.volatile_load) || (earlier.volatile_load && current.volatile_store);
  if (volatile_pair && (earlier.spin_read || current.spin_read)) return false;
  if (earlier.strong && current.strong && !volatile_pair) {
    if (covers(earlier.scope, earlier.thread, current.thread) && covers(current.scope, current.thread, earlier.thread)) return false;
    scoped = true;
  } else {
    scoped = earlier.clock <= me.wide[earlier.thread];
    unfenced = earlier.clock <= me.assumed[earlier.thread];
  }
  RaceClass race_class;
  if (scoped) {
    race_class = RaceClass::kScoped;
  } else if (block_of(earlier.thread) != b) {
    race_class = RaceClass::kInterBlock;
  } else if ((earlier.thread % per_block_) / 32 != (current.thread % per_block_) / 32) {
    race_class = RaceClass::kInterWarp;
  } else if (launch_.warp_model == WarpModel::kIndependent || same_record) {
    race_class = RaceClass::kIntraWarp;
  } else {
    race_class = RaceClass::kBranchOrdering;
  }
  Hazard hazard;
  if (earlier.atomic != current.atomic) {
    hazard = Hazard::kAtomicPlain;
  } else if (earlier.write && current.write) {
    hazard = Hazard::kWriteAfterWrite;
  } else {
    hazard = earlier.write ? Hazard::kReadAfterWrite : Hazard::kWriteAfterRead;
  }
  auto [it, inserted] = races_.try_emplace({std::min(earlier.site, current.site), std::max(earlier.site, current.site),
                                            race_class, hazard}, unfenced);
  if (!inserted) it->second = it->second && unfenced;
  return true;
}

std::set<RaceKey> ReferenceDetector::races() const {
  std::set<RaceKey> out;
  for (const auto& [key, unfenced] : races_) {
    const auto& [a, b, c, h] = key;
    out.insert({a, b, c, h, unfenced});
  }
  return out;
}

void ReferenceDetector::access(const RecordHeader& h, uint32_t lane, uint64_t address) {
  const auto op = static_cast<RecordOp>(h.op);
  const MemorySemantics sem = RecordView(h).semantics();
  const uint32_t b = h.block_id;
  const uint32_t t = global_thread(b, h.warp_id * 32u + lane);
  Thread& thread = threads_[t];
  Access cur{};
  cur.thread = t;
  cur.clock = thread.strict[t];
  cur.site = h.site_id;
  cur.record = record_;
  cur.generation = static_cast<uint32_t>(blocks_[b].barrier_sites.size());
  cur.read = op == RecordOp::kLoad || op == RecordOp::kAtomic;
  cur.write = op != RecordOp::kLoad;
  cur.atomic = op == RecordOp::kAtomic || op == RecordOp::kReduction;
  const bool completes_fence = cur.write && thread.pending_release.has_value();
  // volatile: reads strong; writes strong only when they complete a fence's release pattern; a volatile
  // store and a volatile load are strong together exactly when the load spins (check()).
  const bool volatile_sem = sem == MemorySemantics::kVolatile;
  cur.strong = cur.atomic || (op != RecordOp::kAsyncCopy && sem != MemorySemantics::kWeak &&
                              (!volatile_sem || !cur.write || completes_fence));
  cur.scope = volatile_sem ? MemoryScope::kSystem : RecordView(h).scope();
  cur.volatile_store = volatile_sem && op == RecordOp::kStore;
  cur.volatile_load = volatile_sem && op == RecordOp::kLoad;
  cur.spin_read = cur.volatile_load && (h.flags & kFlagSpinRead);
  const bool releasing = sem == MemorySemantics::kRelease || sem == MemorySemantics::kAcqRel || sem == MemorySemantics::kSeqCst;
  const bool acquiring = sem == MemorySemantics::kAcquire || sem == MemorySemantics::kAcqRel || sem == MemorySemantics::kSeqCst;
  const bool legacy_rmw = cur.read && cur.write && sem == MemorySemantics::kLegacy;
  if (cur.write) {
    if (releasing) {
      release(t, address, cur.scope);
      thread.pending_release.reset();
    } else if (thread.pending_release) {
      release(t, address, cur.strong ? std::min(cur.scope, *thread.pending_release) : *thread.pending_release);
      thread.pending_release.reset();
    }
  }
  auto& memory = RecordView(h).space() == MemorySpace::kShared ? blocks_[b].shared : global_;
  // Distributed shared memory has its own shadow in the engine, one per cluster (every cluster sees
  // its ranks' shared memory at the same generic addresses); keep it apart here too.
  const uint64_t key_offset = RecordView(h).space() == MemorySpace::kCluster
                                  ? (uint64_t{1} << 63) | uint64_t{launch_.cluster_of(BlockId{b})} << 47
                                  : 0;
  for (uint64_t byte = address; byte < address + RecordView(h).access_bytes(); ++byte) {
    ByteHistory& history = memory[byte ^ key_offset];
    const bool raced_write = history.write && check(*history.write, cur, h);
    if (history.other_atomic && !cur.strong) check(*history.other_atomic, cur, h);
    if (cur.write) {
      // As the engine (shadow_cell.cpp): a strong write keeps up to 256 reads, marking those it raced
      // with, which later strong writes pass by, and it keeps the plain write it replaced among them
      // (in shared memory only its own thread's), unless that write's thread read since.
      const bool same_site = history.write && history.write->strong && history.write->site == cur.site;
      std::optional<Access> kept_write;
      const bool shared = RecordView(h).space() == MemorySpace::kShared;
      if (cur.strong && history.write && !history.write->strong && (!shared || history.write->thread == cur.thread)) {
        kept_write = *history.write;
        kept_write->raced_strong_write = raced_write;
      }
      if (cur.strong && history.reads.size() <= 256) {
        for (auto& [reader, read] : history.reads) {
          if (!(read.raced_strong_write && same_site)) read.raced_strong_write = check(read, cur, h);
        }
      } else {
        for (const auto& [reader, read] : history.reads) check(read, cur, h);
        history.reads.clear();
      }
      if (kept_write) history.reads.try_emplace(kept_write->thread, *kept_write);
      if (!cur.atomic || !history.write || !history.write->atomic) {
        history.other_atomic.reset();
      } else if (history.write->thread != cur.thread) {
        history.other_atomic = history.write;
      }
      history.write = cur;
    } else {
      history.reads[t] = cur;
    }
  }
  if (cur.read) {
    thread.last_read = std::pair{address, cur.strong ? cur.scope : MemoryScope::kSystem};
    thread.last_read_fenced.reset();
    if (acquiring || (completes_fence && legacy_rmw)) {
      acquire(t, address, cur.scope);
    } else if (legacy_rmw) {
      acquire_assumed(t, address, cur.scope);  // a spin on a legacy atomic: control dependency only
    }
  }
}

void ReferenceDetector::apply(const RecordHeader& h) {
  ++record_;
  const auto op = static_cast<RecordOp>(h.op);
  const uint32_t b = h.block_id;
  Block& block = blocks_[b];
  Warp& warp = block.warps[h.warp_id];
  const bool lockstep = launch_.warp_model == WarpModel::kLockstep;
  auto lanes_of = [&](uint32_t mask) {
    std::vector<uint32_t> out;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      if (mask >> lane & 1u) out.push_back(global_thread(b, h.warp_id * 32u + lane));
    }
    return out;
  };
  if (op != RecordOp::kWarpEntry) settle(b, h.warp_id, h.active_mask);
  switch (op) {
    case RecordOp::kFence:
      for (uint32_t t : lanes_of(h.active_mask)) {
        Thread& thread = threads_[t];
        const MemorySemantics sem = RecordView(h).semantics();
        // Acquire pattern: the read, then a fence after it; a narrower fence leaves it to a wider one.
        const bool wider = !thread.last_read_fenced || RecordView(h).scope() > *thread.last_read_fenced;
        if (sem != MemorySemantics::kRelease && thread.last_read && wider) {
          acquire(t, thread.last_read->first, std::min(RecordView(h).scope(), thread.last_read->second));
          thread.last_read_fenced = RecordView(h).scope();
          if (RecordView(h).scope() >= thread.last_read->second) thread.last_read.reset();
        }
        // Release pattern: any fence before the write; the widest pending one counts.
        if (sem != MemorySemantics::kAcquire) {
          thread.pending_release = std::max(thread.pending_release.value_or(MemoryScope::kCta), RecordView(h).scope());
        }
      }
      break;
    case RecordOp::kBarrier:
      if (lockstep && h.active_mask != warp.live) divergent_.insert(h.site_id);
      warp.arrived |= h.active_mask & warp.live;
      if (!block.pending) block.pending_site = h.site_id;
      block.pending = true;
      if (std::all_of(block.warps.begin(), block.warps.end(), [](const Warp& w) { return w.exited || w.arrived == w.live; })) {
        complete_barrier(b);
      }
      return;
    case RecordOp::kWarpSync:
      sync_threads(lanes_of(static_cast<uint32_t>(h.base) & warp.live));
      return;
    case RecordOp::kBranchIf:
    case RecordOp::kBranchElse:
      warp.path = h.active_mask;
      return;
    case RecordOp::kBranchFi:
      warp.path = h.active_mask;
      if (lockstep) sync_threads(lanes_of(h.active_mask & warp.live));
      return;
    case RecordOp::kWarpEntry:
      warp.live = warp.path = h.active_mask;
      return;
    case RecordOp::kWarpExit:
      if (block.pending && (h.active_mask & ~warp.arrived)) divergent_.insert(block.pending_site);
      warp.live &= ~h.active_mask;
      warp.arrived &= warp.live;
      warp.exited = warp.live == 0;
      if (block.pending && std::all_of(block.warps.begin(), block.warps.end(),
                                       [](const Warp& w) { return w.exited || w.arrived == w.live; })) {
        complete_barrier(b);
      }
      return;
    default:
      if (RecordView(h).space() != MemorySpace::kOther) {
        for (uint32_t lane = 0; lane < 32; ++lane) {
          if (h.active_mask >> lane & 1u) access(h, lane, h.base + static_cast<uint64_t>(int64_t{RecordView(h).affine_stride()} * lane));
        }
      }
      break;
  }
  if (lockstep) sync_threads(lanes_of((warp.path | h.active_mask) & warp.live));
}

void ReferenceDetector::finish() {
  for (uint32_t b = 0; b < blocks_.size(); ++b) {
    if (blocks_[b].pending) {
      divergent_.insert(blocks_[b].pending_site);
      complete_barrier(b);
    }
  }
}

std::set<uint32_t> ReferenceDetector::redundant_barriers() const {
  std::set<uint32_t> out;
  for (uint32_t site : executed_) {
    if (!useful_.contains(site)) out.insert(site);
  }
  return out;
}

}  // namespace barracuda::engine::test
