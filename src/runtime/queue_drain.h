#pragma once
// Consumer side of the queue protocol (barracuda/queue.h), independent of how the bytes reach the
// host: the ring may be the mapped ring itself or a copy of it; drain_queue turns the published
// records from the read head on into whole records, zeroes their slots, and the caller stores the
// returned read head back (and, for a copy, zeroes the same slots in the original).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/queue_record.h"

namespace barracuda::runtime {

struct DrainResult {
  uint64_t read_head = 0;  // new read head: store it into QueueControl::read_head
  uint64_t records = 0;    // records appended to the output
  std::optional<std::string> error;  // a malformed record stopped the drain at read_head
};

// Appends every record published in `ring` (the queue's capacity slots; a power of two) from
// `read_head` on to `out` in order, each record contiguous even where it wrapped around the end of
// the ring, and zeroes the slots it took. Stops at the first slot whose op is still 0 (unwritten).
// Word 0 of each record is read with acquire ordering: the producer stores it last (release).
DrainResult drain_queue(std::span<QueueSlot> ring, uint64_t read_head, std::vector<QueueSlot>& out);

}  // namespace barracuda::runtime
