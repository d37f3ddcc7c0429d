#include "engine/paged_shadow.h"

#include <sys/mman.h>

#include <new>

namespace barracuda::engine {

namespace {

constexpr size_t kPageBytes = size_t{kWordsPerPage} * sizeof(ShadowCell);

}  // namespace

ShadowPage::ShadowPage() {
  // All-zero bytes are an array of empty cells (ShadowCell is an implicit-lifetime aggregate).
  void* memory = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  cells_ = static_cast<ShadowCell*>(memory);
}

ShadowPage::~ShadowPage() {
  if (owns_objects_) {
    for (uint32_t i = 0; i < kWordsPerPage; ++i) reset_cell(cells_[i]);
  }
  munmap(cells_, kPageBytes);
}

ShadowPage& PagedShadow::page(uint64_t page_index) {
  auto it = pages_.find(page_index);
  if (it != pages_.end()) return *it->second;
  // Two workers may race to create the page; the loser's copy is discarded by insert.
  return *pages_.insert({page_index, std::make_unique<ShadowPage>()}).first->second;
}

}  // namespace barracuda::engine
