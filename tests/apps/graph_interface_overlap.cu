// Heat conduction through a rod of two materials, one CUDA graph per time step: the step is captured
// with a fork onto a second stream so the two materials' kernels run as parallel graph branches, then
// joined for an interface kernel that sets the cell between them and a copy back. The left kernel's
// loop bound is off by one: it also writes the first cell of the right material, which the right
// branch writes at the same time (a write-write race between graph branches). The interface kernel
// overwrites that cell afterwards, so the results look right.
// APP-EXPECT: racy
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kHalf = 4096;  // cells of each material; the interface is cell kHalf
constexpr int kCells = 2 * kHalf;
constexpr int kThreads = 256;
constexpr int kSteps = 10;

// Diffusion numbers that are powers of two keep the arithmetic exact whatever the compiler fuses.
__host__ __device__ inline float conduct(float left, float mid, float right, float rate) {
  return mid + (left - 2.0f * mid + right) * rate;
}

// Cells 0 .. kHalf - 1 (insulated at 0), diffusion number 1/4.
__global__ void left_material(const float* u, float* next) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= kHalf) next[i] = conduct(i > 0 ? u[i - 1] : u[0], u[i], u[i + 1], 0.25f);  // APP-RACE
}

// Cells kHalf .. kCells - 1 (insulated at the end), diffusion number 1/8.
__global__ void right_material(const float* u, float* next) {
  int i = kHalf + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kCells) next[i] = conduct(u[i - 1], u[i], i + 1 < kCells ? u[i + 1] : u[i], 0.125f);
}

// The interface cell takes the mean of its two neighbours' new values.
__global__ void interface_cell(float* next) { next[kHalf] = (next[kHalf - 1] + next[kHalf + 1]) * 0.5f; }

int main() {
  std::vector<float> u(kCells);
  for (int i = 0; i < kCells; ++i) u[i] = static_cast<float>(i % 5) + (i < kHalf ? 8.0f : 0.0f);
  float *du, *dnext;
  CUDA_CHECK(cudaMalloc(&du, kCells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dnext, kCells * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(du, u.data(), kCells * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t main_stream, side_stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  CUDA_CHECK(cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, main_stream));
  CUDA_CHECK(cudaStreamWaitEvent(side_stream, fork));
  left_material<<<(kHalf + 1 + kThreads - 1) / kThreads, kThreads, 0, main_stream>>>(du, dnext);
  right_material<<<kHalf / kThreads, kThreads, 0, side_stream>>>(du, dnext);
  CUDA_CHECK(cudaEventRecord(join, side_stream));
  CUDA_CHECK(cudaStreamWaitEvent(main_stream, join));
  interface_cell<<<1, 1, 0, main_stream>>>(dnext);
  CUDA_CHECK(cudaMemcpyAsync(du, dnext, kCells * sizeof(float), cudaMemcpyDeviceToDevice, main_stream));
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamEndCapture(main_stream, &graph));
  cudaGraphExec_t step;
  CUDA_CHECK(cudaGraphInstantiate(&step, graph, 0));
  for (int s = 0; s < kSteps; ++s) CUDA_CHECK(cudaGraphLaunch(step, main_stream));
  std::vector<float> result(kCells);
  CUDA_CHECK(cudaMemcpyAsync(result.data(), du, kCells * sizeof(float), cudaMemcpyDeviceToHost, main_stream));
  CUDA_CHECK(cudaStreamSynchronize(main_stream));

  // The intended scheme on the host.
  for (int s = 0; s < kSteps; ++s) {
    std::vector<float> next(kCells);
    for (int i = 0; i < kHalf; ++i) next[i] = conduct(i > 0 ? u[i - 1] : u[0], u[i], u[i + 1], 0.25f);
    for (int i = kHalf; i < kCells; ++i) next[i] = conduct(u[i - 1], u[i], i + 1 < kCells ? u[i + 1] : u[i], 0.125f);
    next[kHalf] = (next[kHalf - 1] + next[kHalf + 1]) * 0.5f;
    u.swap(next);
  }
  int mismatches = 0;
  double heat = 0.0;
  for (int i = 0; i < kCells; ++i) {
    mismatches += result[i] != u[i];
    heat += result[i];
  }
  std::printf("%d steps: total heat %.4f, interface %.6f, cells around it %.6f %.6f\n", kSteps, heat, result[kHalf],
              result[kHalf - 1], result[kHalf + 1]);
  std::printf("%d cells differ from the host\n", mismatches);

  CUDA_CHECK(cudaGraphExecDestroy(step));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  CUDA_CHECK(cudaStreamDestroy(main_stream));
  CUDA_CHECK(cudaStreamDestroy(side_stream));
  CUDA_CHECK(cudaFree(du));
  CUDA_CHECK(cudaFree(dnext));
  return mismatches == 0 ? 0 : 1;
}
