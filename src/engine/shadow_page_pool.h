#pragma once
// Memory for the pages of a PagedShadow. Pages come from 2 MiB slabs that the kernel may back with
// transparent huge pages (one fault and one TLB entry per 32 pages: scattered accesses touch a
// page per lane), and come back to the pool when the shadow drops them, to be reused instead of
// being unmapped and faulted in again. A reused page is not emptied here: it comes back with the
// epoch its cells were last written in, and the next ShadowPage starts a later one (a scattered
// access touches one cell of 4096: emptying the page would be most of the work).
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/shadow_cell.h"

namespace barracuda::engine {

// 16 KiB of application memory, 64 KiB of shadow.
inline constexpr uint32_t kWordsPerPage = 4096;
inline constexpr size_t kShadowPageBytes = size_t{kWordsPerPage} * sizeof(ShadowCell);

class ShadowPagePool {
 public:
  ShadowPagePool() = default;
  ~ShadowPagePool();
  ShadowPagePool(const ShadowPagePool&) = delete;
  ShadowPagePool& operator=(const ShadowPagePool&) = delete;

  // Room for kWordsPerPage cells. Throws std::bad_alloc. Safe to call concurrently.
  struct Page {
    ShadowCell* cells;
    bool zeroed;  // never written since mapped or discarded: all zero bytes
    // Otherwise: every cell's epoch is at most this one (ShadowCell::epoch).
    uint8_t last_epoch;
  };
  Page take();
  // Returns a page from take(); the caller has freed what its cells owned, and no cell's epoch is
  // above `last_epoch`.
  void give_back(ShadowCell* cells, uint8_t last_epoch) noexcept;

 private:
  void map_slab();  // called with mutex_ held

  std::mutex mutex_;
  std::vector<void*> slabs_;
  std::vector<ShadowCell*> zeroed_;  // never written since mapped or discarded: all zero
  std::vector<std::pair<ShadowCell*, uint8_t>> dirty_;  // used before, with their last epochs
};

}  // namespace barracuda::engine
