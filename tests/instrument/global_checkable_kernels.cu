// Kernels for global_checkable_kernels_test: ones whose global memory the device can check on its own
// (elementwise, tiled, with shared atomics, through a called function, with global atomics and relaxed
// loads of device scope), and one per construct that keeps a kernel's global memory on the host. Compiled to PTX by nvcc at build time, so the analysis
// sees what nvcc really emits.
#include <cooperative_groups.h>
#include <cuda/atomic>

constexpr int kTile = 32;

extern "C" __global__ void elementwise_add(const float* a, const float* b, float* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] = a[i] + b[i];
}

// Full-block barriers order the tile's shared accesses; the global ones are plain.
extern "C" __global__ void tiled_transpose(const float* in, float* out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[(blockIdx.x * kTile + threadIdx.y) * n + blockIdx.y * kTile + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// Shared atomics stay allowed: only global ones keep the kernel on the host.
extern "C" __global__ void counts_in_shared(const int* in, int* counts) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0) atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = count;
}

// A generic store in a called function, to shared and to global memory: the closure qualifies with
// the kernel, for both spaces.
__device__ __noinline__ void store_word(int* p, int v) { *p = v; }
extern "C" __global__ void stores_through_function(int* out) {
  __shared__ int cells[256];
  store_word(&cells[threadIdx.x], threadIdx.x);
  __syncthreads();
  store_word(&out[blockIdx.x * blockDim.x + threadIdx.x], cells[(threadIdx.x + 1) % blockDim.x]);
}

// Atomics of device scope are strong writes the device checks (atomicAdd: atom.global.add, default
// .gpu scope), also in a callee, and so are relaxed loads and read-modify-writes of device scope
// (cuda::atomic_ref: generic ld.relaxed.gpu, atom.relaxed.gpu).
extern "C" __global__ void with_global_atomic(const int* in, int* total) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
__device__ __noinline__ void count_into(int* counter) { atomicAdd(counter, 1); }
extern "C" __global__ void calls_atomic_function(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  count_into(out + gridDim.x * blockDim.x);
}
extern "C" __global__ void relaxes_distances(unsigned* distance, const unsigned* candidate) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> cell(distance[i / 2]);
  if (candidate[i] < cell.load(cuda::memory_order_relaxed)) cell.fetch_min(candidate[i], cuda::memory_order_relaxed);
}

// Block scope across blocks would be a scoped race, which the shadow does not name.
// A cooperative-groups grid sync between two phases (src/ptx/passes/grid_syncs.h): its arrival and
// spin are let through, and the device counts the block's grid intervals.
extern "C" __global__ void grid_sync_exchange(float* data, int n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = static_cast<float>(i);
  grid.sync();
  data[(i + 1) % n] += 1.0f;
}

// The split form: what runs between the arrival and the wait is concurrent with the other blocks'
// code on both sides, which grid intervals cannot say.
extern "C" __global__ void split_grid_sync(float* data, int n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = static_cast<float>(i);
  auto token = grid.barrier_arrive();
  data[(i + 2) % n] = 0.5f;
  grid.barrier_wait(static_cast<decltype(token)&&>(token));
  data[(i + 1) % n] += 1.0f;
}

// The same instructions on the program's own counter: an ordinary release and acquire.
extern "C" __global__ void hand_rolled_grid_barrier(unsigned* counter, float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = static_cast<float>(i);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(*counter);
    arrived.fetch_add(1, cuda::memory_order_release);
    while (arrived.load(cuda::memory_order_acquire) < gridDim.x) {
    }
  }
  __syncthreads();
  data[(i + 1) % n] += 1.0f;
}

extern "C" __global__ void with_block_scope_atomic(int* total) { atomicAdd_block(total, 1); }
extern "C" __global__ void with_block_scope_relaxed_load(unsigned* flag, unsigned* out) {
  out[blockIdx.x] = cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*flag).load(cuda::memory_order_relaxed);
}
// Acquire orders memory.
extern "C" __global__ void with_acquire_load(unsigned* flag, unsigned* out) {
  out[blockIdx.x] = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*flag).load(cuda::memory_order_acquire);
}
// A 16-bit atomic shares its word with another thread's halfword.
extern "C" __global__ void with_halfword_atomic(unsigned short* cells) {
  atomicCAS(&cells[blockIdx.x * blockDim.x + threadIdx.x], static_cast<unsigned short>(0),
            static_cast<unsigned short>(1));
}

extern "C" __global__ void with_threadfence(int* data, int* flag) {
  data[blockIdx.x] = 1;
  __threadfence();
  flag[blockIdx.x] = 1;
}

extern "C" __global__ void with_volatile_load(volatile int* flag, int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = flag[0];
}

// Two threads' byte stores into one word would look like a race to a word-granular shadow.
extern "C" __global__ void with_byte_store(unsigned char* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
}

extern "C" __global__ void with_syncwarp(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  __syncwarp();
  out[blockIdx.x * blockDim.x + (threadIdx.x ^ 1)] += 1;
}

extern "C" __global__ void with_named_barrier(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[blockIdx.x * blockDim.x + (threadIdx.x + 1) % 64] += 1;
}

extern "C" __global__ void with_surface_write(cudaSurfaceObject_t surface, const int* in) {
  surf2Dwrite(in[threadIdx.x], surface, threadIdx.x * 4, blockIdx.x);
}

// Shared memory only: nothing in global memory to check (its shared memory the device can check).
extern "C" __global__ void without_global_access(int seed) {
  __shared__ int cells[256];
  cells[threadIdx.x] = seed + threadIdx.x;
  __syncthreads();
  if (cells[(threadIdx.x + 1) % blockDim.x] == 0) __trap();
}
