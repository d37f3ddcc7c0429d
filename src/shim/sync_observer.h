#pragma once
// Notifications of the application's synchronisation calls, for the runtime's order of launches, and
// of context teardown. Each is sent from the calling thread after the driver call succeeded, except
// teardown, which is announced before the call (the context's memory must still be there).
#include <cuda.h>

#include "shim/graph_node_ref.h"

namespace barracuda::shim {

enum class SyncKind : unsigned char {
  kEventRecorded,     // cuEventRecord(event, stream)
  kStreamWaitsEvent,  // cuStreamWaitEvent(stream, event)
  kHostWaitedStream,  // cuStreamSynchronize / a cuStreamQuery that found the stream idle; synchronous copies
  kHostWaitedEvent,   // cuEventSynchronize / a cuEventQuery that found the event complete
  kHostWaitedContext,  // cuCtxSynchronize (`context` null: the calling thread's current one)
  kHostWaitedDevice,   // cuMemFree: every context, as far as the tool knows
  // cuMemcpyPeer: the copy runs after the work issued before it to the current context, `context` (the
  // destination's) and `source_context`, and their later work runs after it.
  kPeerCopy,
  kContextTeardown,   // cuDevicePrimaryCtxReset (cudaDeviceReset) of `device`, cuCtxDestroy of `context`
  kContextRelease,    // cuDevicePrimaryCtxRelease of `device`: its last release destroys the context
  // A graph launch the shim replays node by node runs its nodes one after the other on `stream`, but the
  // graph only orders them by its edges: each node is announced as a lane of its own. Sent before the
  // node runs; an event record or wait node is kEventRecorded / kStreamWaitsEvent with `graph_node` set.
  kGraphNodeFollowsStream,  // graph_node, a first node, runs after the work issued to `stream` before
  kGraphNodeFollowsNode,    // graph_node runs after earlier_node (an edge of the graph)
  kStreamFollowsGraphNode,  // work issued to `stream` from now on runs after graph_node (a last node)
  // NCCL (shim/nccl_hooks.h): a communicator was made, rank `rank` of `ranks` in clique `clique`; a
  // collective was issued on `communicator` into `stream`; a send to / receive from rank `peer`.
  kCommunicatorCreated,
  kCollective,
  kSend,
  kReceive,
};

struct SyncEvent {
  SyncKind kind;
  CUstream stream = nullptr;
  CUevent event = nullptr;
  bool per_thread_stream = false;  // the call was a "_ptsz"/"_ptds" variant: stream 0 is the thread's own
  CUcontext context = nullptr;     // teardown by cuCtxDestroy; kHostWaitedContext; kPeerCopy
  CUcontext source_context = nullptr;  // kPeerCopy
  CUdevice device = -1;            // teardown by cuDevicePrimaryCtxReset, cuDevicePrimaryCtxRelease
  GraphNodeRef graph_node;         // the kGraphNode* kinds; event record and wait nodes: in place of `stream`
  GraphNodeRef earlier_node;       // kGraphNodeFollowsNode
  const void* communicator = nullptr;  // kCommunicatorCreated, kCollective, kSend, kReceive: an ncclComm_t
  uint64_t clique = 0;                 // kCommunicatorCreated: the same for every rank of one clique
  int ranks = 0;                       // kCommunicatorCreated: how many ranks the clique has
  int rank = 0;                        // kCommunicatorCreated: the communicator's own
  int peer = 0;                        // kSend, kReceive
};

class SyncObserver {
 public:
  virtual ~SyncObserver() = default;
  virtual void synchronized(const SyncEvent& event) = 0;
};

}  // namespace barracuda::shim
