// Corpus kernels: warp-level primitives, cooperative groups (tiles, block and grid sync), barriers.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void shuffles(int* out, float* fout) {
  int v = out[threadIdx.x];
  unsigned mask = __activemask();
  v += __shfl_sync(mask, v, 0);
  v += __shfl_up_sync(mask, v, 1);
  v += __shfl_down_sync(mask, v, 2);
  v += __shfl_xor_sync(mask, v, 4);
  float f = __shfl_xor_sync(0xffffffff, fout[threadIdx.x], 1, 16);
  v += __all_sync(mask, v > 0) + __any_sync(mask, v < 0) + __popc(__ballot_sync(mask, v & 1));
  v += __match_any_sync(mask, v);
  int pred = 0;
  v += __match_all_sync(mask, v, &pred) + pred;
  v += __reduce_add_sync(mask, v) + __reduce_min_sync(mask, v) + __reduce_or_sync(mask, (unsigned)v);
  __syncwarp();
  out[threadIdx.x] = v;
  fout[threadIdx.x] = f;
  __syncwarp(0x0000ffff);
}

__global__ void groups(int* data, int* result) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int v = data[block.thread_rank()];
  v = cg::reduce(warp, v, cg::plus<int>());
  v += tile.shfl_down(v, 1);
  tile.sync();
  block.sync();
  cg::coalesced_group active = cg::coalesced_threads();
  if (v > 3) v += active.thread_rank();
  if (warp.thread_rank() == 0) atomicAdd(result, v);
}

__global__ void grid_sync(int* data, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += data[(i + 1) % n];
}

__global__ void barriers(int* data) {
  __shared__ int tile[256];
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  int count = __syncthreads_count(tile[threadIdx.x ^ 1] > 0);
  int all = __syncthreads_and(tile[threadIdx.x] > 0);
  int any = __syncthreads_or(tile[threadIdx.x] < 0);
  data[threadIdx.x] = count + all + any;
  if (threadIdx.x < 32) __syncwarp();
}
