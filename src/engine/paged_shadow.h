#pragma once
// Shadow memory for a large, sparse address space (global memory, distributed shared memory):
// one ShadowCell per 4-byte word, in pages allocated on first touch. Workers share it; each page
// has its own reader-writer lock, held while one record's accesses to that page are checked:
// exclusively, except by a read that only appends to the checking worker's own list of a
// location's reads (try_shared_read), which many workers do at once on a word every block reads.
#include <array>
#include <cstdint>
#include <memory>

#include <tbb/concurrent_unordered_map.h>
#include <tbb/spin_rw_mutex.h>

#include "engine/shadow_cell.h"
#include "engine/shadow_page_pool.h"

namespace barracuda::engine {

class ShadowPage {
 public:
  explicit ShadowPage(ShadowPagePool& pool) : ShadowPage(pool, pool.take()) {}
  ~ShadowPage();
  ShadowPage(const ShadowPage&) = delete;
  ShadowPage& operator=(const ShadowPage&) = delete;

  // The cell, emptied first if its chunk was not touched since the page came from the pool.
  ShadowCell& cell(uint64_t index) {
    if (!touched(index)) empty_chunk(index / kChunkCells);
    return cells_[index];
  }
  // The cell as it is: an empty one where its chunk was not touched (nothing of this page's use).
  const ShadowCell& cell(uint64_t index) const { return touched(index) ? cells_[index] : kEmptyCell; }
  // Whether the cell's chunk was emptied for this page's use (cell() may read it without writing).
  bool touched(uint64_t index) const { return (touched_chunks_ >> (index / kChunkCells)) & 1u; }
  // Called when a cell may own heap objects (History, Split): only such pages are walked when freed.
  void note_owner(const ShadowCell& cell) {
    if (cell.state == CellState::kHistory || cell.state == CellState::kSplit) owns_objects_ = true;
  }

  tbb::spin_rw_mutex lock;

 private:
  // A reused page is emptied 1 KiB at a time, as its cells are first used: a launch that gathers
  // from a large array touches one cell of a page, and emptying all 64 KiB of it was most of the
  // work of such a launch.
  static constexpr uint32_t kChunkCells = kWordsPerPage / 64;
  static constexpr ShadowCell kEmptyCell{};

  ShadowPage(ShadowPagePool& pool, ShadowPagePool::Page taken)
      : pool_(pool), cells_(taken.cells), touched_chunks_(taken.zeroed ? ~uint64_t{0} : 0) {}
  void empty_chunk(uint32_t chunk);

  ShadowPagePool& pool_;
  ShadowCell* cells_;
  uint64_t touched_chunks_;  // bit i: cells [i * kChunkCells, (i + 1) * kChunkCells) are this page's
  bool owns_objects_ = false;
};

class PagedShadow {
 public:
  PagedShadow() = default;
  PagedShadow(const PagedShadow&) = delete;
  PagedShadow& operator=(const PagedShadow&) = delete;

  // Page number `page_index` (address / 4 / kWordsPerPage), created if absent. Safe to call concurrently.
  ShadowPage& page(uint64_t page_index);
  // Calls visit(page_index, page) for every page; callers guarantee no worker is using the shadow.
  template <typename Visit>
  void for_each_page(Visit&& visit) const {
    for (const auto& [index, page] : pages_) visit(index, static_cast<const ShadowPage&>(*page));
  }
  // Drops every page; callers guarantee no worker is using the shadow.
  void clear() {
    pages_.clear();
    ++generation_;
  }
  // Changes at every clear(): a page pointer obtained in an earlier generation is gone.
  uint64_t generation() const { return generation_; }

 private:
  ShadowPagePool pool_;  // outlives the pages
  tbb::concurrent_unordered_map<uint64_t, std::unique_ptr<ShadowPage>> pages_;
  uint64_t generation_ = 0;
};

// One worker's memory of the pages it used lately, so that most page lookups skip the shared
// map: direct-mapped by page number, valid for one generation of the shadow.
class PageCache {
 public:
  struct Entry {
    uint64_t index = 0;
    uint64_t generation = 0;
    ShadowPage* page = nullptr;
    // This worker's last read here that could take the shared lock did (see PageCursor): worth
    // trying first. Off for pages whose words few threads read, which would pay two locks a record.
    bool shared_reads = false;
  };

  Entry& entry(PagedShadow& shadow, uint64_t page_index) {
    // Multiplicative hashing: arrays sit at large power-of-two distances, which a plain modulo
    // would map onto one slot.
    Entry& entry = entries_[(page_index * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits)];
    if (entry.page == nullptr || entry.index != page_index || entry.generation != shadow.generation()) {
      entry = {page_index, shadow.generation(), &shadow.page(page_index)};
    }
    return entry;
  }
  ShadowPage& page(PagedShadow& shadow, uint64_t page_index) { return *entry(shadow, page_index).page; }

 private:
  static constexpr unsigned kSlotBits = 8;
  std::array<Entry, size_t{1} << kSlotBits> entries_{};
};

// Walks the cells one record touches, holding the lock of one page at a time (never two, so
// workers cannot deadlock on each other's pages).
class PageCursor {
 public:
  PageCursor(PagedShadow& shadow, PageCache& cache) : shadow_(shadow), cache_(cache) {}
  ~PageCursor() { release(); }
  PageCursor(const PageCursor&) = delete;
  PageCursor& operator=(const PageCursor&) = delete;

  // The cell of `word`, its page locked exclusively.
  ShadowCell& cell(uint64_t word) {
    hold(word / kWordsPerPage, Held::kExclusive);
    return page_->cell(word % kWordsPerPage);
  }
  // Checks the read `access` of `word` under the page's shared lock when it only appends to
  // `worker`'s own list of the word's reads (apply_shared_read); false when it needs cell(). Tried
  // only on pages where this worker's last such read succeeded (note_own_list() marks them).
  bool try_shared_read(uint64_t word, const Stamp& access, ConflictSink& sink, WorkerIndex worker) {
    const uint64_t index = word / kWordsPerPage;
    if (held_ == Held::kNone || index != page_index_) {
      PageCache::Entry& entry = cache_.entry(shadow_, index);
      if (!entry.shared_reads) return false;
      hold(index, Held::kShared);
    }
    // An untouched cell is garbage, and emptying it needs the exclusive lock.
    const uint64_t cell_index = word % kWordsPerPage;
    const bool applied = page_->touched(cell_index) &&
                         apply_shared_read(page_->cell(cell_index), access, sink, worker);
    if (!applied) cache_.entry(shadow_, index).shared_reads = false;
    return applied;
  }
  // After cell(): the read just applied went to `worker`'s own list of the cell's reads, so reads of
  // this page may try the shared lock.
  void note_own_list(const ShadowCell& cell, WorkerIndex worker) {
    if (has_own_reads(cell, worker)) cache_.entry(shadow_, page_index_).shared_reads = true;
  }
  void note_owner(const ShadowCell& cell) { page_->note_owner(cell); }

 private:
  enum class Held { kNone, kShared, kExclusive };

  void hold(uint64_t index, Held mode) {
    if (held_ != Held::kNone && index == page_index_ && (held_ == mode || held_ == Held::kExclusive)) return;
    release();
    if (index != page_index_ || !page_) page_ = cache_.entry(shadow_, index).page;
    page_index_ = index;
    if (mode == Held::kExclusive) {
      page_->lock.lock();
    } else {
      page_->lock.lock_shared();
    }
    held_ = mode;
  }
  void release() {
    if (held_ == Held::kExclusive) page_->lock.unlock();
    if (held_ == Held::kShared) page_->lock.unlock_shared();
    held_ = Held::kNone;
  }

  PagedShadow& shadow_;
  PageCache& cache_;
  uint64_t page_index_ = 0;
  ShadowPage* page_ = nullptr;
  Held held_ = Held::kNone;
};

}  // namespace barracuda::engine
