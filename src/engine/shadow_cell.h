#pragma once
// Shadow state of one 4-byte word (or, once split, of one byte) and the FastTrack-style update
// that checks an access against it.
//
// Reporting rule (the differential test's reference implements the same one): an access races
// with the location's last write if they are unordered, and a write also races with every
// unordered read since that last write, of which the latest per thread is kept. A plain write clears
// the reads; a strong one (atomic, relaxed, release) keeps up to 256, marking those it raced with, and
// it keeps the plain write it replaced among them (in shared memory only its own thread's: keeps_write).
// A plain access also races with the latest atomic of another thread than the last write's, while the
// last write is an atomic (LocationHistory::other_atomic).
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include <tbb/scalable_allocator.h>

#include "engine/access.h"
#include "engine/ids.h"

namespace barracuda::engine {

enum class CellState : uint8_t {
  kEmpty,
  kWrite,    // one write, no read since: the stamp is inline
  kRead,     // no write, one read: the stamp is inline
  kHistory,  // anything else: `payload` owns a LocationHistory
  kSplit,    // accessed below word granularity: `payload` owns 4 byte cells (word cells only)
};

// 16 bytes per 4-byte word in every inline state. Layout:
//   bytes 0-7  : thread (0-3) and clock (4-7) of the inline stamp, or an owning pointer
//   bytes 8-11 : site of the inline stamp
//   bytes 12-13: AccessKind of the inline stamp
//   byte  14   : CellState
//   byte  15   : epoch: a word cell of a shadow page holds this page's use only where it equals the
//                page's epoch; any other cell reads as empty (ShadowPage). Byte cells ignore it.
struct ShadowCell {
  uint64_t payload = 0;
  SiteId site{};
  AccessKind kind{};
  CellState state = CellState::kEmpty;
  uint8_t epoch = 0;

  // Makes `s` the cell's only access (the caller has freed whatever the cell owned).
  void hold(const Stamp& s) {
    payload = uint64_t{raw(s.thread)} | (uint64_t{raw(s.clock)} << 32);
    site = s.site;
    kind = s.kind;
    state = s.kind.write ? CellState::kWrite : CellState::kRead;
  }
};
static_assert(sizeof(ShadowCell) == 16 && offsetof(ShadowCell, site) == 8 && offsetof(ShadowCell, kind) == 12 &&
                  offsetof(ShadowCell, state) == 14 && offsetof(ShadowCell, epoch) == 15,
              "shadow cell layout documented above");

// Out-of-line cell contents come and go at the rate of shared reads: TBB's scalable allocator
// (thread-local free lists) instead of malloc, which workers would contend on.
template <typename T>
struct ScalablyAllocated {
  static void* operator new(size_t bytes) {
    if (void* p = scalable_malloc(bytes)) return p;
    throw std::bad_alloc();
  }
  static void operator delete(void* p) { scalable_free(p); }
};

// Reads in arrival order; a thread may appear more than once (only its latest read counts).
// Appending keeps a word read by hundreds of threads (a matrix every block reads) at O(1) per read;
// compaction restores one read per thread, sorted by thread.
using ReadList = std::vector<Stamp, tbb::scalable_allocator<Stamp>>;

// One worker's reads of a location that very many threads read: allocated by that worker, so the
// list it appends to does not share cache lines with another worker's (a word every block reads
// would otherwise pass its list from core to core on every record, under the page lock).
struct WorkerReads : ScalablyAllocated<WorkerReads> {
  ReadList reads;
};

struct LocationHistory : ScalablyAllocated<LocationHistory> {
  std::optional<Stamp> write;
  // While `write` is an atomic: the latest atomic of another thread than its, since the last plain
  // write. A plain access checks it as well as `write`, so that a thread reading a word after its own
  // atomicAdd still races with another thread's add before it (the device's view of two threads'
  // atomics, barracuda/shared_check.h, does the same).
  std::optional<Stamp> other_atomic;
  // The reads since the write: first in `reads`, which every worker appends to under the page's
  // exclusive lock; once it holds kReadsBeforeWorkerLists reads, each worker's further reads go to a
  // list of its own in `others`, which it may append to under the page's shared lock. A thread's reads
  // all come from the worker checking its block, so `reads` then `others` keeps every thread's reads
  // in program order. (Lists for every word would cost a matrix read by a few blocks an allocation
  // per worker per word: only words read by very many threads get them.)
  static constexpr size_t kReadsBeforeWorkerLists = 256;
  ReadList reads;
  // Every read in `reads` raced with the last write, a strong one (shadow_cell.cpp): a strong write of
  // its site has nothing to check. Unset by every read added.
  bool reads_all_raced = false;
  std::vector<std::pair<WorkerIndex, std::unique_ptr<WorkerReads>>,
              tbb::scalable_allocator<std::pair<WorkerIndex, std::unique_ptr<WorkerReads>>>>
      others;

  LocationHistory() = default;
  LocationHistory(const LocationHistory& other);
  // The list `worker`'s next read goes to (under the page's exclusive lock).
  ReadList& reads_of(WorkerIndex worker) {
    // Inline: most words are read by fewer threads than take lists of their own.
    if (others.empty() && reads.size() < kReadsBeforeWorkerLists) return reads;
    return reads_of_many_readers(worker);
  }
  // `worker`'s own list, if it has one (what a read under the shared lock may append to).
  ReadList* own_reads_of(WorkerIndex worker);
  // Every read since the write, latest per thread, sorted by thread, in `reads`; `others` emptied.
  // Whether `others` held any.
  bool gather_reads();

 private:
  ReadList& reads_of_many_readers(WorkerIndex worker);
};

struct SplitWord : ScalablyAllocated<SplitWord> {
  ShadowCell bytes[4];
};

// Receives every earlier access that conflicts with the current one; decides whether the pair
// is ordered and reports it if not. `byte` is the byte within the word (0 for whole-word cells).
class ConflictSink {
 public:
  // True where the pair raced (and was reported).
  virtual bool conflict(const Stamp& earlier, uint32_t byte) = 0;
  // An atomic read another thread's atomic write: no conflict (both are gpu-scope atomics), but the
  // read may be a flag's (FlagObservations), and where the earlier atomic read too (a spin's
  // atomicAdd(&flag, 0) checked before atomicExch(&flag, 1)), the current one may be the flag's write
  // that read saw (LateFlagWrite). Kept for the sink to take; stores, not a call: a histogram's every
  // atomic gets here.
  // Field by field, read back the same way: a whole Stamp stored here and loaded at once stalls on
  // store forwarding.
  void observe_atomic_write(const Stamp& earlier) {
    observed_thread_ = earlier.thread;
    observed_clock_ = earlier.clock;
    observed_site_ = earlier.site;
    observed_read_ = earlier.kind.read;
    observed_ = true;
  }

 protected:
  ~ConflictSink() = default;
  ThreadId observed_thread_{};
  Clock observed_clock_{};
  SiteId observed_site_{};
  bool observed_read_ = false;
  bool observed_ = false;
};

// Checks `access` against `cell` (a word or a byte cell, never a split one) and records it.
// `worker` is the engine worker checking it (0 for block-local shared memory).
void apply_access(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker, uint32_t byte = 0);
// Checks `access` on the bytes of a word cell selected by `byte_mask` (bit i = byte i). A partial
// mask splits the word so that disjoint byte accesses never conflict.
void apply_word_access(ShadowCell& cell, uint32_t byte_mask, const Stamp& access, ConflictSink& sink,
                       WorkerIndex worker);
// apply_access for the read `access` of a kHistory cell: checked against the write, then appended
// to the reads (the commonest case of a tile every thread of a block reads).
void apply_history_read(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker);
// Whether a write of kind `write` keeps the location's last write, of kind `earlier` (of the same
// thread or not), among the reads: a strong write keeps a plain one, so that a later atomic of another
// thread still races with that write (lane 0 stores, then every lane adds atomically). In a block's
// shared memory only a strong write of the plain write's own thread does: another thread's was checked
// against the plain write itself, and keeping it there would give every bin of a shared histogram
// (reset, then added to) a history each later add re-checks (BM_Recorded/histogram 21 -> 32 ms).
constexpr bool keeps_write(const AccessKind& earlier, const AccessKind& write, bool same_thread) {
  return write.write && write.strong && earlier.write && !earlier.strong && (same_thread || !write.shared_space);
}
// apply_word_access for a whole word, with the first touch of a word inlined (the common case of
// streaming kernels).
// Also inlined: a thread revisiting a word it alone touched last (a write replaces its own access,
// a read its own read) needs no check; but a strong write keeps its thread's read (apply_access).
inline void apply_whole_word_access(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker) {
  const bool own_inline = (cell.state == CellState::kWrite || cell.state == CellState::kRead) &&
                          static_cast<uint32_t>(cell.payload) == raw(access.thread);
  const bool replaces_own = access.kind.write ? (cell.state == CellState::kWrite && !keeps_write(cell.kind, access.kind, true)) ||
                                                    !access.kind.strong
                                              : cell.state == CellState::kRead;
  if (cell.state == CellState::kEmpty || (own_inline && replaces_own)) {
    cell.hold(access);
  } else if (cell.state == CellState::kHistory && !access.kind.write) {
    apply_history_read(cell, access, sink, worker);
  } else {
    apply_word_access(cell, 0xF, access, sink, worker);
  }
}
// The read `access` of a word cell under a lock other workers may share: applied (true) only where it
// appends to `worker`'s own existing list of the cell's reads, which no other worker touches while
// the lock is shared; false, with nothing changed, where the cell itself must change.
bool apply_shared_read(ShadowCell& cell, const Stamp& access, ConflictSink& sink, WorkerIndex worker);
// Whether `worker` has a list of its own among the cell's reads (apply_shared_read can append).
bool has_own_reads(const ShadowCell& cell, WorkerIndex worker);
// The accesses a cell (word or byte) remembers, for a summary that outlives the launch: its last
// write and, of the reads since, the latest one by thread id. A split word's bytes are merged.
struct CellAccesses {
  std::optional<Stamp> write;
  std::optional<Stamp> read;
};
CellAccesses remembered_accesses(const ShadowCell& cell);
// Frees what a cell owns and empties it (its epoch is kept).
void reset_cell(ShadowCell& cell);

}  // namespace barracuda::engine
