// Kernels for shared_checkable_kernels_test: one shaped like the tiled kernels the device checks on
// its own (tiled GEMM), others that qualify too, and one per construct that keeps a kernel on the host.
// Compiled to PTX by nvcc at build time, so the analysis sees what nvcc really emits.
constexpr int kTile = 16;

extern "C" __global__ void tiled_gemm(const float* a, const float* b, float* c, int n) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, column = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < n / kTile; ++t) {
    tile_a[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
    tile_b[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + column];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + column] = sum;
}

// Shuffles and global atomics without fences order nothing the engine models: still checkable.
extern "C" __global__ void reduce_with_shuffles(const int* in, int* out) {
  __shared__ int partial[32];
  int value = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) sum += partial[w];
    atomicAdd(out, sum);
  }
}

// Shared stores in a called function: the closure qualifies with the kernel.
__device__ __noinline__ void store_through(int* p, int v) { *p = v; }
extern "C" __global__ void shared_store_in_function(int* out) {
  __shared__ int cells[256];
  store_through(&cells[threadIdx.x], threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void with_syncwarp(int* out) {
  __shared__ int cells[32];
  cells[threadIdx.x % 32] = threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % 32];
}

extern "C" __global__ void with_named_barrier(int* out) {
  __shared__ int cells[64];
  cells[threadIdx.x % 64] = threadIdx.x;
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[threadIdx.x] = cells[(threadIdx.x + 1) % 64];
}

extern "C" __global__ void with_syncthreads_or(int* out) {
  __shared__ int cells[256];
  cells[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = __syncthreads_or(cells[(threadIdx.x + 1) % blockDim.x] > 3);
}

extern "C" __global__ void with_shared_atomic(int* out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[blockIdx.x] = count;
}

// An atomic whose space is chosen at run time is generic: the device classifies loads and stores
// only, so the kernel stays on the host.
extern "C" __global__ void with_generic_atomic(int* out) {
  __shared__ int count;
  int* target = out[0] > 0 ? &count : out;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(target, 1);
  __syncthreads();
  out[blockIdx.x + 1] = count;
}

// A 16-bit atomic shares its word with another: the shadow's word entries cannot tell them apart.
extern "C" __global__ void with_halfword_shared_atomic(int* out) {
  __shared__ unsigned short pairs[64];
  if (threadIdx.x < 64) pairs[threadIdx.x] = 0;
  __syncthreads();
  atomicCAS(&pairs[threadIdx.x % 64], 0, 1);
  __syncthreads();
  out[threadIdx.x] = pairs[threadIdx.x % 64];
}

extern "C" __global__ void with_volatile_shared(int* out) {
  __shared__ int cells[256];
  volatile int* shared = cells;
  shared[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = shared[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void with_fence(int* out) {
  __shared__ int cells[256];
  cells[threadIdx.x] = threadIdx.x;
  __threadfence_block();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void with_byte_stores(int* out) {
  __shared__ char bytes[256];
  bytes[threadIdx.x] = static_cast<char>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = bytes[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void with_cp_async(const int* in, int* out) {
  __shared__ int cells[256];
  const unsigned destination = static_cast<unsigned>(__cvta_generic_to_shared(&cells[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" ::"r"(destination),
               "l"(in + threadIdx.x)
               : "memory");
  __syncthreads();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

extern "C" __global__ void with_release_store(int* flag, int* out) {
  __shared__ int cells[256];
  cells[threadIdx.x] = threadIdx.x;
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
  __syncthreads();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % blockDim.x];
}

// The fence is in a callee: the call closure counts.
__device__ __noinline__ void fence_then_store(int* p) {
  __threadfence();
  *p = 1;
}
extern "C" __global__ void calls_fenced_function(int* out) {
  __shared__ int cells[256];
  cells[threadIdx.x] = threadIdx.x;
  __syncthreads();
  fence_then_store(out + cells[(threadIdx.x + 1) % blockDim.x]);
}
