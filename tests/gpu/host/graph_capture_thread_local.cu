// Capture in thread-local mode on the legacy-synchronising default stream's neighbour, a kernel that is
// launched for the first time inside the capture (its module loads lazily while capturing), relaunched
// five times with a host read between launches: race-free, output as natively.
#include "suite.cuh"

__global__ void scale(float* v, float k) { v[blockIdx.x * blockDim.x + threadIdx.x] *= k; }
__global__ void shift(float* v, float d) { v[blockIdx.x * blockDim.x + threadIdx.x] += d; }

int main() {
  float* v = nullptr;
  CHECK(cudaMalloc(&v, 256 * sizeof(float)));
  CHECK(cudaMemset(v, 0, 256 * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  shift<<<4, 64, 0, s>>>(v, 1.0f);
  scale<<<4, 64, 0, s>>>(v, 3.0f);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  float sum = 0;
  for (int i = 0; i < 5; ++i) {
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    sum += fetch(v + 255);
  }
  return finish("graph_capture_thread_local", static_cast<long long>(sum));
}
// EXPECT: no-race
