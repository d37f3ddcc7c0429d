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
  bool conflict(const Stamp&, uint32_t) override { return false; }
};

Stamp read_by(uint32_t thread, uint32_t site = 9) {
  Stamp stamp;
  stamp.thread = static_cast<ThreadId>(thread);
  stamp.clock = static_cast<Clock>(1);
  stamp.site = static_cast<SiteId>(site);
  stamp.kind.read = 1;
  return stamp;
}

Stamp write_by(uint32_t thread) {
  Stamp stamp = read_by(thread, 50);
  stamp.kind.read = 0;
  stamp.kind.write = 1;
  return stamp;
}

const LocationHistory& owned_history(const ShadowCell& cell) {
  return *reinterpret_cast<const LocationHistory*>(static_cast<uintptr_t>(cell.payload));
}

class Conflicts final : public ConflictSink {
 public:
  bool conflict(const Stamp& earlier, uint32_t) override {
    seen.push_back({raw(earlier.thread), raw(earlier.site)});
    return true;
  }
  std::vector<std::pair<uint32_t, uint32_t>> seen;  // (thread, site)
};

using Seen = std::vector<std::pair<uint32_t, uint32_t>>;

// A word read by very many threads gets one list of reads per worker; a write sees every thread's
// latest read once, in thread order, whichever list holds it. Thread 5's first read was held inline
// when the cell became a history and sits in the common list; its second comes from worker 1's own
// list, made once the common list was full. Returns what a write must see.
Seen read_from_three_workers(ShadowCell& cell, ConflictSink& sink) {
  apply_access(cell, read_by(5, 1), sink, 1);
  Seen expected = {{3, 9}, {5, 2}, {7, 9}, {9, 3}};
  for (uint32_t i = 0; i < LocationHistory::kReadsBeforeWorkerLists; ++i) {
    apply_access(cell, read_by(1000 + i), sink, static_cast<WorkerIndex>(i % 3));
    expected.push_back({1000 + i, 9});
  }
  apply_access(cell, read_by(7), sink, 0);
  apply_access(cell, read_by(5, 2), sink, 1);
  apply_access(cell, read_by(3), sink, 0);
  apply_access(cell, read_by(9, 3), sink, 2);
  return expected;
}

TEST(LocationHistory, AWriteSeesTheLatestReadOfEveryThreadAcrossWorkers) {
  Conflicts sink;
  ShadowCell cell;
  const Seen expected = read_from_three_workers(cell, sink);
  ASSERT_EQ(cell.state, CellState::kHistory);
  EXPECT_EQ(owned_history(cell).others.size(), 3u);
  EXPECT_EQ(raw(remembered_accesses(cell).read->thread), 1000 + LocationHistory::kReadsBeforeWorkerLists - 1);
  EXPECT_TRUE(sink.seen.empty());
  apply_access(cell, write_by(100), sink, 0);
  EXPECT_EQ(sink.seen, expected);
  // The reads are gone with the write: a second write sees only the first.
  sink.seen.clear();
  apply_access(cell, write_by(101), sink, 1);
  EXPECT_EQ(sink.seen, (Seen{{100, 50}}));
  reset_cell(cell);
}

TEST(LocationHistory, ASharedReadAppendsOnlyToTheWorkersOwnList) {
  Conflicts sink;
  ShadowCell cell;
  apply_access(cell, read_by(1), sink, 0);
  apply_access(cell, read_by(2), sink, 0);
  EXPECT_FALSE(apply_shared_read(cell, read_by(3), sink, 0));  // no own list yet: needs the exclusive lock
  read_from_three_workers(cell, sink);
  EXPECT_TRUE(apply_shared_read(cell, read_by(4000), sink, 2));
  EXPECT_FALSE(apply_shared_read(cell, read_by(4001), sink, 7));  // worker 7 has no list
  EXPECT_FALSE(apply_shared_read(cell, write_by(4002), sink, 2));  // writes change the cell
  apply_access(cell, write_by(100), sink, 0);
  EXPECT_EQ(sink.seen.back(), (std::pair<uint32_t, uint32_t>{4000, 9}));
  reset_cell(cell);
}

TEST(LocationHistory, SplittingAWordKeepsEveryWorkersReads) {
  Conflicts sink;
  ShadowCell cell;
  const Seen expected = read_from_three_workers(cell, sink);
  apply_word_access(cell, 0x1, write_by(100), sink, 0);  // one byte: the word splits
  ASSERT_EQ(cell.state, CellState::kSplit);
  EXPECT_EQ(sink.seen, expected);
  sink.seen.clear();
  apply_word_access(cell, 0x8, write_by(100), sink, 0);  // another byte still has all reads
  EXPECT_EQ(sink.seen, expected);
  reset_cell(cell);
}

TEST(ShadowPagePool, PagesAreDistinctAndOnlyFreshOnesAreSaidToBeEmpty) {
  ShadowPagePool pool;
  std::vector<ShadowCell*> pages;
  for (int i = 0; i < 70; ++i) {  // more than two 2 MiB slabs
    const ShadowPagePool::Page page = pool.take();
    ASSERT_TRUE(page.zeroed);
    ASSERT_TRUE(all_empty(page.cells));
    pages.push_back(page.cells);
  }
  EXPECT_EQ(std::set<ShadowCell*>(pages.begin(), pages.end()).size(), pages.size());
  for (ShadowCell* page : pages) {
    std::memset(static_cast<void*>(page), 0xA5, kShadowPageBytes);
    pool.give_back(page, 0xA5);  // the epoch bytes hold 0xA5 too
  }
  for (int i = 0; i < 70; ++i) EXPECT_FALSE(pool.take().zeroed) << "take " << i;  // reused: ShadowPage empties it
}

// The cell of word `i` of page `page_index`.
ShadowCell& cell_of(PagedShadow& shadow, uint64_t page_index, uint32_t i) {
  return shadow.cell(shadow.page(page_index), page_index * kWordsPerPage + i);
}

// Reads one cell of page 5 by two threads (an out-of-line history) and one by thread 1.
void use_page_five(PagedShadow& shadow) {
  NoConflicts sink;
  apply_access(cell_of(shadow, 5, 7), read_by(1), sink, 0);
  ShadowCell& history_cell = cell_of(shadow, 5, 8);
  apply_access(history_cell, read_by(1), sink, 0);
  apply_access(history_cell, read_by(2), sink, 1);
  ASSERT_EQ(history_cell.state, CellState::kHistory);
  shadow.page(5).note_owner(history_cell);
}

TEST(PagedShadow, ClearedPagesAreKeptAndReadEmpty) {
  PagedShadow shadow;
  use_page_five(shadow);
  std::vector<uint64_t> used;
  shadow.for_each_page([&](uint64_t index, const ShadowPage&) { used.push_back(index); });
  EXPECT_EQ(used, std::vector<uint64_t>{5});
  ShadowPage* const first = &shadow.page(5);

  shadow.clear();  // frees the history (a leak under ASan otherwise); the page stays
  EXPECT_EQ(&shadow.page(5), first);
  used.clear();
  shadow.for_each_page([&](uint64_t index, const ShadowPage&) { used.push_back(index); });
  EXPECT_TRUE(used.empty());
  const ShadowPage& untouched = *first;
  for (uint32_t i = 0; i < kWordsPerPage; ++i) ASSERT_EQ(untouched.cell(i).state, CellState::kEmpty) << i;
  EXPECT_EQ(cell_of(shadow, 5, 7).state, CellState::kEmpty);
  EXPECT_EQ(cell_of(shadow, 5, 8).state, CellState::kEmpty);
  EXPECT_EQ(cell_of(shadow, 5, 8).payload, 0u);
}

TEST(PagedShadow, EveryEpochStartsEmptyAcrossTheEpochCounterWrapping) {
  PagedShadow shadow;
  NoConflicts sink;
  for (uint32_t launch = 0; launch < 600; ++launch) {  // the 8-bit epoch wraps twice
    const uint32_t word = launch % 3;
    const ShadowPage& page = shadow.page(9);
    for (uint32_t i = 0; i < 3; ++i) ASSERT_EQ(page.cell(i).state, CellState::kEmpty) << launch << " " << i;
    ShadowCell& cell = cell_of(shadow, 9, word);
    ASSERT_EQ(cell.state, CellState::kEmpty) << launch;
    apply_access(cell, write_by(launch + 1), sink, 0);
    ASSERT_EQ(page.cell(word).state, CellState::kWrite);
    shadow.clear();
  }
}

TEST(PagedShadow, DroppedPagesComeBackEmptyAndCachesForgetThem) {
  PagedShadow shadow(/*max_kept_pages=*/2);
  PageCache cache;
  ShadowPage& first = cache.page(shadow, 5);
  ASSERT_EQ(&first, &shadow.page(5));
  use_page_five(shadow);
  // Garbage in every other cell: a reused page must not show it.
  for (uint32_t i = 64; i < kWordsPerPage; ++i) {
    std::memset(static_cast<void*>(&cell_of(shadow, 5, i)), 0xA5, sizeof(ShadowCell) - 1);
  }
  shadow.page(6);
  shadow.page(7);
  const uint64_t generation = shadow.generation();

  shadow.clear();  // three pages, more than two kept: every page goes back to the pool
  EXPECT_NE(shadow.generation(), generation);
  shadow.page(100);  // likely reuses the freed page object's address: a stale cache entry would show
  ShadowPage& again = cache.page(shadow, 5);
  EXPECT_EQ(&again, &shadow.page(5));  // the cache did not return the freed page object
  const ShadowPage& untouched = again;
  for (uint32_t i = 0; i < kWordsPerPage; ++i) ASSERT_EQ(untouched.cell(i).state, CellState::kEmpty) << i;
  for (uint32_t i = 0; i < kWordsPerPage; ++i) ASSERT_EQ(cell_of(shadow, 5, i).payload, 0u) << i;
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
