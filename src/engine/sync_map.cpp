#include "engine/sync_map.h"

namespace barracuda::engine {

namespace {

void join_release(Knowledge& location, const Knowledge& released) {
  location = join(location, Knowledge{released.strict, location.wide, released.unfenced, released.origin});
}

}  // namespace

void SyncMap::release_to_cluster(uint32_t cluster, uint64_t address, const Knowledge& released) {
  note_release(address);
  Map::accessor entry;
  map_.insert(entry, Key{address, cluster});
  join_release(current(entry, generation_), released);
}

void SyncMap::release_to_gpu(uint64_t address, const Knowledge& released, const SharedClock& wide, bool reaches_gpu) {
  note_release(address);
  Map::accessor entry;
  map_.insert(entry, Key{address, kGpuDomain});
  Knowledge& location = current(entry, generation_);
  if (reaches_gpu) join_release(location, released);
  location.wide = join(location.wide, wide);
}

Knowledge SyncMap::acquire(uint32_t domain, uint64_t address) const {
  if (!may_hold(address)) return {};
  Map::const_accessor entry;
  if (!map_.find(entry, Key{address, domain}) || entry->second.generation != generation_) return {};
  return entry->second.knowledge;
}

}  // namespace barracuda::engine
