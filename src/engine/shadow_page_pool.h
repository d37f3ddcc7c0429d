#pragma once
// Memory for the pages of a PagedShadow. Pages come from 2 MiB slabs that the kernel may back with
// transparent huge pages (one fault and one TLB entry per 32 pages: scattered accesses touch a
// page per lane), and go back to the pool when a launch ends, to be reused by the next launch
// instead of being unmapped and faulted in again. A reused page is not emptied here: the page
// empties the parts it touches (ShadowPage), since a scattered access touches one cell of 4096.
#include <cstddef>
#include <cstdint>
#include <mutex>
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
    bool zeroed;  // never written since mapped or discarded: all empty cells; else garbage
  };
  Page take();
  // Returns a page from take(); the caller has freed what its cells owned.
  void give_back(ShadowCell* cells) noexcept;

 private:
  void map_slab();  // called with mutex_ held

  std::mutex mutex_;
  std::vector<void*> slabs_;
  std::vector<ShadowCell*> zeroed_;  // never written since mapped or discarded: all zero
  std::vector<ShadowCell*> dirty_;   // used before
};

}  // namespace barracuda::engine
