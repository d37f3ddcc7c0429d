#pragma once
// Which kernel launches the application ordered with each other: CUDA's stream semantics as
// happens-before over launches, fed with every launch and every stream/event/host synchronisation
// the shim sees. Each launch gets an engine::LaunchOrder: the earlier launches it may run
// concurrently with (their conflicting global accesses race with its own) and whether a later launch
// may still overlap it.
//
// Model: a vector clock per stream (for each stream, the latest of its launches known to complete
// before the stream's next work), per recorded event, and one for the host: launches the host
// waited for. Rules (CUDA programming guide, "Implicit Synchronization" and the stream API):
//   - work on one stream runs in issue order;
//   - the legacy default stream waits for earlier work of every blocking stream of its context, and
//     every blocking stream (per-thread default streams included) waits for earlier legacy-stream work
//     of its context (each context, one per GPU as cudart uses them, has default streams of its own);
//   - cuEventRecord captures the stream's clock; cuStreamWaitEvent and cuEventSynchronize merge it;
//   - stream/context synchronisation and synchronous copies merge clocks into the host's, and
//     whatever the host waited for precedes everything it issues afterwards; a context's
//     synchronisation waits for that context's streams only (another GPU's work goes on);
//   - an NCCL collective joins the streams of its participants in this process: the work each issues
//     after it runs after the work every participant issued before it (the n-th collective of each
//     communicator of a clique match; cliques with ranks in other processes join nothing); a send and
//     the receive it matches (the n-th from one rank to another) join the two streams alike;
//   - a graph launch the shim replays node by node gives each node a lane of its own (kGraphNode):
//     its first nodes follow the stream, each node follows its predecessors, the stream follows its
//     last nodes. A node's lane is the same on every launch of its instantiated graph, which CUDA
//     runs one launch after the other.
// Where unsure it assumes order (no false alarms): the host clock is shared by all host threads
// (threads order each other through joins and locks the tool cannot see), synchronising the legacy
// stream waits for every blocking stream of its context, and a launch on the legacy stream is only
// remembered once the application has used a non-blocking stream, or once another context is in use
// (another GPU's legacy stream runs beside it; a context created only after a legacy launch is not
// taken to overlap it).
#include <cstdint>
#include <compare>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "engine/launch.h"

namespace barracuda::runtime {

enum class StreamKind : uint8_t {
  kLegacyDefault,
  kBlocking,     // created without CU_STREAM_NON_BLOCKING, or a per-thread default stream
  kNonBlocking,  // does not synchronise with the legacy default stream
  kGraphNode,    // a node of a replayed graph launch: ordered by the graph's edges only
};

// A stream as the order tells them apart: default streams by context, per-thread default streams by
// host thread too.
struct StreamRef {
  uint64_t handle = 0;  // CUstream value; 0 for the legacy default stream
  uint64_t host_thread = 0;  // per-thread default streams only
  StreamKind kind = StreamKind::kLegacyDefault;
  uint32_t graph_node = 0;  // graph node lanes: the node's position + 1; handle is the CUgraphExec
  uint64_t context = 0;     // CUcontext value (0 for graph node lanes)
  friend auto operator<=>(const StreamRef& a, const StreamRef& b) {
    return std::tie(a.context, a.handle, a.host_thread, a.graph_node) <=>
           std::tie(b.context, b.handle, b.host_thread, b.graph_node);
  }
  friend bool operator==(const StreamRef& a, const StreamRef& b) { return (a <=> b) == 0; }
};

class StreamOrder {
 public:
  // A kernel launch issued now on `stream`.
  engine::LaunchOrder launch(const StreamRef& stream);
  void record_event(uint64_t event, const StreamRef& stream);
  void wait_event(const StreamRef& stream, uint64_t event);
  // `later`'s next work waits for everything issued to `earlier` so far (graph edges).
  void follow(const StreamRef& later, const StreamRef& earlier);
  // The host waited for the event, the stream, or a whole context (cuCtxSynchronize, context reset);
  // `context` 0: every context (a wait whose reach is not known).
  void host_waits_event(uint64_t event);
  void host_waits_stream(const StreamRef& stream);
  void host_waits_context(uint64_t context);
  // Another context's work may run beside each context's (several GPUs in use): launches on legacy
  // default streams may overlap later ones too.
  void several_devices();
  // NCCL: communicator `comm` is rank `rank` of `ranks` of clique `clique`; a collective on it was
  // issued into `stream`; a send to (`send`) or a receive from rank `peer`.
  void communicator(uint64_t comm, uint64_t clique, int ranks, int rank);
  void collective(uint64_t comm, const StreamRef& stream);
  void point_to_point(uint64_t comm, int peer, bool send, const StreamRef& stream);

 private:
  using VectorClock = std::map<StreamRef, uint64_t>;  // stream -> latest launch sequence known done
  struct OpenLaunch {
    uint64_t sequence;
    StreamRef stream;
  };

  static void merge(VectorClock& into, const VectorClock& from);
  static bool knows(const VectorClock& clock, const OpenLaunch& launch);
  // What the next work on `stream` waits for, implicit legacy-stream synchronisation included.
  VectorClock clock_before_work(const StreamRef& stream) const;
  // Drops launches the host waited for: everything issued from now on is ordered after them.
  void close_waited();

  std::mutex mutex_;
  uint64_t last_sequence_ = 0;
  bool overlap_possible_ = false;  // a non-blocking stream was used, or several contexts are
  std::map<StreamRef, VectorClock> streams_;
  std::map<uint64_t, VectorClock> events_;
  VectorClock host_;
  std::vector<OpenLaunch> open_;  // launches a later launch may still overlap, in issue order
  struct Communicator {
    uint64_t clique = 0;
    int rank = 0;
    uint64_t collectives = 0;                // issued on it so far
    std::map<std::pair<int, bool>, uint64_t> transfers;  // sends to / receives from each peer so far
  };
  // Streams and their clocks at a join's arrivals.
  using Arrivals = std::vector<std::pair<StreamRef, VectorClock>>;
  // Adds `stream` to `arrivals`; once `parties` have arrived, each one's stream follows them all.
  void arrive(Arrivals& arrivals, const StreamRef& stream, size_t parties);
  struct Clique {
    int ranks = 0;
    int local_ranks = 0;  // communicators of it made in this process
  };
  std::map<uint64_t, Communicator> communicators_;
  std::map<uint64_t, Clique> cliques_;
  // Collectives not every local rank has issued yet, by clique and number.
  std::map<std::pair<uint64_t, uint64_t>, Arrivals> collectives_;
  // Sends or receives whose match has not been issued yet, by clique, sender, receiver and number.
  std::map<std::tuple<uint64_t, int, int, uint64_t>, Arrivals> transfers_;
};

}  // namespace barracuda::runtime
