#pragma once
// What a block's threads saw of flags written without a release: a relaxed, volatile or atomic read
// of another thread's relaxed, volatile or atomic write that nothing ordered. Such a read orders
// nothing in the PTX model, so a race the write's thread and the reader go on to have stays a race;
// but it is how the program meant to hand the data over, and a fence before the write and one after
// the read would make it a release and an acquire (FlagHandOff, `barracuda harden`).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/findings.h"
#include "engine/ids.h"
#include "engine/race_log.h"

namespace barracuda::engine {

struct FlagObservation {
  ThreadId writer{};
  Clock writer_clock{};  // the writer's clock at its flag write (its accesses up to it were before); 0: none
  Clock reader_clock{};  // the reader's clock at its flag read
  SiteId write_site{};
  SiteId read_site{};
  uint64_t address = 0;

  bool valid() const { return raw(writer_clock) != 0; }
  // Whether `writer`'s access at `clock` came before this flag write (the flag can hand it over).
  bool follows(ThreadId access_thread, Clock clock) const {
    return valid() && writer == access_thread && raw(clock) <= raw(writer_clock);
  }
  // Whether the flag is the word at `address` itself: the flag's own accesses racing with each other
  // (a volatile flag read once) are not handed over by it.
  bool is_word_of(uint64_t word_address) const { return address / 4 == word_address / 4; }
  FlagHandOff hand_off() const { return {write_site, read_site, address, true}; }
};
static_assert(sizeof(FlagObservation) == 32, "a histogram notes one per atomic: kept small");

// Which read saw the flag: a relaxed or volatile load, or an atomic (kept apart, so that a counter
// bumped between a flag's read and the data does not push the flag out).
enum class FlagRead : uint8_t { kLoad = 0, kAtomic = 1 };

class FlagObservations {
 public:
  // Thread `local` (of `threads` in the block) read a flag: kept as its latest observation of that kind.
  void note(uint32_t local, uint32_t threads, FlagRead read, const FlagObservation& observation) {
    if (latest_.empty()) [[unlikely]] latest_.resize(threads);
    std::array<FlagObservation, 2>& mine = latest_[local];
    if (!mine[0].valid() && !mine[1].valid()) observers_.push_back(local);
    mine[static_cast<size_t>(read)] = observation;
  }
  // Thread `local` read word `address` again with an atomic (a spin's next iteration): it meets its own
  // atomic there, not the flag's write, but the read to fence after is the latest one.
  void reread_by_atomic(uint32_t local, uint64_t address, SiteId site, Clock clock) {
    if (local >= latest_.size()) return;
    FlagObservation& o = latest_[local][static_cast<size_t>(FlagRead::kAtomic)];
    if (o.valid() && o.address / 4 == address / 4) {
      o.read_site = site;
      o.reader_clock = clock;
    }
  }
  // An observation that hands writer's access at `clock` over to thread `local`: its own, or a
  // block-mate's whose read `local` is ordered after (knows(reader, reader_clock): a barrier after a
  // single thread's spin). Of several, the flag written first after the access (a counter bumped
  // after the flag hands it over too, but the flag is what the program meant). Empty where none does.
  template <typename Knows>
  std::optional<FlagObservation> handing_over(uint32_t local, ThreadId writer, Clock clock, Knows&& knows) const {
    std::optional<FlagObservation> best;
    const auto consider = [&](const FlagObservation& o) {
      if (o.follows(writer, clock) && (!best || raw(o.writer_clock) < raw(best->writer_clock))) {
        best = o;
      }
    };
    if (local < latest_.size()) {
      for (const FlagObservation& o : latest_[local]) consider(o);
    }
    if (best) return best;
    for (uint32_t reader : observers_) {
      if (reader == local) continue;
      for (const FlagObservation& o : latest_[reader]) {
        if (knows(reader, o.reader_clock)) consider(o);
      }
    }
    return best;
  }

 private:
  std::vector<std::array<FlagObservation, 2>> latest_;  // by thread, then FlagRead; sized on first note
  std::vector<uint32_t> observers_;                     // threads with an observation
};

// A flag write checked after a read of the flag by another thread that nothing ordered (the engine
// applies queues in the order it drains them, which kernels without fences do not constrain): the
// read may have found this write's value on the GPU. Races of the two threads that lack a flag get it
// at the end of the launch, if their accesses lie on the right sides of the flag's write and read.
struct LateFlagWrite {
  FlagObservation observation;
  ThreadId reader{};
};

// Kept per worker for the launch; at most this many (a launch with more keeps its first ones).
inline constexpr size_t kMaxLateFlagWrites = 4096;

// The launch's late flag writes (every worker's), by writer and reader: each race looks at its own
// threads' writes only, of the thousands a launch may keep (most of them a counter's bumps).
class LateFlagWrites {
 public:
  explicit LateFlagWrites(std::vector<LateFlagWrite> writes);
  // Names the flag of each of `races`' plain races that one of the writes hands over.
  void name_flags(RaceLog& races) const;

 private:
  std::optional<FlagHandOff> handing_over(ThreadId writer, Clock writer_clock, ThreadId reader, Clock reader_clock,
                                          uint64_t data_address) const;

  std::vector<LateFlagWrite> writes_;
};

}  // namespace barracuda::engine
