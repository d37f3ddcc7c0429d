// Split cluster barrier: barrier_arrive() (release) after writing, independent work, barrier_wait()
// (acquire) before reading the partner's shared memory: race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) overlap(const int* in, int* out) {
  __shared__ int buf[128];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  buf[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  auto token = cluster.barrier_arrive();
  int local = in[threadIdx.x] * 2;
  cluster.barrier_wait(std::move(token));
  out[blockIdx.x * 128 + threadIdx.x] = local + cluster.map_shared_rank(buf, rank ^ 1)[threadIdx.x];
  cluster.sync();
}

int main() {
  int* in = zeroed<int>(2 * 128);
  int* out = zeroed<int>(2 * 128);
  overlap<<<2, 128>>>(in, out);
  return finish("cluster_split_barrier", fetch(out));
}
// EXPECT: no-race
