// Cluster of 2 reading the partner block's shared buffer without the cluster.sync() between the
// partner's writes and the remote reads (the syncs at entry and exit only keep blocks alive).
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) swap_with_partner(int* out) {
  __shared__ int buf[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  cluster.sync();
  buf[threadIdx.x] = rank * 100 + threadIdx.x;                                     // @A
  int* partner = cluster.map_shared_rank(buf, rank ^ 1);
  out[blockIdx.x * 64 + threadIdx.x] = partner[threadIdx.x];                       // @B
  cluster.sync();
}

int main() {
  int* out = zeroed<int>(2 * 64);
  swap_with_partner<<<2, 64>>>(out);
  return finish("cluster_dsmem_no_sync", fetch(out));
}
// EXPECT: race inter-block shared RAW A B
