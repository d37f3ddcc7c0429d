#include "engine/paged_shadow.h"

#include <cstring>

namespace barracuda::engine {

ShadowPage::~ShadowPage() {
  if (owns_objects_) {
    for (uint32_t i = 0; i < kWordsPerPage; ++i) {
      if (!touched(i)) continue;
      if (cells_[i].state == CellState::kHistory || cells_[i].state == CellState::kSplit) reset_cell(cells_[i]);
    }
  }
  pool_.give_back(cells_);
}

void ShadowPage::empty_chunk(uint32_t chunk) {
  // All-zero bytes are an array of empty cells (ShadowCell is an implicit-lifetime aggregate).
  std::memset(static_cast<void*>(cells_ + chunk * kChunkCells), 0, kChunkCells * sizeof(ShadowCell));
  touched_chunks_ |= uint64_t{1} << chunk;
}

ShadowPage& PagedShadow::page(uint64_t page_index) {
  auto it = pages_.find(page_index);
  if (it != pages_.end()) return *it->second;
  // Two workers may race to create the page; the loser's copy is discarded by insert.
  return *pages_.insert({page_index, std::make_unique<ShadowPage>(pool_)}).first->second;
}

}  // namespace barracuda::engine
