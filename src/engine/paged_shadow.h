#pragma once
// Shadow memory for a large, sparse address space (global memory, distributed shared memory):
// one ShadowCell per 4-byte word, in pages allocated on first touch. Workers share it; each stripe
// of a page (kWordsPerStripe words) has its own reader-writer lock, held while one record's accesses
// to that stripe are checked: exclusively, except by a read that only appends to the checking
// worker's own list of a location's reads (try_shared_read), which many workers do at once on a word
// every block reads.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include <tbb/concurrent_unordered_map.h>
#include <tbb/concurrent_vector.h>
#include <tbb/spin_rw_mutex.h>

#include "engine/shadow_cell.h"
#include "engine/shadow_page_pool.h"

namespace barracuda::engine {

// 256 bytes of application memory: a warp's coalesced 4- or 8-byte access takes one or two stripe
// locks. A lock per page (16 KiB) serialised the workers on neighbouring blocks' data: 15 drain
// threads checking cub_scan's decoupled look-back (every block reads the tile states of the 32
// blocks before it, all on one page) spent their time yielding in that page's lock (H200, 0b22684).
inline constexpr uint32_t kWordsPerStripe = 64;
inline constexpr uint32_t kStripesPerPage = kWordsPerPage / kWordsPerStripe;
static_assert(kWordsPerPage % kWordsPerStripe == 0);

class ShadowPage {
 public:
  ShadowPage(ShadowPagePool& pool, uint64_t index) : ShadowPage(pool, index, pool.take()) {}
  ~ShadowPage();
  ShadowPage(const ShadowPage&) = delete;
  ShadowPage& operator=(const ShadowPage&) = delete;

  // The cell, emptied first if it holds an earlier epoch's use. A page's first cell of an epoch
  // makes the page used (PagedShadow::used_pages).
  ShadowCell& cell(uint64_t index, tbb::concurrent_vector<ShadowPage*>& used_pages) {
    ShadowCell& cell = cells_[index];
    if (cell.epoch != epoch_) [[unlikely]] {
      cell = ShadowCell{};
      cell.epoch = epoch_;
      // Workers holding other stripes of the page may get here at once: one of them lists it.
      if (!used_.load(std::memory_order_relaxed) && !used_.exchange(true, std::memory_order_relaxed)) {
        used_pages.push_back(this);
      }
    }
    return cell;
  }
  // The cell as it is: an empty one where it holds an earlier epoch's use.
  const ShadowCell& cell(uint64_t index) const { return current(index) ? cells_[index] : kEmptyCell; }
  // Whether the cell holds this epoch's use (cell() may read it without writing).
  bool current(uint64_t index) const { return cells_[index].epoch == epoch_; }
  // Called when a cell may own heap objects (History, Split): only such pages are walked when freed.
  void note_owner(const ShadowCell& cell) {
    if ((cell.state == CellState::kHistory || cell.state == CellState::kSplit) &&
        !owns_objects_.load(std::memory_order_relaxed)) {
      owns_objects_.store(true, std::memory_order_relaxed);
    }
  }
  uint64_t index() const { return index_; }
  // Starts loading the cell into the cache (no lock needed: nothing is read or written).
  void prefetch(uint64_t index) const { __builtin_prefetch(cells_ + index, 1); }
  // Forgets this epoch's use: frees what the cells own, and every cell reads as empty again.
  void start_epoch();

  // The lock of the stripe holding cell `index`.
  tbb::spin_rw_mutex& lock(uint64_t index) { return locks_[index / kWordsPerStripe]; }
  // Moves on with every write checked in the stripe of cell `index` (under the stripe's exclusive
  // lock); read without the lock (CheckedRead).
  std::atomic<uint32_t>& write_generation(uint64_t index) { return write_generations_[index / kWordsPerStripe]; }

 private:
  // Epochs run from 1 to 255: the zero bytes of a fresh page, and kEmptyCell, are never current.
  static constexpr ShadowCell kEmptyCell{};

  ShadowPage(ShadowPagePool& pool, uint64_t index, ShadowPagePool::Page taken);
  void free_owned_cells();

  ShadowPagePool& pool_;
  ShadowCell* cells_;
  uint64_t index_;
  uint8_t epoch_ = 1;
  std::atomic<bool> used_ = false;  // some cell is current
  std::atomic<bool> owns_objects_ = false;
  std::array<tbb::spin_rw_mutex, kStripesPerPage> locks_;
  std::array<std::atomic<uint32_t>, kStripesPerPage> write_generations_{};
};

class PagedShadow {
 public:
  // Up to `max_kept_pages` pages are kept from one launch to the next (by default 1 GiB of shadow).
  explicit PagedShadow(size_t max_kept_pages = size_t{1} << 14) : max_kept_pages_(max_kept_pages) {}
  PagedShadow(const PagedShadow&) = delete;
  PagedShadow& operator=(const PagedShadow&) = delete;

  // Page number `page_index` (address / 4 / kWordsPerPage), created if absent. Safe to call concurrently.
  ShadowPage& page(uint64_t page_index);
  // The cell of `word` in `page` (see ShadowPage::cell).
  ShadowCell& cell(ShadowPage& page, uint64_t word) { return page.cell(word % kWordsPerPage, used_pages_); }
  // Calls visit(page_index, page) for every page a cell of was used since the last clear(); callers
  // guarantee no worker is using the shadow.
  template <typename Visit>
  void for_each_page(Visit&& visit) const {
    for (const ShadowPage* page : used_pages_) visit(page->index(), *page);
  }
  // Forgets every access; callers guarantee no worker is using the shadow. The pages stay, so that
  // the next launch finds them without allocating or emptying them (a new epoch makes their cells
  // empty), unless more than max_kept_pages exist: then they go back to the pool.
  void clear();
  // Changes whenever clear() drops the pages: a page pointer obtained in an earlier generation is gone.
  uint64_t generation() const { return generation_; }

 private:
  size_t max_kept_pages_;
  ShadowPagePool pool_;  // outlives the pages
  tbb::concurrent_unordered_map<uint64_t, std::unique_ptr<ShadowPage>> pages_;
  tbb::concurrent_vector<ShadowPage*> used_pages_;  // pages with current cells
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
  static constexpr unsigned kSlotBits = 12;  // 4096 pages: 64 MiB of application memory
  std::array<Entry, size_t{1} << kSlotBits> entries_{};
};

// Walks the cells one record touches, holding the lock of one stripe at a time (never two, so
// workers cannot deadlock on each other's stripes).
class PageCursor {
 public:
  PageCursor(PagedShadow& shadow, PageCache& cache) : shadow_(shadow), cache_(cache) {}
  ~PageCursor() { release(); }
  PageCursor(const PageCursor&) = delete;
  PageCursor& operator=(const PageCursor&) = delete;

  // The cell of `word`, its stripe locked exclusively.
  ShadowCell& cell(uint64_t word) {
    hold(word, Held::kExclusive);
    return shadow_.cell(*page_, word);
  }
  // Starts loading the cell of `word` into the cache: a record's scattered lanes then wait for memory
  // once, together, instead of one after another.
  void prefetch(uint64_t word) { cache_.page(shadow_, word / kWordsPerPage).prefetch(word % kWordsPerPage); }
  // Checks the read `access` of `word` under its stripe's shared lock when it only appends to
  // `worker`'s own list of the word's reads (apply_shared_read); false when it needs cell(). Tried
  // only on pages where this worker's last such read succeeded (note_own_list() marks them).
  bool try_shared_read(uint64_t word, const Stamp& access, ConflictSink& sink, WorkerIndex worker) {
    const uint64_t index = word / kWordsPerPage;
    // The stripe held exclusively already (the record's earlier lanes needed it): cell() appends to the
    // worker's own list as well, without a second look at the page's entry for each lane.
    if (held_ == Held::kExclusive && word / kWordsPerStripe == stripe_) return false;
    if (held_ == Held::kNone || word / kWordsPerStripe != stripe_) {
      PageCache::Entry& entry = cache_.entry(shadow_, index);
      if (!entry.shared_reads) return false;
      hold(word, Held::kShared);
    }
    // A cell of an earlier epoch must be emptied, under the exclusive lock.
    const uint64_t cell_index = word % kWordsPerPage;
    const bool applied = page_->current(cell_index) &&
                         apply_shared_read(shadow_.cell(*page_, word), access, sink, worker);
    if (!applied) cache_.entry(shadow_, index).shared_reads = false;
    return applied;
  }
  // After cell(): the read just applied went to `worker`'s own list of the cell's reads, so reads of
  // this page may try the shared lock.
  void note_own_list(const ShadowCell& cell, WorkerIndex worker) {
    if (has_own_reads(cell, worker)) cache_.entry(shadow_, page_index_).shared_reads = true;
  }
  void note_owner(const ShadowCell& cell) { page_->note_owner(cell); }
  // After a write to `word` was checked (its stripe held exclusively): repeated reads there are
  // checked again.
  void note_write(uint64_t word) {
    page_->write_generation(word % kWordsPerPage).fetch_add(1, std::memory_order_release);
  }
  // The write generation of `word`'s stripe, without its lock.
  uint32_t write_generation(uint64_t word) {
    return cache_.page(shadow_, word / kWordsPerPage).write_generation(word % kWordsPerPage).load(std::memory_order_acquire);
  }

 private:
  enum class Held { kNone, kShared, kExclusive };

  // Locks the stripe of `word` (its page looked up when it changed).
  void hold(uint64_t word, Held mode) {
    const uint64_t stripe = word / kWordsPerStripe;
    if (held_ != Held::kNone && stripe == stripe_ && (held_ == mode || held_ == Held::kExclusive)) return;
    release();
    const uint64_t index = word / kWordsPerPage;
    if (index != page_index_ || !page_) page_ = cache_.entry(shadow_, index).page;
    page_index_ = index;
    stripe_ = stripe;
    lock_ = &page_->lock(word % kWordsPerPage);
    if (mode == Held::kExclusive) {
      lock_->lock();
    } else {
      lock_->lock_shared();
    }
    held_ = mode;
  }
  void release() {
    if (held_ == Held::kExclusive) lock_->unlock();
    if (held_ == Held::kShared) lock_->unlock_shared();
    held_ = Held::kNone;
  }

  PagedShadow& shadow_;
  PageCache& cache_;
  uint64_t page_index_ = 0;
  uint64_t stripe_ = 0;  // word / kWordsPerStripe of the stripe held
  ShadowPage* page_ = nullptr;
  tbb::spin_rw_mutex* lock_ = nullptr;
  Held held_ = Held::kNone;
};

}  // namespace barracuda::engine
