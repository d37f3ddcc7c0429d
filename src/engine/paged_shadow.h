#pragma once
// Shadow memory for a large, sparse address space (global memory, distributed shared memory):
// one ShadowCell per 4-byte word, in pages allocated on first touch. Workers share it; each page
// has its own lock, held while one record's accesses to that page are checked.
#include <cstdint>
#include <memory>
#include <mutex>

#include <tbb/concurrent_unordered_map.h>
#include <tbb/spin_mutex.h>

#include "engine/shadow_cell.h"

namespace barracuda::engine {

// 16 KiB of application memory, 64 KiB of shadow, mapped and zeroed (= emptied) in one go by the
// kernel (MAP_POPULATE: one fault per page instead of two per 4 KiB, read then copy-on-write).
inline constexpr uint32_t kWordsPerPage = 4096;

class ShadowPage {
 public:
  ShadowPage();
  ~ShadowPage();
  ShadowPage(const ShadowPage&) = delete;
  ShadowPage& operator=(const ShadowPage&) = delete;

  ShadowCell& cell(uint64_t index) { return cells_[index]; }
  const ShadowCell& cell(uint64_t index) const { return cells_[index]; }
  // Called when a cell may own heap objects (History, Split): only such pages are walked when freed.
  void note_owner(const ShadowCell& cell) {
    if (cell.state == CellState::kHistory || cell.state == CellState::kSplit) owns_objects_ = true;
  }

  tbb::spin_mutex lock;

 private:
  ShadowCell* cells_;
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
  void clear() { pages_.clear(); }

 private:
  tbb::concurrent_unordered_map<uint64_t, std::unique_ptr<ShadowPage>> pages_;
};

// Walks the cells one record touches, holding the lock of one page at a time (never two, so
// workers cannot deadlock on each other's pages).
class PageCursor {
 public:
  explicit PageCursor(PagedShadow& shadow) : shadow_(shadow) {}
  ShadowCell& cell(uint64_t word) {
    const uint64_t index = word / kWordsPerPage;
    if (index != page_index_ || !page_) {
      if (lock_.owns_lock()) lock_.unlock();
      page_ = &shadow_.page(index);
      page_index_ = index;
      lock_ = std::unique_lock<tbb::spin_mutex>(page_->lock);
    }
    return page_->cell(word % kWordsPerPage);
  }
  void note_owner(const ShadowCell& cell) { page_->note_owner(cell); }

 private:
  PagedShadow& shadow_;
  uint64_t page_index_ = 0;
  ShadowPage* page_ = nullptr;
  std::unique_lock<tbb::spin_mutex> lock_;
};

}  // namespace barracuda::engine
