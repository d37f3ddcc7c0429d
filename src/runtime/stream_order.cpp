#include "runtime/stream_order.h"

#include <algorithm>

namespace barracuda::runtime {

void StreamOrder::merge(VectorClock& into, const VectorClock& from) {
  for (const auto& [stream, sequence] : from) {
    uint64_t& known = into[stream];
    known = std::max(known, sequence);
  }
}

bool StreamOrder::knows(const VectorClock& clock, const OpenLaunch& launch) {
  const auto it = clock.find(launch.stream);
  return it != clock.end() && it->second >= launch.sequence;
}

StreamOrder::VectorClock StreamOrder::clock_before_work(const StreamRef& stream) const {
  VectorClock clock = host_;
  if (const auto own = streams_.find(stream); own != streams_.end()) merge(clock, own->second);
  for (const auto& [other, other_clock] : streams_) {
    // Graph node lanes reach the stream of their launch through its last nodes.
    if (other == stream || other.kind == StreamKind::kNonBlocking || other.kind == StreamKind::kGraphNode ||
        other.context != stream.context) {
      continue;
    }
    const bool implicit = stream.kind == StreamKind::kLegacyDefault ||
                          (stream.kind == StreamKind::kBlocking && other.kind == StreamKind::kLegacyDefault);
    if (implicit) merge(clock, other_clock);
  }
  return clock;
}

engine::LaunchOrder StreamOrder::launch(const StreamRef& stream) {
  std::lock_guard lock(mutex_);
  engine::LaunchOrder order;
  order.sequence = engine::LaunchSeq{++last_sequence_};
  VectorClock before = clock_before_work(stream);
  for (const OpenLaunch& open : open_) {
    order.still_open.push_back(engine::LaunchSeq{open.sequence});
    if (!knows(before, open)) order.concurrent_with.push_back(engine::LaunchSeq{open.sequence});
  }
  overlap_possible_ |= stream.kind == StreamKind::kNonBlocking;
  order.may_overlap_later = stream.kind != StreamKind::kLegacyDefault || overlap_possible_;
  before[stream] = last_sequence_;
  streams_[stream] = std::move(before);
  if (order.may_overlap_later) open_.push_back({last_sequence_, stream});
  return order;
}

void StreamOrder::record_event(uint64_t event, const StreamRef& stream) {
  std::lock_guard lock(mutex_);
  events_[event] = clock_before_work(stream);
}

void StreamOrder::wait_event(const StreamRef& stream, uint64_t event) {
  std::lock_guard lock(mutex_);
  const auto recorded = events_.find(event);
  if (recorded == events_.end()) return;  // never recorded: the wait completes at once
  merge(streams_[stream], recorded->second);
}

void StreamOrder::follow(const StreamRef& later, const StreamRef& earlier) {
  std::lock_guard lock(mutex_);
  VectorClock before = clock_before_work(earlier);
  merge(streams_[later], before);
}

void StreamOrder::host_waits_event(uint64_t event) {
  std::lock_guard lock(mutex_);
  const auto recorded = events_.find(event);
  if (recorded == events_.end()) return;
  merge(host_, recorded->second);
  close_waited();
}

void StreamOrder::host_waits_stream(const StreamRef& stream) {
  std::lock_guard lock(mutex_);
  merge(host_, clock_before_work(stream));
  close_waited();
}

void StreamOrder::host_waits_context(uint64_t context) {
  std::lock_guard lock(mutex_);
  for (const auto& [stream, clock] : streams_) {
    // A graph's node lanes run in the stream of their launch: their context is that stream's.
    if (context == 0 || stream.context == context || stream.kind == StreamKind::kGraphNode) merge(host_, clock);
  }
  close_waited();
}

void StreamOrder::several_devices() {
  std::lock_guard lock(mutex_);
  overlap_possible_ = true;
}

void StreamOrder::communicator(uint64_t comm, uint64_t clique, int ranks, int rank) {
  std::lock_guard lock(mutex_);
  communicators_[comm] = {clique, rank, 0, {}};
  Clique& known = cliques_[clique];
  known.ranks = ranks;
  ++known.local_ranks;
}

void StreamOrder::collective(uint64_t comm, const StreamRef& stream) {
  std::lock_guard lock(mutex_);
  const auto found = communicators_.find(comm);
  if (found == communicators_.end()) return;
  const Clique& clique = cliques_[found->second.clique];
  if (clique.local_ranks < clique.ranks) return;  // its other ranks run in other processes
  const std::pair key{found->second.clique, ++found->second.collectives};
  arrive(collectives_[key], stream, static_cast<size_t>(clique.ranks));
  if (collectives_[key].empty()) collectives_.erase(key);
}

void StreamOrder::point_to_point(uint64_t comm, int peer, bool send, const StreamRef& stream) {
  std::lock_guard lock(mutex_);
  const auto found = communicators_.find(comm);
  if (found == communicators_.end()) return;
  Communicator& own = found->second;
  const Clique& clique = cliques_[own.clique];
  if (clique.local_ranks < clique.ranks) return;  // the peer may run in another process
  const uint64_t number = ++own.transfers[{peer, send}];
  const std::tuple key{own.clique, send ? own.rank : peer, send ? peer : own.rank, number};
  arrive(transfers_[key], stream, 2);
  if (transfers_[key].empty()) transfers_.erase(key);
}

void StreamOrder::arrive(Arrivals& arrivals, const StreamRef& stream, size_t parties) {
  arrivals.emplace_back(stream, clock_before_work(stream));
  if (arrivals.size() < parties) return;
  VectorClock joined;
  for (const auto& [participant, clock] : arrivals) merge(joined, clock);
  for (const auto& [participant, clock] : arrivals) merge(streams_[participant], joined);
  arrivals.clear();
}

void StreamOrder::close_waited() {
  std::erase_if(open_, [this](const OpenLaunch& open) { return knows(host_, open); });
}

}  // namespace barracuda::runtime
