// An unguarded CSR kernel (threads past the last node read the index array, the last allocation,
// beyond its end) that keeps a maximum the Indigo way: a plain read of the maximum decides whether to
// atomicMax it. The plain read races with other blocks' atomics, whatever the stray index reads do.
#include <vector>

#include "suite.cuh"

__global__ void max_degree_unguarded(const int* nindex, int* max_degree) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int degree = nindex[v + 1] - nindex[v];
  if (threadIdx.x == 0 && max_degree[0] < degree) {  // @A
    atomicMax(max_degree, degree);  // @B
  }
}

int main() {
  const int nodes = 1000;
  std::vector<int> index(nodes + 1);
  for (int v = 0; v <= nodes; ++v) index[v] = v * 3 + (v % 7);
  int* max_degree = zeroed<int>(1);
  int* nindex = nullptr;
  CHECK(cudaMalloc(&nindex, index.size() * sizeof(int)));
  CHECK(cudaMemcpy(nindex, index.data(), index.size() * sizeof(int), cudaMemcpyHostToDevice));
  max_degree_unguarded<<<(nodes + 255) / 256, 256>>>(nindex, max_degree);
  CHECK(cudaDeviceSynchronize());
  return finish("oob_index_max", fetch(max_degree) > 0);
}
// EXPECT: race inter-block global atomic-plain A B
