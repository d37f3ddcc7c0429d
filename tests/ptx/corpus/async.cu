// Corpus kernels: cp.async pipelines, mbarrier (cuda::barrier), thread-block clusters and distributed
// shared memory, bulk copies (sm_90).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

// Block-scope __shared__ barriers and pipeline states are initialised by one thread, as CUDA's samples do.
#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void pipelined_copy(const float* in, float* out, int n) {
  __shared__ float stage[2][128];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto pipe = cuda::make_pipeline(block, &state);
  for (int base = 0; base < n; base += 128) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, stage[0], in + base, sizeof(float) * 128, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[base + threadIdx.x] = stage[0][threadIdx.x] * 2;
    pipe.consumer_release();
  }
  __pipeline_memcpy_async(&stage[1][threadIdx.x], in + threadIdx.x, sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] += stage[1][threadIdx.x];
}

__global__ void barrier_copy(const int* in, int* out) {
  __shared__ int buffer[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(buffer + threadIdx.x, in + threadIdx.x, cuda::aligned_size_t<4>(sizeof(int)), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = buffer[(threadIdx.x + 1) % blockDim.x];
  auto token = bar.arrive();
  bar.wait(std::move(token));
}

__global__ void __cluster_dims__(2, 1, 1) cluster_exchange(int* out) {
  __shared__ int mine[64];
  cg::cluster_group cluster = cg::this_cluster();
  mine[threadIdx.x] = cluster.block_rank() * 100 + threadIdx.x;
  cluster.sync();
  unsigned peer = (cluster.block_rank() + 1) % cluster.num_blocks();
  int* remote = cluster.map_shared_rank(mine, peer);
  out[blockIdx.x * 64 + threadIdx.x] = remote[threadIdx.x];
  cluster.sync();
}

// Bulk copy global -> shared completed through an mbarrier transaction count (what TMA code emits).
__global__ void bulk_copy(const int4* in, int4* out) {
  __shared__ alignas(128) int4 buffer[64];
  __shared__ alignas(8) unsigned long long mbar;
  unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(buffer));
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(1024));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                 ::"r"(smem), "l"(in), "r"(bar) : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  while (!done) {
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"(bar) : "memory");
  }
  out[threadIdx.x] = buffer[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" ::"l"(out + 64), "r"(smem) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;");
  }
}
