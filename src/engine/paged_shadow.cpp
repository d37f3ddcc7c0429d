#include "engine/paged_shadow.h"

namespace barracuda::engine {

ShadowPage::~ShadowPage() {
  for (ShadowCell& cell : cells) reset_cell(cell);
}

ShadowPage& PagedShadow::page(uint64_t page_index) {
  auto it = pages_.find(page_index);
  if (it != pages_.end()) return *it->second;
  // Two workers may race to create the page; the loser's copy is discarded by insert.
  return *pages_.insert({page_index, std::make_unique<ShadowPage>()}).first->second;
}

}  // namespace barracuda::engine
