// The record decoder compiled for the GPU (the check core of issue #23 will decode records there):
// built to PTX with the device runtime's flags, so a host-only construct in record_view.h breaks the
// build. record_view_test checks that the kernel came out.
#include "barracuda/record_view.h"

extern "C" __global__ void decode_records(const barracuda::RecordHeader* slots, unsigned long long* sums) {
  const barracuda::RecordView record(slots[0], slots + 1);
  if (record.defect() != barracuda::RecordDefect::kNone || !record.is_memory_access()) return;
  sums[threadIdx.x] = record.lane_address(threadIdx.x % barracuda::kWarpSize) + record.access_bytes() +
                      static_cast<unsigned>(record.kind()) + static_cast<unsigned>(record.space());
}
