#include "report/fingerprint.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>

#include "report/names.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

// Fields are length-prefixed so ("ab","c") and ("a","bc") hash differently.
class Fnv1a64 {
 public:
  void add(std::string_view field) {
    add_bytes(std::to_string(field.size()));
    add_bytes(":");
    add_bytes(field);
  }
  uint64_t value() const { return hash_; }

 private:
  void add_bytes(std::string_view bytes) {
    for (unsigned char c : bytes) {
      hash_ ^= c;
      hash_ *= 0x100000001b3ull;
    }
  }
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

// Source position when the kernel had line info (stable across recompiles that keep the source),
// the PTX line otherwise.
std::string site_key(const Access& access) {
  const Site& site = access.site;
  std::string key = site.function + '@' +
                    (site.source.known() ? source_location_text(site.source) : "ptx:" + std::to_string(site.ptx_line));
  for (const InlinedFrame& frame : site.inlined_at) {
    key += '<' + frame.function + '@' + source_location_text(frame.location);
  }
  key += '/';
  key += name_of(kAccessOperationNames, access.kind);
  return key;
}

std::string_view hazard_family(Hazard hazard) {
  switch (hazard) {
    case Hazard::kReadAfterWrite:
    case Hazard::kWriteAfterRead: return "read-write";
    case Hazard::kWriteAfterWrite: return "write-write";
    case Hazard::kAtomicPlain: return "atomic-plain";
  }
  return "unknown";
}

}  // namespace

std::string race_fingerprint(const Race& race) {
  std::pair<std::string, std::string> sites{site_key(race.previous), site_key(race.current)};
  if (sites.second < sites.first) std::swap(sites.first, sites.second);
  Fnv1a64 hash;
  hash.add(race.kernel);
  hash.add(sites.first);
  hash.add(sites.second);
  hash.add(name_of(kRaceClassNames, race.race_class));
  hash.add(hazard_family(race.hazard));
  hash.add(name_of(kMemorySpaceNames, race.space));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, hash.value());
  return hex;
}

}  // namespace barracuda::report
