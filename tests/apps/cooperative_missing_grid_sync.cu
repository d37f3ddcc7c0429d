// Explicit diffusion of heat pulses in one persistent cooperative kernel, each block owning a segment
// of the line. Every step has two half-sweeps (a -> b, b -> a); the first is followed by a grid-wide
// sync, but the second only by a block sync, so the next step's first half-sweep reads cells of the
// neighbouring segments (and overwrites b) while the neighbouring blocks may still be in the second
// half-sweep: an inter-block race. The test input hides it: every pulse starts in the middle of its
// segment and does not reach the segment edges within the steps run, so the edge cells that the blocks
// exchange are zero before and after and the printed profile is right.
// APP-EXPECT: racy
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "app_check.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 256;  // one cell per thread, one segment per block
constexpr int kBlocks = 32;
constexpr int kCells = kBlocks * kThreads;
constexpr int kSteps = 24;

__host__ __device__ inline float relax(float left, float mid, float right) { return (left + 2.0f * mid + right) * 0.25f; }

__global__ void diffuse(float* a, float* b) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int step = 0; step < kSteps; ++step) {
    b[i] = relax(i > 0 ? a[i - 1] : 0.0f, a[i], i + 1 < kCells ? a[i + 1] : 0.0f);
    grid.sync();
    a[i] = relax(i > 0 ? b[i - 1] : 0.0f, b[i], i + 1 < kCells ? b[i + 1] : 0.0f);  // APP-RACE
    block.sync();  // should be grid.sync(): the next step reads the neighbouring segments' edges
  }
}

int main() {
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, diffuse, kThreads, 0));
  if (per_sm * sms < kBlocks) {
    std::fprintf(stderr, "cannot launch %d co-resident blocks\n", kBlocks);
    return 1;
  }
  std::vector<float> u(kCells, 0.0f);
  for (int s = 0; s < kBlocks; ++s) u[s * kThreads + kThreads / 2] = static_cast<float>(16 * (s % 5 + 1));
  float *a, *b;
  CUDA_CHECK(cudaMalloc(&a, kCells * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, kCells * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(a, u.data(), kCells * sizeof(float), cudaMemcpyHostToDevice));
  void* args[] = {&a, &b};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(diffuse), dim3(kBlocks), dim3(kThreads), args, 0,
                                         nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> result(kCells);
  CUDA_CHECK(cudaMemcpy(result.data(), a, kCells * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<float> half(kCells);
  auto at = [](const std::vector<float>& v, int i) { return i >= 0 && i < kCells ? v[i] : 0.0f; };
  for (int step = 0; step < kSteps; ++step) {
    for (int i = 0; i < kCells; ++i) half[i] = relax(at(u, i - 1), u[i], at(u, i + 1));
    for (int i = 0; i < kCells; ++i) u[i] = relax(at(half, i - 1), half[i], at(half, i + 1));
  }
  int mismatches = 0, warm = 0;
  double heat = 0.0;
  for (int i = 0; i < kCells; ++i) {
    mismatches += result[i] != u[i];
    warm += result[i] != 0.0f;
    heat += result[i];
  }
  std::printf("%d steps: total heat %.4f, %d warm cells, peak of segment 0 %.6f\n", kSteps, heat, warm,
              result[kThreads / 2]);
  std::printf("%d cells differ from the host\n", mismatches);
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  return mismatches == 0 ? 0 : 1;
}
