#include "engine/sync_map.h"

namespace barracuda::engine {

void SyncMap::release(uint32_t domain, uint64_t address, const Knowledge& released) {
  note_release(address);
  Map::accessor entry;
  map_.insert(entry, Key{address, domain});
  Knowledge& location = entry->second;
  location = join(location, Knowledge{released.strict, location.wide, released.unfenced, released.origin});
}

void SyncMap::release_wide(uint64_t address, const SharedClock& wide) {
  note_release(address);
  Map::accessor entry;
  map_.insert(entry, Key{address, kGpuDomain});
  entry->second.wide = join(entry->second.wide, wide);
}

Knowledge SyncMap::acquire(uint32_t domain, uint64_t address) const {
  if (!may_hold(address)) return {};
  Map::const_accessor entry;
  if (!map_.find(entry, Key{address, domain})) return {};
  return entry->second;
}

}  // namespace barracuda::engine
