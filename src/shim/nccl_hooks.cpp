#include "shim/nccl_hooks.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include <cuda.h>

#include "shim/real_driver.h"
#include "shim/shim_runtime.h"

namespace {
using NcclResult = barracuda::shim::nccl::Result;
using NcclComm = barracuda::shim::nccl::Comm;
using NcclUniqueId = barracuda::shim::nccl::UniqueId;
constexpr NcclResult kNcclSuccess = barracuda::shim::nccl::kSuccess;
}  // namespace

namespace barracuda::shim {
namespace {

// The wrapped entry points, in the order of kNames.
enum class NcclEntry : std::size_t {
  kCommInitAll,
  kCommInitRank,
  kCommInitRankConfig,
  kAllReduce,
  kBroadcast,
  kReduce,
  kAllGather,
  kReduceScatter,
  kSend,
  kRecv,
  kCount
};
constexpr std::array<std::string_view, static_cast<std::size_t>(NcclEntry::kCount)> kNames{
    "ncclCommInitAll", "ncclCommInitRank", "ncclCommInitRankConfig", "ncclAllReduce",
    "ncclBroadcast",   "ncclReduce",       "ncclAllGather",          "ncclReduceScatter",
    "ncclSend",        "ncclRecv"};

std::array<std::atomic<void*>, kNames.size()> real_entries{};

// NCCL's definition of `entry`: the one dlsym found, else the next one after the preload library's, else
// the one of the libnccl already loaded where the global scope does not reach it (a Python extension
// module's dependency, opened RTLD_LOCAL, binds its calls to the preload library's exports all the same).
template <typename Function>
Function real(NcclEntry entry) {
  std::atomic<void*>& slot = real_entries[static_cast<std::size_t>(entry)];
  void* found = slot.load(std::memory_order_acquire);
  if (found == nullptr) {
    const DlsymFunction lookup = real_dlsym();
    const std::string name(kNames[static_cast<std::size_t>(entry)]);
    found = lookup != nullptr ? lookup(RTLD_NEXT, name.c_str()) : nullptr;
    if (found == nullptr && lookup != nullptr) {
      if (void* loaded = dlopen("libnccl.so.2", RTLD_NOW | RTLD_NOLOAD)) found = lookup(loaded, name.c_str());
    }
    void* expected = nullptr;
    if (found != nullptr && !slot.compare_exchange_strong(expected, found)) found = expected;
  }
  return reinterpret_cast<Function>(found);
}

void announce(const SyncEvent& event) {
  ShimRuntime& runtime = shim_runtime();
  runtime.sync_observers.for_each([&](SyncObserver& observer) { observer.synchronized(event); });
}

void announce_communicator(NcclComm comm, uint64_t clique, int ranks, int rank) {
  SyncEvent event{SyncKind::kCommunicatorCreated};
  event.communicator = comm;
  event.clique = clique;
  event.ranks = ranks;
  event.rank = rank;
  announce(event);
}

// FNV-1a over the unique id: the ranks of one clique were all given the same one.
uint64_t clique_of(const NcclUniqueId& id) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char byte : id.internal) hash = (hash ^ static_cast<unsigned char>(byte)) * 0x100000001b3ull;
  return hash | 1;  // never 0
}

// `call()` makes the collective (or the send or receive, to or from `peer`); on success it is announced
// with its communicator and stream. NCCL's own launches, event records and waits inside the call are
// the application's as far as the shim is concerned.
template <typename Call>
NcclResult collective(NcclComm comm, CUstream stream, Call&& call, SyncKind kind = SyncKind::kCollective,
                      int peer = 0) {
  const NcclResult result = call();
  if (result != kNcclSuccess) return result;
  SyncEvent event{kind};
  event.communicator = comm;
  event.stream = stream;
  event.peer = peer;
  announce(event);
  return result;
}

}  // namespace
}  // namespace barracuda::shim

using barracuda::shim::NcclEntry;
using barracuda::shim::real;

extern "C" {

NcclResult ncclCommInitAll(NcclComm* comms, int count, const int* devices) {
  const auto call = real<NcclResult (*)(NcclComm*, int, const int*)>(NcclEntry::kCommInitAll);
  if (call == nullptr) return 1;  // ncclUnhandledCudaError: no NCCL behind the preload library
  const NcclResult result = call(comms, count, devices);
  if (result != kNcclSuccess || comms == nullptr) return result;
  // One clique: named by its first communicator.
  for (int rank = 0; rank < count; ++rank) {
    barracuda::shim::announce_communicator(comms[rank], reinterpret_cast<uint64_t>(comms[0]), count, rank);
  }
  return result;
}

NcclResult ncclCommInitRank(NcclComm* comm, int ranks, NcclUniqueId id, int rank) {
  const auto call = real<NcclResult (*)(NcclComm*, int, NcclUniqueId, int)>(NcclEntry::kCommInitRank);
  if (call == nullptr) return 1;
  const NcclResult result = call(comm, ranks, id, rank);
  if (result == kNcclSuccess && comm != nullptr) {
    barracuda::shim::announce_communicator(*comm, barracuda::shim::clique_of(id), ranks, rank);
  }
  return result;
}

NcclResult ncclCommInitRankConfig(NcclComm* comm, int ranks, NcclUniqueId id, int rank, void* config) {
  const auto call = real<NcclResult (*)(NcclComm*, int, NcclUniqueId, int, void*)>(NcclEntry::kCommInitRankConfig);
  if (call == nullptr) return 1;
  const NcclResult result = call(comm, ranks, id, rank, config);
  if (result == kNcclSuccess && comm != nullptr) {
    barracuda::shim::announce_communicator(*comm, barracuda::shim::clique_of(id), ranks, rank);
  }
  return result;
}

NcclResult ncclAllReduce(const void* send, void* receive, size_t count, int type, int op, NcclComm comm,
                         CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, void*, size_t, int, int, NcclComm, CUstream)>(
      NcclEntry::kAllReduce);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(comm, stream, [&] { return call(send, receive, count, type, op, comm, stream); });
}

NcclResult ncclBroadcast(const void* send, void* receive, size_t count, int type, int root, NcclComm comm,
                         CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, void*, size_t, int, int, NcclComm, CUstream)>(
      NcclEntry::kBroadcast);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(comm, stream,
                                     [&] { return call(send, receive, count, type, root, comm, stream); });
}

NcclResult ncclReduce(const void* send, void* receive, size_t count, int type, int op, int root, NcclComm comm,
                      CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, void*, size_t, int, int, int, NcclComm, CUstream)>(
      NcclEntry::kReduce);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(comm, stream,
                                     [&] { return call(send, receive, count, type, op, root, comm, stream); });
}

NcclResult ncclAllGather(const void* send, void* receive, size_t count, int type, NcclComm comm, CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, void*, size_t, int, NcclComm, CUstream)>(NcclEntry::kAllGather);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(comm, stream, [&] { return call(send, receive, count, type, comm, stream); });
}

NcclResult ncclReduceScatter(const void* send, void* receive, size_t count, int type, int op, NcclComm comm,
                             CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, void*, size_t, int, int, NcclComm, CUstream)>(
      NcclEntry::kReduceScatter);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(comm, stream, [&] { return call(send, receive, count, type, op, comm, stream); });
}

NcclResult ncclSend(const void* send, size_t count, int type, int peer, NcclComm comm, CUstream stream) {
  const auto call = real<NcclResult (*)(const void*, size_t, int, int, NcclComm, CUstream)>(NcclEntry::kSend);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(
      comm, stream, [&] { return call(send, count, type, peer, comm, stream); }, barracuda::shim::SyncKind::kSend,
      peer);
}

NcclResult ncclRecv(void* receive, size_t count, int type, int peer, NcclComm comm, CUstream stream) {
  const auto call = real<NcclResult (*)(void*, size_t, int, int, NcclComm, CUstream)>(NcclEntry::kRecv);
  if (call == nullptr) return 1;
  return barracuda::shim::collective(
      comm, stream, [&] { return call(receive, count, type, peer, comm, stream); },
      barracuda::shim::SyncKind::kReceive, peer);
}

}  // extern "C"

namespace barracuda::shim {

bool is_wrapped_nccl_symbol(std::string_view name) {
  for (const std::string_view wrapped : kNames) {
    if (wrapped == name) return true;
  }
  return false;
}

void* nccl_wrapper_for(std::string_view name, void* found) {
  static const std::array<void*, kNames.size()> kWrappers{
      reinterpret_cast<void*>(&ncclCommInitAll),   reinterpret_cast<void*>(&ncclCommInitRank),
      reinterpret_cast<void*>(&ncclCommInitRankConfig), reinterpret_cast<void*>(&ncclAllReduce),
      reinterpret_cast<void*>(&ncclBroadcast),     reinterpret_cast<void*>(&ncclReduce),
      reinterpret_cast<void*>(&ncclAllGather),     reinterpret_cast<void*>(&ncclReduceScatter),
      reinterpret_cast<void*>(&ncclSend),          reinterpret_cast<void*>(&ncclRecv)};
  for (std::size_t entry = 0; entry < kNames.size(); ++entry) {
    if (kNames[entry] != name) continue;
    void* expected = nullptr;
    if (!real_entries[entry].compare_exchange_strong(expected, found) && expected != found) return nullptr;
    return kWrappers[entry];
  }
  return nullptr;
}

}  // namespace barracuda::shim
