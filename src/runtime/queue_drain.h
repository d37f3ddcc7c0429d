#pragma once
// Consumer side of the queue protocol (barracuda/queue.h), independent of how the bytes reach the
// host: the caller copies a queue's control fields and ring out of device memory, drain_queue turns
// the committed slots into whole records, and the caller stores the returned read head back.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/queue_record.h"

namespace barracuda::runtime {

// The consumer's view of one queue's control block.
struct QueueSnapshot {
  uint64_t read_head;     // slots consumed so far (QueueControl::read_head)
  uint64_t commit_index;  // slots published by the device, read *before* the ring was copied
};

struct DrainResult {
  uint64_t read_head = 0;  // new read head: store it into QueueControl::read_head
  uint64_t records = 0;    // records appended to the output
  std::optional<std::string> error;  // a malformed record stopped the drain at read_head
};

// Appends every record in [snapshot.read_head, snapshot.commit_index) of `ring` (the queue's
// capacity slots; a power of two) to `out` in order, each record contiguous even where it wrapped
// around the end of the ring.
DrainResult drain_queue(std::span<const QueueSlot> ring, QueueSnapshot snapshot, std::vector<QueueSlot>& out);

}  // namespace barracuda::runtime
