// A CSR kernel without its `if (v < nodes)` guard: threads past the last node read the index array
// beyond its end and loop over whatever lies there, while every thread increments a shared counter
// with a plain read-modify-write. The counter race must be reported whatever the stray reads do.
#include <vector>

#include "suite.cuh"

__global__ void count_edges_unguarded(const int* nindex, const int* nlist, const int* weight, int* total) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int beg = nindex[v];
  const int end = nindex[v + 1];
  int sum = 0;
  for (int j = beg; j < end; ++j) sum += weight[nlist[j] & 1023];
  if (threadIdx.x == 0 && sum > 0) total[0] += 1;  // @A
}

int main() {
  const int nodes = 1000, degree = 4;
  std::vector<int> index(nodes + 1), list(nodes * degree), weight(1024, 1);
  for (int v = 0; v <= nodes; ++v) index[v] = v * degree;
  for (int e = 0; e < nodes * degree; ++e) list[e] = (e * 7) % nodes;
  int *nindex = nullptr, *nlist = nullptr, *w = nullptr;
  CHECK(cudaMalloc(&nindex, index.size() * sizeof(int)));
  CHECK(cudaMalloc(&nlist, list.size() * sizeof(int)));
  CHECK(cudaMalloc(&w, weight.size() * sizeof(int)));
  CHECK(cudaMemcpy(nindex, index.data(), index.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(nlist, list.data(), list.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, weight.data(), weight.size() * sizeof(int), cudaMemcpyHostToDevice));
  int* total = zeroed<int>(1);
  count_edges_unguarded<<<(nodes + 255) / 256, 256>>>(nindex, nlist, w, total);
  CHECK(cudaDeviceSynchronize());
  return finish("oob_index_counter", fetch(total) > 0);
}
// EXPECT: race inter-block global RAW A A
// EXPECT: race inter-block global WAW A A
