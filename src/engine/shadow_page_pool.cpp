#include "engine/shadow_page_pool.h"

#include <sys/mman.h>

#include <new>

namespace barracuda::engine {
namespace {

constexpr size_t kSlabBytes = size_t{2} << 20;  // one x86-64 huge page
constexpr size_t kPagesPerSlab = kSlabBytes / kShadowPageBytes;
static_assert(kSlabBytes % kShadowPageBytes == 0);
// Used pages kept for reuse; beyond this, a page handed back is discarded (MADV_DONTNEED: its
// memory goes back to the system and reads as zero again), so one huge launch does not pin its
// whole shadow for the rest of the session.
constexpr size_t kMaxDirtyPages = size_t{1} << 14;  // 1 GiB of shadow

}  // namespace

ShadowPagePool::~ShadowPagePool() {
  for (void* slab : slabs_) munmap(slab, kSlabBytes);
}

void ShadowPagePool::map_slab() {
  // Over-allocate to align the slab to its size: the kernel only backs aligned 2 MiB ranges with
  // huge pages.
  void* mapped = mmap(nullptr, 2 * kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  auto* begin = static_cast<std::byte*>(mapped);
  const uintptr_t misalignment = reinterpret_cast<uintptr_t>(begin) % kSlabBytes;
  std::byte* slab = misalignment == 0 ? begin : begin + (kSlabBytes - misalignment);
  if (slab != begin) munmap(begin, static_cast<size_t>(slab - begin));
  if (slab + kSlabBytes != begin + 2 * kSlabBytes) munmap(slab + kSlabBytes, static_cast<size_t>(begin + 2 * kSlabBytes - (slab + kSlabBytes)));
  // Advice only: without huge pages the slab still works. Not faulted in here (MADV_POPULATE_WRITE):
  // a scattered access uses one page of a slab's 32, and zeroing the other 31 up front made
  // BM_Recorded/bfs 35x slower on this VM (815-850 ms against 16-586 ms faulted on first touch).
  madvise(slab, kSlabBytes, MADV_HUGEPAGE);
  slabs_.push_back(slab);
  for (size_t i = kPagesPerSlab; i-- > 0;) zeroed_.push_back(reinterpret_cast<ShadowCell*>(slab + i * kShadowPageBytes));
}

ShadowPagePool::Page ShadowPagePool::take() {
  std::lock_guard lock(mutex_);
  if (dirty_.empty()) {
    if (zeroed_.empty()) map_slab();
    ShadowCell* cells = zeroed_.back();
    zeroed_.pop_back();
    return {cells, true, 0};
  }
  const auto [cells, last_epoch] = dirty_.back();
  dirty_.pop_back();
  return {cells, false, last_epoch};
}

void ShadowPagePool::give_back(ShadowCell* cells, uint8_t last_epoch) noexcept {
  std::lock_guard lock(mutex_);
  try {
    if (dirty_.size() < kMaxDirtyPages) {
      dirty_.emplace_back(cells, last_epoch);
      return;
    }
    madvise(cells, kShadowPageBytes, MADV_DONTNEED);
    zeroed_.push_back(cells);
  } catch (const std::bad_alloc&) {
    // No room to list the page: it stays mapped, unused, until the pool unmaps its slab.
    madvise(cells, kShadowPageBytes, MADV_DONTNEED);
  }
}

}  // namespace barracuda::engine
