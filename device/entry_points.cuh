#pragma once
// The device runtime's entry points: what instrumented PTX calls (the instrumentation passes declare
// the same functions as `.extern .func`). All are extern "C" and __noinline__ so their PTX names and
// parameter lists stay exactly as written here; parameters are plain scalars.
//
// Every entry point may be called from divergent code: the lanes that arrive together
// (__activemask(), further split by site id) form one warp group, log one record with one queue
// reservation, and the record's active_mask names them.
//
// Nothing is logged before the host has stored the queue arena's address into __barracuda_queues, nor by
// a grid its kernel's launch-slot global did not name a launch for.

#include <stdint.h>

extern "C" {

// Memory access by every calling lane. `access_info` packs op, space/semantics/scope and access size
// (barracuda::pack_access_info in barracuda/queue.h); `value` is the stored value when
// kAccessHasValue is set (same-value filter), ignored otherwise. Shared-space addresses are offsets in
// the CTA's shared window; generic addresses (kAccessGeneric) are classified here. Shared lanes of a
// kAccessDeviceShared access are checked on the device when the launch has that on, not logged. A relaxed,
// volatile or legacy strong access marked kAccessNoSyncTicket is logged without a sync ticket.
__device__ __noinline__ void __barracuda_log_access(uint64_t address, uint32_t site_id, uint32_t access_info,
                                                    uint64_t value);

// Synchronisation event: `op` is a RecordOp (kFence, kBarrier, kBarrierArrive, kWarpSync,
// kClusterBarrier, kMbarrierArrive, kMbarrierWait), `space_sem` as pack_space_sem packs it (fences:
// semantics and scope), `payload` goes to RecordHeader::base and `count` to RecordHeader::stride
// (their meaning per op is documented in record_ops.inc).
__device__ __noinline__ void __barracuda_log_sync(uint32_t site_id, uint32_t op, uint32_t space_sem, uint64_t payload,
                                                  uint32_t count);

// Conditional branch about to execute: logs kBranchIf with active_mask = lanes whose `taken` is
// non-zero and base = all calling lanes.
__device__ __noinline__ void __barracuda_log_branch(uint32_t site_id, uint32_t taken);

// Immediate post-dominator of a logged branch: logs kBranchFi with the reunited lanes.
__device__ __noinline__ void __barracuda_log_reconverge(uint32_t site_id);

// Kernel entry (kWarpEntry) and each exit point (kWarpExit). `launch_slot` is the value of the kernel's
// launch-slot global (barracuda/queue.h): entry registers the grid with that launch, and every other
// entry point finds it by %gridid; kNoLaunchSlot makes the whole grid log nothing. The grid's last
// thread to exit frees its entry in the grid table.
__device__ __noinline__ void __barracuda_log_entry(uint32_t site_id, uint32_t launch_slot);
__device__ __noinline__ void __barracuda_log_exit(uint32_t site_id);

// Kernels whose shared memory the device checks (src/ptx/passes/shared_checkable_kernels.h) call
// these after their entry record and before each exit record: the warp finds or claims its block's
// slot of the shadow pool, and gives it back once the block's last thread leaves
// (device/shared_checker.cuh). They do nothing in launches with device checking off.
__device__ __noinline__ void __barracuda_shared_check_begin();
__device__ __noinline__ void __barracuda_shared_check_end();

}  // extern "C"
