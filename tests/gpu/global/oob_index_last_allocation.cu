// An unguarded CSR kernel whose index array is the program's last allocation: threads past the last
// node read beyond its end, where a native run finds unused zeros (an empty neighbour range). Under
// the tool the same zeros must be there (its own device memory lives elsewhere), so those threads
// loop over nothing, the run ends as natively, and the counter's race is reported.
#include <vector>

#include "suite.cuh"

__global__ void visit_unguarded(const int* nlist, const int* nindex, int* data1) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int beg = nindex[v];
  const int end = nindex[v + 1];
  int sum = 0;
  for (int j = beg; j < end; ++j) sum += nlist[j];
  if (threadIdx.x == 0) data1[0] += sum > 0;  // @A
}

int main() {
  const int nodes = 1000, degree = 4;
  std::vector<int> index(nodes + 1), list(nodes * degree);
  for (int v = 0; v <= nodes; ++v) index[v] = v * degree;
  for (int e = 0; e < nodes * degree; ++e) list[e] = 1 + e % 5;
  int* data1 = zeroed<int>(1);
  int *nlist = nullptr, *nindex = nullptr;
  CHECK(cudaMalloc(&nlist, list.size() * sizeof(int)));
  CHECK(cudaMalloc(&nindex, index.size() * sizeof(int)));  // the last allocation: nothing follows it
  CHECK(cudaMemcpy(nlist, list.data(), list.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(nindex, index.data(), index.size() * sizeof(int), cudaMemcpyHostToDevice));
  visit_unguarded<<<(nodes + 255) / 256, 256>>>(nlist, nindex, data1);
  CHECK(cudaDeviceSynchronize());
  return finish("oob_index_last_allocation", fetch(data1));
}
// EXPECT: race inter-block global RAW A A
// EXPECT: race inter-block global WAW A A
