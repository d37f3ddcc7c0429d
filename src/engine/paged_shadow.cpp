#include "engine/paged_shadow.h"

namespace barracuda::engine {

ShadowPage::~ShadowPage() {
  if (owns_objects_) {
    for (uint32_t i = 0; i < kWordsPerPage; ++i) {
      if (cells_[i].state == CellState::kHistory || cells_[i].state == CellState::kSplit) reset_cell(cells_[i]);
    }
  }
  pool_.give_back(cells_);
}

ShadowPage& PagedShadow::page(uint64_t page_index) {
  auto it = pages_.find(page_index);
  if (it != pages_.end()) return *it->second;
  // Two workers may race to create the page; the loser's copy is discarded by insert.
  return *pages_.insert({page_index, std::make_unique<ShadowPage>(pool_)}).first->second;
}

}  // namespace barracuda::engine
