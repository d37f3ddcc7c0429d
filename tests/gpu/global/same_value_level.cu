// BFS-style frontier expansion, launched once per level: threads of different blocks whose edge is in
// the frontier and reaches the same vertex all store `level + 1` to its distance and set the shared
// "changed" flag (bool); nothing reads either during the launch. The value is a kernel argument that
// changes from launch to launch; within a launch all stores agree: same-value write-writes (warnings),
// not races.
#include "suite.cuh"

__global__ void expand(const int* edges, const int* frontier, int* dist, bool* changed, int level) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (frontier[e] == level) {
    dist[edges[e]] = level + 1;
    *changed = true;
  }
}

int main() {
  int* edges = zeroed<int>(512);     // every edge leads to vertex 0
  int* frontier = zeroed<int>(512);  // and is in the frontier of level 0
  int* dist = zeroed<int>(16);
  bool* changed = zeroed<bool>(1);
  for (int level = 0; level < 3; ++level) expand<<<4, 128>>>(edges, frontier, dist, changed, level);
  return finish("same_value_level", fetch(dist));
}
// EXPECT: no-race
