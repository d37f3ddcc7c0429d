// Cluster size chosen at launch time with cudaLaunchKernelEx (cluster dimension attribute); each
// block reduces into its own shared memory and rank 0 gathers the partials after cluster.sync():
// race-free. Built for sm_90a.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void gather(int* out) {
  __shared__ int partial;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) partial = 0;
  __syncthreads();
  atomicAdd(&partial, 1);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    int total = 0;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(&partial, r);
    out[blockIdx.x] = total;
  }
  cluster.sync();
}

int main() {
  int* out = zeroed<int>(8);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(8);
  config.blockDim = dim3(64);
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = 4;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, gather, out));
  return finish("cluster_launch_ex", fetch(out));
}
// BUILD: -arch=sm_90a
// EXPECT: no-race
