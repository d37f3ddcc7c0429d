// End-to-end fixture: user kernels around an NCCL all-reduce over two GPUs of one process
// (ncclCommInitAll). NCCL is loaded with dlopen (libnccl.so.2, found on the library path: PyTorch's
// wheels ship it), so the program builds without NCCL's headers; it exits 77 where NCCL or a second
// GPU is missing.
//   clean: each GPU fills its own buffer, the all-reduce sums them in the buffers' streams, each GPU then
//          scales its own result; after the host waits for both streams, GPU 0 compares both results
//          (GPU 1's through peer access). Nothing races.
//   cross: the same, and GPU 0 also writes a marker buffer of its own before the all-reduce that GPU 1 reads
//          after it, in its own stream: the collective orders them (GPU 1's all-reduce cannot end
//          before GPU 0's has begun, which follows the marker's write in GPU 0's stream). Nothing races.
//   sendrecv: GPU 0 writes a marker of its own, then sends its buffer to GPU 1 (ncclSend/ncclRecv in one
//          group) instead of the all-reduce; GPU 1 reads the marker after the receive: ordered by it.
//   racy:  the same, but GPU 1 also writes GPU 0's buffer from a second stream that waits only for
//          GPU 0's fill, while GPU 0 scales it: one inter-device write-write race between the user's
//          kernels (the scale's load precedes its own store, which the race names).
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

#include "cuda_check.h"

namespace {

// The part of nccl.h this program calls (NCCL 2.x ABI).
using NcclComm = struct NcclCommOpaque*;
using NcclResult = int;
constexpr int kNcclFloat = 7;  // ncclFloat32
constexpr int kNcclSum = 0;
struct Nccl {
  NcclResult (*comm_init_all)(NcclComm*, int, const int*);
  NcclResult (*all_reduce)(const void*, void*, size_t, int, int, NcclComm, cudaStream_t);
  NcclResult (*group_start)();
  NcclResult (*group_end)();
  NcclResult (*comm_destroy)(NcclComm);
  NcclResult (*send)(const void*, size_t, int, int, NcclComm, cudaStream_t);
  NcclResult (*recv)(void*, size_t, int, int, NcclComm, cudaStream_t);
};

bool load_nccl(Nccl& nccl) {
  void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) return false;
  nccl.comm_init_all = reinterpret_cast<decltype(nccl.comm_init_all)>(dlsym(library, "ncclCommInitAll"));
  nccl.all_reduce = reinterpret_cast<decltype(nccl.all_reduce)>(dlsym(library, "ncclAllReduce"));
  nccl.group_start = reinterpret_cast<decltype(nccl.group_start)>(dlsym(library, "ncclGroupStart"));
  nccl.group_end = reinterpret_cast<decltype(nccl.group_end)>(dlsym(library, "ncclGroupEnd"));
  nccl.comm_destroy = reinterpret_cast<decltype(nccl.comm_destroy)>(dlsym(library, "ncclCommDestroy"));
  nccl.send = reinterpret_cast<decltype(nccl.send)>(dlsym(library, "ncclSend"));
  nccl.recv = reinterpret_cast<decltype(nccl.recv)>(dlsym(library, "ncclRecv"));
  return nccl.comm_init_all && nccl.all_reduce && nccl.group_start && nccl.group_end && nccl.comm_destroy &&
         nccl.send && nccl.recv;
}

constexpr int kCount = 1024;

__global__ void fill(float* data, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCount) data[i] = value + static_cast<float>(i % 7);
}

__global__ void scale(float* data, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCount) data[i] *= factor;
}

__global__ void overwrite(float* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCount) data[i] = 1.0f;
}

__global__ void read_marker(const float* marker, float* sink) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCount && marker[i] < 0.0f) sink[i] = marker[i];  // never true: the output stays the same
}

__global__ void count_equal(const float* a, const float* b, int* equal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCount && a[i] == b[i]) atomicAdd(equal, 1);
}


}  // namespace

int main(int argc, char** argv) {
  const bool racy = argc > 1 && std::strcmp(argv[1], "racy") == 0;
  const bool send_receive = argc > 1 && std::strcmp(argv[1], "sendrecv") == 0;
  const bool cross = send_receive || (argc > 1 && std::strcmp(argv[1], "cross") == 0);
  int devices = 0;
  Nccl nccl{};
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2 || !load_nccl(nccl)) {
    std::printf("needs two GPUs and libnccl.so.2\n");
    return 77;
  }
  int can_access = 0;
  cudaDeviceCanAccessPeer(&can_access, 0, 1);
  if (!can_access) {
    std::printf("needs peer access\n");
    return 77;
  }
  const int ordinals[2] = {0, 1};
  NcclComm comms[2] = {};
  if (nccl.comm_init_all(comms, 2, ordinals) != 0) {
    std::printf("ncclCommInitAll failed\n");
    return 1;
  }
  float* buffers[2] = {};
  cudaStream_t streams[2] = {};
  cudaEvent_t filled;
  CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CHECK(cudaStreamCreate(&streams[d]));
    CHECK(cudaMalloc(&buffers[d], kCount * sizeof(float)));
    fill<<<kCount / 256, 256, 0, streams[d]>>>(buffers[d], static_cast<float>(d + 1));
  }
  CHECK(cudaSetDevice(0));
  float* marker = nullptr;
  CHECK(cudaMalloc(&marker, kCount * sizeof(float)));
  if (cross) fill<<<kCount / 256, 256, 0, streams[0]>>>(marker, 5.0f);
  CHECK(cudaEventRecord(filled, streams[0]));
  nccl.group_start();
  if (send_receive) {
    nccl.send(buffers[0], kCount, kNcclFloat, 1, comms[0], streams[0]);
    nccl.recv(buffers[1], kCount, kNcclFloat, 0, comms[1], streams[1]);
  } else {
    for (int d = 0; d < 2; ++d) {
      nccl.all_reduce(buffers[d], buffers[d], kCount, kNcclFloat, kNcclSum, comms[d], streams[d]);
    }
  }
  if (nccl.group_end() != 0) {
    std::printf("ncclAllReduce failed\n");
    return 1;
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    scale<<<kCount / 256, 256, 0, streams[d]>>>(buffers[d], 0.5f);
  }
  if (cross) {
    CHECK(cudaSetDevice(1));
    float* sink = nullptr;
    CHECK(cudaMalloc(&sink, kCount * sizeof(float)));
    read_marker<<<kCount / 256, 256, 0, streams[1]>>>(marker, sink);
  }
  if (racy) {
    CHECK(cudaSetDevice(1));
    cudaStream_t unordered;
    CHECK(cudaStreamCreateWithFlags(&unordered, cudaStreamNonBlocking));
    CHECK(cudaStreamWaitEvent(unordered, filled, 0));
    overwrite<<<kCount / 256, 256, 0, unordered>>>(buffers[0]);
    CHECK(cudaStreamSynchronize(unordered));
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamSynchronize(streams[d]));
  }
  CHECK(cudaSetDevice(0));
  int* equal = nullptr;
  CHECK(cudaMallocManaged(&equal, sizeof(int)));
  *equal = 0;
  count_equal<<<kCount / 256, 256>>>(buffers[0], buffers[1], equal);
  CHECK(cudaDeviceSynchronize());
  // Racy: how many agree depends on the order the race takes; the output must not.
  if (send_receive) {
    std::printf("sent\n");
  } else {
    std::printf("all-reduce %s\n", racy ? "done" : (*equal == kCount ? "agrees" : "differs"));
  }
  for (NcclComm comm : comms) nccl.comm_destroy(comm);
  return 0;
}
