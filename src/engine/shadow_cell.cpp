#include "engine/shadow_cell.h"

#include <algorithm>

#include "barracuda/dcheck.h"

namespace barracuda::engine {
namespace {

Stamp inline_stamp(const ShadowCell& cell) {
  return {static_cast<ThreadId>(static_cast<uint32_t>(cell.payload)),
          static_cast<Clock>(static_cast<uint32_t>(cell.payload >> 32)), cell.site, cell.kind};
}

template <typename T>
T* owned(const ShadowCell& cell) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(cell.payload));
}

template <typename T>
void own(ShadowCell& cell, std::unique_ptr<T> object, CellState state) {
  cell.payload = reinterpret_cast<uintptr_t>(object.release());
  cell.state = state;
}

// Two atomics of gpu or system scope are morally strong whoever made them (a histogram's bins).
bool gpu_scope_atomics(const AccessKind& a, const AccessKind& b) {
  return a.atomic && b.atomic && a.memory_scope() >= MemoryScope::kGpu && b.memory_scope() >= MemoryScope::kGpu;
}

// Accesses of one thread are ordered by program order, and atomics of a scope that covers every
// thread never race: neither is a conflict worth asking about. True where the pair raced.
bool check(const Stamp& earlier, const Stamp& access, ConflictSink& sink, uint32_t byte) {
  if (earlier.thread == access.thread || !(earlier.kind.write || access.kind.write)) return false;
  if (!gpu_scope_atomics(earlier.kind, access.kind)) return sink.conflict(earlier, byte);
  if (earlier.kind.write && access.kind.read) sink.observe_atomic_write(earlier);
  return false;
}

// The atomic a plain access checks besides the last write (LocationHistory::other_atomic).
bool checks_other_atomic(const AccessKind& access) { return !access.strong; }

// LocationHistory::other_atomic once `write` follows `last`, whose other_atomic was `other`.
std::optional<Stamp> other_atomic_after(const std::optional<Stamp>& last, const std::optional<Stamp>& other,
                                        const Stamp& write) {
  if (!write.kind.atomic || !last || !last->kind.atomic) return std::nullopt;
  if (last->thread != write.thread) return last;
  return other;  // another thread than `last`'s, which is `write`'s
}

// Keeps the latest read of each thread, sorted by thread.
void compact(ReadList& reads) {
  const auto out_of_order = [](const Stamp& a, const Stamp& b) { return a.thread >= b.thread; };
  if (std::adjacent_find(reads.begin(), reads.end(), out_of_order) == reads.end()) return;  // the usual case
  std::stable_sort(reads.begin(), reads.end(), [](const Stamp& a, const Stamp& b) { return a.thread < b.thread; });
  // Of each thread's run, the last (latest) read survives.
  auto out = reads.begin();
  for (auto it = reads.begin(); it != reads.end(); ++it) {
    if (std::next(it) == reads.end() || std::next(it)->thread != it->thread) *out++ = *it;
  }
  reads.erase(out, reads.end());
}

// FastTrack clears a location's reads at a write: a later access unordered with one of them is then
// unordered with the write too, and races with it. Not at a strong write (atomic, relaxed, release): a
// later strong access need not race with it (two gpu-scope atomics never do), yet still races with the
// reads (a plain read; an atomic of a block-mate after a barrier, or of the reader itself; an atomic
// of another block). They stay; a read a strong write raced with is marked (its race is reported), and
// later strong writes of the same site pass it by (they would report the same pair), so a counter that
// every thread reads and bumps costs a bit test per kept read, not a race report
// (BM_CounterReadAndBumped); a strong write of another site checks them all again; a plain write checks
// every read and clears them. At most this many reads stay (latest per thread: every thread of a
// 256-thread block); past that they are cleared as before. The device's shared-memory rule does the
// same in its two reader slots (check_shared_access).
constexpr size_t kReadsKeptPastStrongWrites = 256;

// `read` checked against the strong write `access`, unless it raced with the previous strong write,
// made at the same site (`same_site`); marked where it races.
void check_kept_read(Stamp& read, const Stamp& access, bool same_site, ConflictSink& sink, uint32_t byte) {
  if (read.kind.raced_strong_write && same_site) return;
  read.kind.raced_strong_write = check(read, access, sink, byte);
}

bool keeps_reads(const Stamp& write) { return write.kind.strong; }

// Keeps the plain write a strong one replaced among the reads (sorted by thread, one per thread), where
// its thread has no read there: a later read of that thread stands for it (a strong write unordered
// with the plain one cannot be ordered after the read that followed it).
void keep_plain_write(LocationHistory& history, const Stamp& write) {
  auto at = std::lower_bound(history.reads.begin(), history.reads.end(), write.thread,
                             [](const Stamp& read, ThreadId thread) { return read.thread < thread; });
  if (at != history.reads.end() && at->thread == write.thread) return;
  const bool alone = history.reads.empty();
  history.reads.insert(at, write);
  history.reads_all_raced = (alone || history.reads_all_raced) && write.kind.raced_strong_write;
}

// A list this long is compacted rather than grown: a few threads re-reading a word (a spin loop)
// cannot grow it without bound.
constexpr size_t kReadsBeforeCompaction = 64;

void add_read(ReadList& reads, const Stamp& read) {
  if (!reads.empty() && reads.back().thread == read.thread) {
    reads.back() = read;
    return;
  }
  // Compacted when full, and given twice the room where compaction freed less than half of it, so
  // at least half a list's length of reads comes between two compactions: O(log n) a read. (At fixed
  // lengths instead, a word re-read by 1020 threads re-sorted its 1024 reads every 4 reads.)
  if (reads.size() >= kReadsBeforeCompaction && reads.size() == reads.capacity()) {
    compact(reads);
    if (reads.size() > reads.capacity() / 2) reads.reserve(2 * reads.capacity());
  }
  reads.push_back(read);
}

void read_history(LocationHistory& history, const Stamp& read, ConflictSink& sink, WorkerIndex worker, uint32_t byte) {
  if (history.write) check(*history.write, read, sink, byte);
  if (history.other_atomic && checks_other_atomic(read.kind)) check(*history.other_atomic, read, sink, byte);
  history.reads_all_raced = false;
  add_read(history.reads_of(worker), read);
}

std::unique_ptr<LocationHistory> copy_history(const ShadowCell& cell) {
  return std::make_unique<LocationHistory>(*owned<LocationHistory>(cell));
}

// The latest read of the highest thread id in `reads`, or `latest` if that is higher. A plain write
// kept there past a strong one (keep_plain_write) is older than the location's last write: not a read.
const Stamp* latest_of_highest(const ReadList& reads, const Stamp* latest) {
  for (const Stamp& read : reads) {
    if (read.kind.write) continue;
    if (latest == nullptr || read.thread >= latest->thread) latest = &read;
  }
  return latest;
}

}  // namespace

CellAccesses remembered_accesses(const ShadowCell& cell) {
  switch (cell.state) {
    case CellState::kEmpty:
      return {};
    case CellState::kWrite:
      return {inline_stamp(cell), std::nullopt};
    case CellState::kRead:
      return {std::nullopt, inline_stamp(cell)};
    case CellState::kHistory: {
      // Lists in the order gather_reads() takes them, so of equal threads the later list's read wins.
      const auto& history = *owned<LocationHistory>(cell);
      const Stamp* latest = latest_of_highest(history.reads, nullptr);
      for (const auto& [worker, list] : history.others) latest = latest_of_highest(list->reads, latest);
      if (latest == nullptr) return {history.write, std::nullopt};
      return {history.write, *latest};
    }
    case CellState::kSplit: {
      CellAccesses merged;
      for (const ShadowCell& byte : owned<SplitWord>(cell)->bytes) {
        const CellAccesses one = remembered_accesses(byte);
        if (one.write) merged.write = one.write;
        if (one.read) merged.read = one.read;
      }
      return merged;
    }
  }
  return {};
}

void reset_cell(ShadowCell& cell) {
  if (cell.state == CellState::kHistory) {
    delete owned<LocationHistory>(cell);
  } else if (cell.state == CellState::kSplit) {
    auto* split = owned<SplitWord>(cell);
    for (ShadowCell& byte : split->bytes) reset_cell(byte);
    delete split;
  }
  const uint8_t epoch = cell.epoch;  // the cell stays its page's
  cell = ShadowCell{};
  cell.epoch = epoch;
}

LocationHistory::LocationHistory(const LocationHistory& other)
    : write(other.write), other_atomic(other.other_atomic), reads(other.reads), reads_all_raced(other.reads_all_raced) {
  for (const auto& [worker, list] : other.others) others.emplace_back(worker, std::make_unique<WorkerReads>(*list));
}

ReadList* LocationHistory::own_reads_of(WorkerIndex worker) {
  for (auto& [index, list] : others) {
    if (index == worker) return &list->reads;
  }
  return nullptr;
}

ReadList& LocationHistory::reads_of_many_readers(WorkerIndex worker) {
  if (ReadList* list = own_reads_of(worker)) return *list;
  if (reads.size() < kReadsBeforeWorkerLists) return reads;
  return others.emplace_back(worker, std::make_unique<WorkerReads>()).second->reads;
}

bool has_own_reads(const ShadowCell& cell, WorkerIndex worker) {
  return cell.state == CellState::kHistory && owned<LocationHistory>(cell)->own_reads_of(worker) != nullptr;
}

bool apply_shared_read(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker) {
  if (cell.state != CellState::kHistory || access.kind.write) return false;
  auto* history = owned<LocationHistory>(cell);
  ReadList* list = history->own_reads_of(worker);
  if (list == nullptr) return false;
  if (history->write) check(*history->write, access, sink, 0);
  if (history->other_atomic && checks_other_atomic(access.kind)) check(*history->other_atomic, access, sink, 0);
  add_read(*list, access);
  return true;
}

void apply_history_read(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker) {
  read_history(*owned<LocationHistory>(cell), access, sink, worker, 0);
}

bool LocationHistory::gather_reads() {
  bool gathered = false;
  for (auto& [worker, list] : others) {
    gathered = gathered || !list->reads.empty();
    reads.insert(reads.end(), list->reads.begin(), list->reads.end());
    list->reads.clear();  // the capacity stays: the next round of reads needs it again
  }
  compact(reads);
  return gathered;
}

void apply_access(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker, uint32_t byte) {
  switch (cell.state) {
    case CellState::kEmpty:
      cell.hold(access);
      return;
    case CellState::kWrite:
    case CellState::kRead: {
      Stamp earlier = inline_stamp(cell);
      const bool raced = check(earlier, access, sink, byte);
      const bool read_kept = access.kind.write && !earlier.kind.write && keeps_reads(access);
      const bool write_kept = keeps_write(earlier.kind, access.kind, earlier.thread == access.thread);
      std::optional<Stamp> other_atomic =
          earlier.kind.write ? other_atomic_after(earlier, std::nullopt, access) : std::nullopt;
      if (!read_kept && !write_kept && !other_atomic &&
          (access.kind.write || (earlier.kind.read && !earlier.kind.write && earlier.thread == access.thread))) {
        cell.hold(access);
        return;
      }
      auto history = std::make_unique<LocationHistory>();
      if (other_atomic) {
        history->write = access;
        history->other_atomic = other_atomic;
      } else if (read_kept || write_kept) {
        earlier.kind.raced_strong_write = raced;
        history->write = access;
        history->reads.push_back(earlier);
        history->reads_all_raced = raced;
      } else if (earlier.kind.write) {
        history->write = earlier;
        history->reads.push_back(access);
      } else {
        history->reads = {earlier, access};
      }
      own(cell, std::move(history), CellState::kHistory);
      return;
    }
    case CellState::kHistory: {
      auto* history = owned<LocationHistory>(cell);
      if (!access.kind.write) return read_history(*history, access, sink, worker, byte);
      if (access.kind.atomic && history->write && history->write->kind.atomic && history->reads.empty() &&
          history->others.empty()) {
        // Atomics after atomics, nothing read since (a histogram's bins): the last write and the other
        // thread's atomic are all there is to check and keep.
        check(*history->write, access, sink, byte);
        history->other_atomic = other_atomic_after(history->write, history->other_atomic, access);
        history->write = access;
        return;
      }
      std::optional<Stamp> kept_write;
      if (history->other_atomic && checks_other_atomic(access.kind)) check(*history->other_atomic, access, sink, byte);
      history->other_atomic = other_atomic_after(history->write, history->other_atomic, access);
      if (history->write) {
        const bool raced = check(*history->write, access, sink, byte);
        if (keeps_write(history->write->kind, access.kind, history->write->thread == access.thread)) {
          kept_write = *history->write;
          kept_write->kind.raced_strong_write = raced;
        }
      }
      const bool same_site = history->write && history->write->kind.strong && history->write->site == access.site;
      if (history->gather_reads()) history->reads_all_raced = false;
      // The history stays, holding just this write: a word read by several threads between writes
      // (a shared-memory tile) would otherwise allocate and free one at every round.
      history->write = access;
      if (keeps_reads(access) && history->reads.size() <= kReadsKeptPastStrongWrites) {
        if (!(same_site && history->reads_all_raced)) {
          bool all_raced = true;
          for (Stamp& read : history->reads) {
            check_kept_read(read, access, same_site, sink, byte);
            all_raced = all_raced && read.kind.raced_strong_write;
          }
          history->reads_all_raced = all_raced;
        }
      } else {
        for (const Stamp& read : history->reads) check(read, access, sink, byte);
        history->reads.clear();
        history->reads_all_raced = false;
      }
      if (kept_write) keep_plain_write(*history, *kept_write);
      return;
    }
    case CellState::kSplit:
      BARRACUDA_DCHECK(!"apply_access on a split word: callers resolve it to byte cells");
      break;
  }
}

void apply_word_access(ShadowCell& cell, uint32_t byte_mask, const Stamp& access, ConflictSink& sink,
                       WorkerIndex worker) {
  if (byte_mask == 0xF && cell.state != CellState::kSplit) {
    apply_access(cell, access, sink, worker);
    return;
  }
  if (cell.state != CellState::kSplit) {
    auto split = std::make_unique<SplitWord>();
    for (ShadowCell& byte : split->bytes) {
      byte = cell;
      if (cell.state == CellState::kHistory) own(byte, copy_history(cell), CellState::kHistory);
    }
    reset_cell(cell);
    own(cell, std::move(split), CellState::kSplit);
  }
  auto* split = owned<SplitWord>(cell);
  for (uint32_t i = 0; i < 4; ++i) {
    if (byte_mask & (1u << i)) apply_access(split->bytes[i], access, sink, worker, i);
  }
}

}  // namespace barracuda::engine
