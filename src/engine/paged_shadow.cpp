#include "engine/paged_shadow.h"

#include <cstring>

namespace barracuda::engine {

ShadowPage::ShadowPage(ShadowPagePool& pool, uint64_t index, ShadowPagePool::Page taken)
    : pool_(pool), cells_(taken.cells), index_(index) {
  if (!taken.zeroed) {
    // A reused page's cells hold epochs up to its last one: start after it.
    epoch_ = taken.last_epoch;
    start_epoch();
  }
}

ShadowPage::~ShadowPage() {
  free_owned_cells();
  pool_.give_back(cells_, epoch_);
}

void ShadowPage::free_owned_cells() {
  if (!owns_objects_) return;
  for (uint32_t i = 0; i < kWordsPerPage; ++i) {
    if (!current(i)) continue;
    if (cells_[i].state == CellState::kHistory || cells_[i].state == CellState::kSplit) reset_cell(cells_[i]);
  }
  owns_objects_ = false;
}

void ShadowPage::start_epoch() {
  free_owned_cells();
  used_ = false;
  if (++epoch_ == 0) {
    // Every epoch was used: once in 255 epochs, empty the page for real.
    // All-zero bytes are an array of empty cells of epoch 0 (ShadowCell is an implicit-lifetime aggregate).
    std::memset(static_cast<void*>(cells_), 0, kShadowPageBytes);
    epoch_ = 1;
  }
}

ShadowPage& PagedShadow::page(uint64_t page_index) {
  auto it = pages_.find(page_index);
  if (it != pages_.end()) return *it->second;
  // Two workers may race to create the page; the loser's copy is discarded by insert.
  return *pages_.insert({page_index, std::make_unique<ShadowPage>(pool_, page_index)}).first->second;
}

void PagedShadow::clear() {
  if (pages_.size() > max_kept_pages_) {
    used_pages_.clear();
    pages_.clear();
    ++generation_;
    return;
  }
  for (ShadowPage* page : used_pages_) page->start_epoch();
  used_pages_.clear();
}

}  // namespace barracuda::engine
