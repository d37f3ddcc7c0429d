// End-to-end fixture for global memory checked on the GPU (barracuda/global_check.h): kernels that only
// __syncthreads synchronises, launched on the legacy default stream, each race on its own line. The
// argument picks the case; every case prints what it read back, so the output shows the app unchanged.
//   clean       elementwise and tiled kernels (neighbours within a block after a barrier): no race
//   blocks      block b writes cells[b], then reads cells[b + 1] that block b + 1 writes: inter-block
//   interval    thread t writes cells[t], then reads cells[t + 1] before any barrier: inter-warp or
//               intra-warp within one block
//   after_sync  the same read after __syncthreads: no race
//   bytes       4-byte stores, 1-byte loads of another block's word: inter-block
//   many        the blocks race in 300 launches, each on one word of its own launch: 1 race (one site pair)
//   atomics     atomicAdd bins and counter, a relaxed load and fetch_min of a minimum: no race
//   atomic_store  thread 0 of block 0 stores a counter every block adds to: atomic-plain, inter-block
//   relaxed_store block 0 stores words block 1 loads relaxed: inter-block read-after-write
#include <cuda/atomic>

#include <cstdio>
#include <cstring>

__global__ void scale(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

__global__ void tile_neighbours(float* data) {
  const int base = blockIdx.x * blockDim.x;
  data[base + threadIdx.x] = threadIdx.x;
  __syncthreads();
  const float right = data[base + (threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  data[base + threadIdx.x] += right;
}

__global__ void across_blocks(int* cells) {
  if (threadIdx.x == 0) cells[blockIdx.x] = blockIdx.x;                  // written by block b
  if (threadIdx.x == 0) cells[gridDim.x + blockIdx.x] = cells[blockIdx.x + 1];  // RACE: read of block b + 1's cell
}

__global__ void within_interval(int* cells) {
  cells[threadIdx.x] = threadIdx.x;
  cells[blockDim.x + threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];  // RACE: no barrier in between
}

__global__ void after_barrier(int* cells) {
  cells[threadIdx.x] = threadIdx.x;
  __syncthreads();
  cells[blockDim.x + threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

__global__ void byte_reads(int* words, int* copy) {
  words[blockIdx.x] = 0x01020304 * (blockIdx.x + 1);
  if (blockIdx.x > 0) copy[blockIdx.x] = reinterpret_cast<const unsigned char*>(words)[4 * (blockIdx.x - 1) + 2];  // RACE
}

__global__ void one_word(int* word) { *word = blockIdx.x; }  // RACE: every block

// Atomics of device scope and relaxed loads never race with each other (bins, a minimum, a counter).
__global__ void atomic_counters(const int* keys, int* bins, unsigned* minimum, unsigned* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[keys[i] % 16], 1);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> low(*minimum);
  if (static_cast<unsigned>(i) < low.load(cuda::memory_order_relaxed)) low.fetch_min(i, cuda::memory_order_relaxed);
  atomicAdd(count, 1u);
}

__global__ void store_then_add(int* counter) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *counter = 0;  // RACE: with the other blocks' adds
  atomicAdd(counter, 1);                                  // RACE
}

__global__ void relaxed_read_of_store(unsigned* cells) {
  using Word = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
  if (blockIdx.x == 0) cells[threadIdx.x] = threadIdx.x;                                      // RACE
  if (blockIdx.x == 1) cells[64 + threadIdx.x] = Word(cells[threadIdx.x]).load(cuda::memory_order_relaxed);  // RACE
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "clean";
  int* cells = nullptr;
  float *in = nullptr, *out = nullptr;
  const int n = 1 << 16;
  cudaMalloc(&cells, 4096 * sizeof(int));
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(cells, 0, 4096 * sizeof(int));
  cudaMemset(in, 0, n * sizeof(float));
  if (std::strcmp(mode, "clean") == 0) {
    scale<<<n / 256, 256>>>(in, out, n);
    tile_neighbours<<<n / 128, 128>>>(out);
  } else if (std::strcmp(mode, "blocks") == 0) {
    across_blocks<<<8, 32>>>(cells);
  } else if (std::strcmp(mode, "interval") == 0) {
    within_interval<<<1, 96>>>(cells);
  } else if (std::strcmp(mode, "after_sync") == 0) {
    after_barrier<<<1, 96>>>(cells);
  } else if (std::strcmp(mode, "bytes") == 0) {
    byte_reads<<<16, 1>>>(cells, cells + 2048);
  } else if (std::strcmp(mode, "many") == 0) {
    for (int launch = 0; launch < 300; ++launch) one_word<<<4, 1>>>(cells + launch);
  } else if (std::strcmp(mode, "atomics") == 0) {
    atomic_counters<<<64, 256>>>(reinterpret_cast<const int*>(in), cells, reinterpret_cast<unsigned*>(cells + 16),
                                 reinterpret_cast<unsigned*>(cells + 17));
  } else if (std::strcmp(mode, "atomic_store") == 0) {
    store_then_add<<<8, 64>>>(cells);
  } else if (std::strcmp(mode, "relaxed_store") == 0) {
    relaxed_read_of_store<<<2, 64>>>(reinterpret_cast<unsigned*>(cells));
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  int host[4] = {};
  float first = 0;
  cudaMemcpy(host, cells + 4000, sizeof host, cudaMemcpyDeviceToHost);
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("global_barrier_only %s: %s, %d %d %.1f\n", mode, cudaGetErrorString(err), host[0], host[3], first);
  return err == cudaSuccess ? 0 : 1;
}
