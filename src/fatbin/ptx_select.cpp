#include "fatbin/ptx_select.h"

#include <tuple>

#include "fatbin/format.h"

namespace barracuda::fatbin {
namespace {

bool runs_on(const Entry& entry, SmArch device) {
  if (entry.kind != EntryKind::Ptx || entry.arch > device) return false;
  if (entry.flags & flag::kArchSpecific) return entry.arch == device;
  if (entry.flags & flag::kFamilySpecific) return entry.arch.value / 10 == device.value / 10;
  return true;
}

}  // namespace

const Entry* select_ptx(std::span<const Entry> entries, SmArch device) {
  const Entry* best = nullptr;
  for (const Entry& entry : entries) {
    if (!runs_on(entry, device)) continue;
    if (best == nullptr || std::tie(entry.arch, entry.version) > std::tie(best->arch, best->version)) best = &entry;
  }
  return best;
}

std::vector<const Entry*> select_ptx_per_container(std::span<const Container> containers, SmArch device) {
  std::vector<const Entry*> selected;
  for (const Container& container : containers) {
    if (const Entry* ptx = select_ptx(container.entries, device)) selected.push_back(ptx);
  }
  return selected;
}

}  // namespace barracuda::fatbin
