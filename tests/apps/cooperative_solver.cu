// A 1D Poisson solve in one persistent cooperative kernel, as iterative solvers do to avoid a launch
// per iteration: each Jacobi sweep, the residual's block partial sums and the convergence test are
// separated by grid-wide syncs (cg::this_grid().sync()). Before it, a block-local smoother relaxes the
// right-hand side in shared memory with two block syncs in each step of an unrolled loop.
// APP-EXPECT: clean
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "app_check.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kBlocks = 32;  // fits co-resident on any Hopper part, whatever the kernel's occupancy
constexpr int kPoints = 1 << 13;
constexpr int kSmoothSteps = 256;
constexpr int kMaxIterations = 300;
constexpr int kCheckpoint = 100;

// Each block relaxes its own segment of b (ends held at zero): kSmoothSteps steps of 3-point averaging.
__global__ void presmooth(float* b) {
  __shared__ float segment[kThreads + 2];
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x + 1;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  segment[t] = b[i];
  if (threadIdx.x == 0) {
    segment[0] = 0.0f;
    segment[kThreads + 1] = 0.0f;
  }
  cg::sync(block);
#pragma unroll 16
  for (int step = 0; step < kSmoothSteps; ++step) {
    float relaxed = (segment[t - 1] + 2.0f * segment[t] + segment[t + 1]) * 0.25f;
    cg::sync(block);
    segment[t] = relaxed;
    cg::sync(block);
  }
  b[i] = segment[t];
}

// Solves 2 x[i] - x[i-1] - x[i+1] = b[i] (x = 0 outside) by Jacobi sweeps until the squared residual
// falls below `tolerance` or kMaxIterations. norms[k] gets the squared residual after sweep k.
__global__ void jacobi(const float* b, float* x, float* x_next, float* partial, float* norms, int* sweeps,
                       float tolerance) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float sums[kThreads];
  __shared__ float norm;
  const int stride = gridDim.x * blockDim.x;
  int sweep = 0;
  while (sweep < kMaxIterations) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < kPoints; i += stride) {
      float left = i > 0 ? x[i - 1] : 0.0f;
      float right = i + 1 < kPoints ? x[i + 1] : 0.0f;
      x_next[i] = (b[i] + left + right) * 0.5f;
    }
    grid.sync();
    float squares = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < kPoints; i += stride) {
      float left = i > 0 ? x_next[i - 1] : 0.0f;
      float right = i + 1 < kPoints ? x_next[i + 1] : 0.0f;
      float r = b[i] - 2.0f * x_next[i] + left + right;
      squares = __fmaf_rn(r, r, squares);
    }
    sums[threadIdx.x] = squares;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
      __syncthreads();
    }
    // Partial sums alternate between two halves of `partial`, so the next sweep can write its own
    // while slow blocks still read these.
    float* sweep_partial = partial + (sweep % 2) * gridDim.x;
    if (threadIdx.x == 0) sweep_partial[blockIdx.x] = sums[0];
    grid.sync();
    if (threadIdx.x == 0) {
      float total = 0.0f;
      for (int k = 0; k < gridDim.x; ++k) total += sweep_partial[k];
      norm = total;
      if (blockIdx.x == 0) norms[sweep] = total;
    }
    __syncthreads();
    float* swap = x;
    x = x_next;
    x_next = swap;
    ++sweep;
    if (norm < tolerance) break;
  }
  if (grid.thread_rank() == 0) *sweeps = sweep;
}

int main() {
  int device = 0, sms = 0, per_sm = 0, cooperative = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi, kThreads, 0));
  if (!cooperative || per_sm * sms < kBlocks) {
    std::fprintf(stderr, "cannot launch %d co-resident blocks\n", kBlocks);
    return 1;
  }

  std::vector<float> b(kPoints);
  for (int i = 0; i < kPoints; ++i) b[i] = static_cast<float>((i * 37) % 17 - 8);
  float *db, *dx, *dx_next, *partial, *norms;
  int* sweeps;
  CUDA_CHECK(cudaMalloc(&db, kPoints * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dx, kPoints * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dx_next, kPoints * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partial, 2 * kBlocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&norms, kMaxIterations * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sweeps, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(db, b.data(), kPoints * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dx, 0, kPoints * sizeof(float)));

  presmooth<<<kPoints / kThreads, kThreads>>>(db);
  CUDA_CHECK(cudaGetLastError());
  float tolerance = 1e-3f;
  void* args[] = {&db, &dx, &dx_next, &partial, &norms, &sweeps, &tolerance};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(jacobi), dim3(kBlocks), dim3(kThreads), args, 0,
                                         nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());

  int done = 0;
  std::vector<float> history(kMaxIterations), smoothed(kPoints), solution(kPoints);
  CUDA_CHECK(cudaMemcpy(&done, sweeps, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(history.data(), norms, kMaxIterations * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(smoothed.data(), db, kPoints * sizeof(float), cudaMemcpyDeviceToHost));
  // After an even number of sweeps the latest iterate is back in dx.
  CUDA_CHECK(cudaMemcpy(solution.data(), done % 2 == 0 ? dx : dx_next, kPoints * sizeof(float), cudaMemcpyDeviceToHost));

  // The host repeats the smoothing and the sweeps (the same operations in the same order).
  std::vector<float> hb(kPoints), x(kPoints, 0.0f), next(kPoints);
  for (int start = 0; start < kPoints; start += kThreads) {
    std::vector<float> segment(kThreads + 2, 0.0f), relaxed(kThreads + 2, 0.0f);
    for (int t = 0; t < kThreads; ++t) segment[t + 1] = b[start + t];
    for (int step = 0; step < kSmoothSteps; ++step) {
      for (int t = 1; t <= kThreads; ++t) relaxed[t] = (segment[t - 1] + 2.0f * segment[t] + segment[t + 1]) * 0.25f;
      for (int t = 1; t <= kThreads; ++t) segment[t] = relaxed[t];
    }
    for (int t = 0; t < kThreads; ++t) hb[start + t] = segment[t + 1];
  }
  for (int sweep = 0; sweep < done; ++sweep) {
    for (int i = 0; i < kPoints; ++i) {
      float left = i > 0 ? x[i - 1] : 0.0f;
      float right = i + 1 < kPoints ? x[i + 1] : 0.0f;
      next[i] = (hb[i] + left + right) * 0.5f;
    }
    x.swap(next);
  }
  int rhs_mismatches = 0, solution_mismatches = 0;
  double checksum = 0.0;
  for (int i = 0; i < kPoints; ++i) {
    rhs_mismatches += smoothed[i] != hb[i];
    solution_mismatches += solution[i] != x[i];
    checksum += solution[i] * static_cast<double>(i % 13 + 1);
  }
  std::printf("smoothed right-hand side: %d points differ from the host\n", rhs_mismatches);
  for (int k = kCheckpoint - 1; k < done; k += kCheckpoint) {
    std::printf("sweep %3d: squared residual %.6e\n", k + 1, history[k]);
  }
  std::printf("%d sweeps, final squared residual %.6e, solution checksum %.6f, %d points differ from the host\n",
              done, history[done - 1], checksum, solution_mismatches);

  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dx_next));
  CUDA_CHECK(cudaFree(partial));
  CUDA_CHECK(cudaFree(norms));
  CUDA_CHECK(cudaFree(sweeps));
  return rhs_mismatches == 0 && solution_mismatches == 0 ? 0 : 1;
}
