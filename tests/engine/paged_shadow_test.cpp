// Shadow pages across launches: pages are recycled, so a page must come back empty, and a worker's
// page cache must never hand out a page of an earlier launch.
#include "engine/paged_shadow.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

namespace barracuda::engine {
namespace {

bool all_empty(ShadowCell* cells) {
  for (uint32_t i = 0; i < kWordsPerPage; ++i) {
    if (cells[i].state != CellState::kEmpty || cells[i].payload != 0 || raw(cells[i].site) != 0) return false;
  }
  return true;
}

class NoConflicts final : public ConflictSink {
 public:
  void conflict(const Stamp&, uint32_t) override {}
};

Stamp read_by(uint32_t thread) {
  Stamp stamp;
  stamp.thread = static_cast<ThreadId>(thread);
  stamp.clock = static_cast<Clock>(1);
  stamp.site = static_cast<SiteId>(9);
  stamp.kind.read = 1;
  return stamp;
}

TEST(ShadowPagePool, PagesAreDistinctAndEveryTakeIsEmptyEvenAfterReuse) {
  ShadowPagePool pool;
  std::vector<ShadowCell*> pages;
  for (int i = 0; i < 70; ++i) pages.push_back(pool.take());  // more than two 2 MiB slabs
  EXPECT_EQ(std::set<ShadowCell*>(pages.begin(), pages.end()).size(), pages.size());
  for (ShadowCell* page : pages) {
    ASSERT_TRUE(all_empty(page));
    std::memset(static_cast<void*>(page), 0xA5, kShadowPageBytes);
    pool.give_back(page);
  }
  for (int i = 0; i < 70; ++i) {
    ShadowCell* page = pool.take();
    EXPECT_TRUE(all_empty(page)) << "take " << i;
    std::memset(static_cast<void*>(page), 0x5A, kShadowPageBytes);
  }
}

TEST(PagedShadow, ClearedPagesComeBackEmptyAndCachesForgetThem) {
  PagedShadow shadow;
  PageCache cache;
  NoConflicts sink;
  ShadowPage& first = cache.page(shadow, 5);
  ASSERT_EQ(&first, &shadow.page(5));
  ShadowCell& inline_cell = first.cell(7);
  apply_access(inline_cell, read_by(1), sink);
  ShadowCell& history_cell = first.cell(8);
  apply_access(history_cell, read_by(1), sink);
  apply_access(history_cell, read_by(2), sink);  // two readers: an out-of-line history
  ASSERT_EQ(history_cell.state, CellState::kHistory);
  first.note_owner(history_cell);

  shadow.clear();  // frees the history; the page memory is kept for reuse
  shadow.page(100);  // likely reuses the freed page object's address: a stale cache entry would show
  ShadowPage& again = cache.page(shadow, 5);
  EXPECT_EQ(&again, &shadow.page(5));  // the cache did not return the freed page object
  EXPECT_EQ(again.cell(7).state, CellState::kEmpty);
  EXPECT_EQ(again.cell(8).state, CellState::kEmpty);
  EXPECT_EQ(again.cell(8).payload, 0u);
}

TEST(PagedShadow, CacheHandsOutThePageOfEveryIndexWhateverItEvicts) {
  PagedShadow shadow;
  PageCache cache;
  // Far more pages than cache slots, including indices at power-of-two distances.
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t i = 0; i < 600; ++i) {
      const uint64_t index = (i % 3 == 0) ? i : (i << 26) + 7;
      ASSERT_EQ(&cache.page(shadow, index), &shadow.page(index)) << index;
    }
  }
}

}  // namespace
}  // namespace barracuda::engine
