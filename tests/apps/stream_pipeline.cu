// Multi-stream signal conditioning, the way a data-acquisition front end overlaps frames: the signal is
// split into one chunk per stream; each stream uploads its chunk, removes the bias, smooths it (reading
// one sample of each neighbouring chunk, so it waits on the neighbours' events), measures its energy
// and downloads it, while stream 0 waits on every stream and combines the energies. Three frames reuse
// the same device buffers, so each frame also waits for the readers of the previous one.
// APP-EXPECT: clean
#include <cstdint>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kStreams = 4;
constexpr int kChunk = 1 << 16;
constexpr int kSamples = kStreams * kChunk;
constexpr int kFrames = 3;
constexpr int kThreads = 256;
constexpr int kEnergyBlocks = 64;

__global__ void remove_bias(const float* raw, float* out, int n, float bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (raw[i] - bias) * 0.5f;
}

// y[i] = (x[i-1] + 2 x[i] + x[i+1]) / 4 over the whole signal, for samples [begin, begin + n).
__global__ void smooth(const float* x, float* y, int begin, int n, int total) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= begin + n) return;
  float left = i > 0 ? x[i - 1] : 0.0f;
  float right = i + 1 < total ? x[i + 1] : 0.0f;
  y[i] = (left + 2.0f * x[i] + right) * 0.25f;
}

// Sum of squares of x[0, n), one partial sum per block.
__global__ void energy(const float* x, int n, double* partial) {
  __shared__ double sums[kThreads];
  double sum = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += static_cast<double>(x[i]) * x[i];
  }
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

__global__ void combine(const double* partial, int count, double* total) {
  __shared__ double sums[kThreads];
  double sum = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = sums[0];
}

int main() {
  // Small integers, so every sum below is exact and the output does not depend on summation order.
  float* host_raw[kFrames];
  float* host_smooth[kFrames];
  uint32_t seed = 12345;
  for (int f = 0; f < kFrames; ++f) {
    CUDA_CHECK(cudaMallocHost(&host_raw[f], kSamples * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&host_smooth[f], kSamples * sizeof(float)));
    for (int i = 0; i < kSamples; ++i) {
      seed = seed * 1664525u + 1013904223u;
      host_raw[f][i] = static_cast<float>(static_cast<int>(seed >> 28) - 8 + f);
    }
  }
  float *raw, *conditioned, *smoothed;
  double *partial, *total;
  CUDA_CHECK(cudaMalloc(&raw, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&conditioned, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&smoothed, kSamples * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partial, kStreams * kEnergyBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&total, kFrames * sizeof(double)));

  cudaStream_t streams[kStreams];
  cudaEvent_t conditioned_ready[kStreams], smoothed_ready[kStreams], energy_ready[kStreams], combined;
  for (int s = 0; s < kStreams; ++s) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&conditioned_ready[s], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&smoothed_ready[s], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&energy_ready[s], cudaEventDisableTiming));
  }
  CUDA_CHECK(cudaEventCreateWithFlags(&combined, cudaEventDisableTiming));

  const int chunk_blocks = kChunk / kThreads;
  for (int f = 0; f < kFrames; ++f) {
    for (int s = 0; s < kStreams; ++s) {
      const int begin = s * kChunk;
      // The previous frame's smoothing of the neighbours read this chunk's edge samples.
      if (f > 0) {
        if (s > 0) CUDA_CHECK(cudaStreamWaitEvent(streams[s], smoothed_ready[s - 1]));
        if (s + 1 < kStreams) CUDA_CHECK(cudaStreamWaitEvent(streams[s], smoothed_ready[s + 1]));
      }
      CUDA_CHECK(cudaMemcpyAsync(raw + begin, host_raw[f] + begin, kChunk * sizeof(float), cudaMemcpyHostToDevice,
                                 streams[s]));
      remove_bias<<<chunk_blocks, kThreads, 0, streams[s]>>>(raw + begin, conditioned + begin, kChunk, -0.5f * f);
      CUDA_CHECK(cudaEventRecord(conditioned_ready[s], streams[s]));
    }
    for (int s = 0; s < kStreams; ++s) {
      const int begin = s * kChunk;
      if (s > 0) CUDA_CHECK(cudaStreamWaitEvent(streams[s], conditioned_ready[s - 1]));
      if (s + 1 < kStreams) CUDA_CHECK(cudaStreamWaitEvent(streams[s], conditioned_ready[s + 1]));
      smooth<<<chunk_blocks, kThreads, 0, streams[s]>>>(conditioned, smoothed, begin, kChunk, kSamples);
      CUDA_CHECK(cudaEventRecord(smoothed_ready[s], streams[s]));
      // The previous frame's combine read this stream's partial sums.
      if (f > 0) CUDA_CHECK(cudaStreamWaitEvent(streams[s], combined));
      energy<<<kEnergyBlocks, kThreads, 0, streams[s]>>>(smoothed + begin, kChunk, partial + s * kEnergyBlocks);
      CUDA_CHECK(cudaEventRecord(energy_ready[s], streams[s]));
      CUDA_CHECK(cudaMemcpyAsync(host_smooth[f] + begin, smoothed + begin, kChunk * sizeof(float),
                                 cudaMemcpyDeviceToHost, streams[s]));
    }
    for (int s = 1; s < kStreams; ++s) CUDA_CHECK(cudaStreamWaitEvent(streams[0], energy_ready[s]));
    combine<<<1, kThreads, 0, streams[0]>>>(partial, kStreams * kEnergyBlocks, total + f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(combined, streams[0]));
  }
  double device_total[kFrames];
  CUDA_CHECK(cudaMemcpyAsync(device_total, total, sizeof(device_total), cudaMemcpyDeviceToHost, streams[0]));
  CUDA_CHECK(cudaDeviceSynchronize());

  bool all_match = true;
  for (int f = 0; f < kFrames; ++f) {
    // The host's own reference of the whole frame.
    std::vector<float> x(kSamples);
    for (int i = 0; i < kSamples; ++i) x[i] = (host_raw[f][i] + 0.5f * f) * 0.5f;
    double reference = 0.0, checksum = 0.0;
    int mismatches = 0;
    for (int i = 0; i < kSamples; ++i) {
      float left = i > 0 ? x[i - 1] : 0.0f;
      float right = i + 1 < kSamples ? x[i + 1] : 0.0f;
      float y = (left + 2.0f * x[i] + right) * 0.25f;
      mismatches += y != host_smooth[f][i];
      reference += static_cast<double>(y) * y;
      checksum += host_smooth[f][i] * static_cast<double>(i % 97);
    }
    all_match &= mismatches == 0 && reference == device_total[f];
    std::printf("frame %d: energy %.6f (host %.6f), weighted checksum %.4f, %d mismatched samples\n", f,
                device_total[f], reference, checksum, mismatches);
  }
  std::printf("%s\n", all_match ? "all frames match the host reference" : "MISMATCH");

  for (int s = 0; s < kStreams; ++s) {
    CUDA_CHECK(cudaEventDestroy(conditioned_ready[s]));
    CUDA_CHECK(cudaEventDestroy(smoothed_ready[s]));
    CUDA_CHECK(cudaEventDestroy(energy_ready[s]));
    CUDA_CHECK(cudaStreamDestroy(streams[s]));
  }
  CUDA_CHECK(cudaEventDestroy(combined));
  for (int f = 0; f < kFrames; ++f) {
    CUDA_CHECK(cudaFreeHost(host_raw[f]));
    CUDA_CHECK(cudaFreeHost(host_smooth[f]));
  }
  CUDA_CHECK(cudaFree(raw));
  CUDA_CHECK(cudaFree(conditioned));
  CUDA_CHECK(cudaFree(smoothed));
  CUDA_CHECK(cudaFree(partial));
  CUDA_CHECK(cudaFree(total));
  return all_match ? 0 : 1;
}
