// End-to-end fixture for processes that use two GPUs (exits 77 where fewer than two can reach each
// other's memory). Every mode prints only what does not depend on timing, so the output natively and
// under the tool is the same.
//   peer_race:        GPU 0 writes a buffer in GPU 1's memory; GPU 1 reads it; nothing orders them.
//   peer_event:       the same, with an event recorded after the write and waited for before the read.
//   sync_wrong_device: the host synchronises GPU 1 (not the writer) between them: still a race.
//   sync_writer:      the host synchronises GPU 0, the writer, between them: ordered.
//   peer_copy:        a cudaMemcpyPeer of GPU 0's buffer to GPU 1 between them (serialised with both
//                     GPUs' work): ordered.
//   threads:          one host thread per GPU, each filling its own buffer; after joining them a kernel
//                     on GPU 0 sums both buffers (GPU 1's through peer access): ordered.
//   threads_racy:     one host thread per GPU, both writing one managed buffer with nothing between.
//   managed:          a kernel on GPU 0 writes managed memory that a kernel on GPU 1 then reads, with
//                     GPU 0 synchronised in between: ordered.
//   managed_racy:     the same without the synchronisation.
//   atomics_gpu:      both GPUs add into one word with device-scope atomics: they do not cover the other
//                     GPU (a race); atomics_system: the same with system scope (no race).
//   only_device1:     GPU 1 alone, a racy kernel: checked as on GPU 0.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

#include "cuda_check.h"

namespace {

constexpr int kWords = 256;


__global__ void fill(int* data, int value) { data[threadIdx.x] = value + static_cast<int>(threadIdx.x); }

__global__ void read_into(const int* data, int* sink) {
  // Stored only where it cannot be seen: the output must not depend on the order the race takes.
  if (data[threadIdx.x] == -12345) sink[threadIdx.x] = 1;
}

__global__ void sum_two(const int* a, const int* b, int* out) {
  atomicAdd(out, a[threadIdx.x] + b[threadIdx.x]);
}

__global__ void add_device_scope(int* word) { atomicAdd(word, 1); }
__global__ void add_system_scope(int* word) { atomicAdd_system(word, 1); }

__global__ void racy_single(int* data) { data[threadIdx.x % 4] = static_cast<int>(threadIdx.x); }  // one warp

int peers_ready() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) return 0;
  int forward = 0, back = 0;
  cudaDeviceCanAccessPeer(&forward, 0, 1);
  cudaDeviceCanAccessPeer(&back, 1, 0);
  if (!forward || !back) return 0;
  cudaSetDevice(0);
  cudaDeviceEnablePeerAccess(1, 0);
  cudaSetDevice(1);
  cudaDeviceEnablePeerAccess(0, 0);
  return 1;
}

// GPU 0 writes `remote` (GPU 1's memory), then `between` runs, then GPU 1 reads it.
template <typename Between>
int write_then_read(Between between) {
  int* remote = nullptr;
  int* sink = nullptr;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&remote, kWords * sizeof(int)));
  CHECK(cudaMalloc(&sink, kWords * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  fill<<<1, kWords>>>(remote, 7);
  CHECK(cudaGetLastError());
  if (between() != 0) return 1;
  CHECK(cudaSetDevice(1));
  read_into<<<1, kWords>>>(remote, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceSynchronize());
  int host[kWords];
  CHECK(cudaMemcpy(host, remote, sizeof host, cudaMemcpyDefault));
  long total = 0;
  for (int v : host) total += v;
  std::printf("written %ld\n", total);
  return 0;
}

int peer_event() {
  cudaEvent_t written;
  CHECK(cudaSetDevice(0));
  CHECK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
  cudaStream_t reader_stream;
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&reader_stream));
  int* remote = nullptr;
  int* sink = nullptr;
  CHECK(cudaMalloc(&remote, kWords * sizeof(int)));
  CHECK(cudaMalloc(&sink, kWords * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  fill<<<1, kWords>>>(remote, 7);
  CHECK(cudaEventRecord(written, 0));
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamWaitEvent(reader_stream, written, 0));
  read_into<<<1, kWords, 0, reader_stream>>>(remote, sink);
  CHECK(cudaStreamSynchronize(reader_stream));
  std::printf("read after the event\n");
  return 0;
}

int threads(bool racy) {
  int* buffers[2] = {};
  int* shared = nullptr;
  CHECK(cudaMallocManaged(&shared, kWords * sizeof(int)));
  std::atomic<int> failures{0}, launched{0};
  auto work = [&](int device) {
    if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&buffers[device], kWords * sizeof(int)) != cudaSuccess) {
      ++failures;
    } else {
      fill<<<1, kWords>>>(racy ? shared : buffers[device], device * 100);
    }
    // Both launches are issued before either thread waits for its GPU: nothing orders them.
    ++launched;
    while (launched.load() < 2) std::this_thread::yield();
    if (cudaDeviceSynchronize() != cudaSuccess) ++failures;
  };
  std::thread first(work, 0), second(work, 1);
  first.join();
  second.join();
  if (failures != 0) {
    std::printf("a device thread failed\n");
    return 1;
  }
  if (racy) {
    std::printf("both threads wrote\n");
    return 0;
  }
  int* total = nullptr;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMallocManaged(&total, sizeof(int)));
  *total = 0;
  sum_two<<<1, kWords>>>(buffers[0], buffers[1], total);
  CHECK(cudaDeviceSynchronize());
  std::printf("sum %d\n", *total);
  return 0;
}

int managed(bool racy) {
  int* data = nullptr;
  int* sink = nullptr;
  CHECK(cudaMallocManaged(&data, kWords * sizeof(int)));
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&sink, kWords * sizeof(int)));
  CHECK(cudaSetDevice(0));
  fill<<<1, kWords>>>(data, 3);
  if (!racy) CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(1));
  read_into<<<1, kWords>>>(data, sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceSynchronize());
  std::printf("managed data %d\n", data[5]);
  return 0;
}

int atomics(bool system_scope) {
  int* word = nullptr;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMallocManaged(&word, sizeof(int)));
  *word = 0;
  for (int device = 0; device < 2; ++device) {
    CHECK(cudaSetDevice(device));
    if (system_scope) {
      add_system_scope<<<2, 64>>>(word);
    } else {
      add_device_scope<<<2, 64>>>(word);
    }
    CHECK(cudaGetLastError());
  }
  for (int device = 0; device < 2; ++device) {
    CHECK(cudaSetDevice(device));
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("atomics done\n");
  return 0;
}

int only_device1() {
  CHECK(cudaSetDevice(1));
  int* data = nullptr;
  CHECK(cudaMalloc(&data, 4 * sizeof(int)));
  racy_single<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  std::printf("device 1 done\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (!peers_ready()) {
    std::printf("needs two GPUs with peer access\n");
    return 77;
  }
  if (!std::strcmp(mode, "peer_race")) return write_then_read([] { return 0; });
  if (!std::strcmp(mode, "peer_event")) return peer_event();
  if (!std::strcmp(mode, "sync_wrong_device")) {
    return write_then_read([] { return cudaSetDevice(1) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; });
  }
  if (!std::strcmp(mode, "sync_writer")) {
    return write_then_read([] { return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; });
  }
  if (!std::strcmp(mode, "peer_copy")) {
    return write_then_read([] {
      int* source = nullptr;
      int* copy = nullptr;
      // The copy is of another buffer of GPU 0's: what orders the two kernels is the copy's serialisation.
      if (cudaSetDevice(0) != cudaSuccess || cudaMalloc(&source, kWords * sizeof(int)) != cudaSuccess ||
          cudaSetDevice(1) != cudaSuccess || cudaMalloc(&copy, kWords * sizeof(int)) != cudaSuccess ||
          cudaSetDevice(0) != cudaSuccess) {
        return 1;
      }
      return cudaMemcpyPeer(copy, 1, source, 0, kWords * sizeof(int)) == cudaSuccess ? 0 : 1;
    });
  }
  if (!std::strcmp(mode, "threads")) return threads(false);
  if (!std::strcmp(mode, "threads_racy")) return threads(true);
  if (!std::strcmp(mode, "managed")) return managed(false);
  if (!std::strcmp(mode, "managed_racy")) return managed(true);
  if (!std::strcmp(mode, "atomics_gpu")) return atomics(false);
  if (!std::strcmp(mode, "atomics_system")) return atomics(true);
  if (!std::strcmp(mode, "only_device1")) return only_device1();
  std::printf("unknown mode '%s'\n", mode);
  return 2;
}
