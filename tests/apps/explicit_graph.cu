// Per-frame histogram equalisation of a camera stream, built once as an explicit CUDA graph (memset
// and upload nodes, histogram, look-up-table and apply kernels, download node) and relaunched for every
// frame, the way video pipelines use graphs. Between frames the host writes the next frame into the
// pinned buffer the upload node reads and retunes the look-up-table kernel with
// cudaGraphExecKernelNodeSetParams (a different number of output levels).
// APP-EXPECT: clean
#include <cstdint>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kWidth = 512;
constexpr int kHeight = 512;
constexpr int kPixels = kWidth * kHeight;
constexpr int kBins = 256;

__global__ void histogram(const uint8_t* frame, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[frame[i]], 1u);
  }
  __syncthreads();
  if (local[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// One block of kBins threads: inclusive scan of the histogram, then the equalising map onto `levels`
// output levels spread over 0..255.
__global__ void build_lut(const unsigned* bins, int pixels, int levels, uint8_t* lut) {
  __shared__ unsigned scan[2][kBins];
  __shared__ unsigned first_nonzero;
  int t = threadIdx.x;
  scan[0][t] = bins[t];
  __syncthreads();
  int in = 0;
  for (int offset = 1; offset < kBins; offset *= 2) {
    scan[1 - in][t] = scan[in][t] + (t >= offset ? scan[in][t - offset] : 0u);
    in = 1 - in;
    __syncthreads();
  }
  if (t == 0) {
    int v = 0;
    while (scan[in][v] == 0) ++v;
    first_nonzero = scan[in][v];
  }
  __syncthreads();
  unsigned cdf = scan[in][t];
  unsigned level = cdf <= first_nonzero ? 0u
                                        : static_cast<unsigned>((static_cast<uint64_t>(cdf - first_nonzero) * (levels - 1)) /
                                                                (pixels - first_nonzero));
  lut[t] = static_cast<uint8_t>(level * 255u / (levels - 1));
}

__global__ void apply_lut(const uint8_t* frame, const uint8_t* lut, int n, uint8_t* out) {
  __shared__ uint8_t table[kBins];
  table[threadIdx.x] = lut[threadIdx.x];
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = table[frame[i]];
}

// A frame whose brightness sits in a narrow band that moves from frame to frame.
void make_frame(int index, uint8_t* frame) {
  uint32_t seed = 777u + index;
  for (int i = 0; i < kPixels; ++i) {
    seed = seed * 1664525u + 1013904223u;
    int a = (seed >> 24) & 63, b = (seed >> 16) & 63;
    frame[i] = static_cast<uint8_t>(30 + 25 * index + a + b);
  }
}

// What the graph computes, on the host.
std::vector<uint8_t> equalise(const uint8_t* frame, int levels) {
  std::vector<uint64_t> cdf(kBins, 0);
  for (int i = 0; i < kPixels; ++i) ++cdf[frame[i]];
  for (int v = 1; v < kBins; ++v) cdf[v] += cdf[v - 1];
  uint64_t first = 0;
  for (int v = 0; v < kBins && first == 0; ++v) first = cdf[v];
  std::vector<uint8_t> out(kPixels);
  for (int i = 0; i < kPixels; ++i) {
    uint64_t c = cdf[frame[i]];
    uint64_t level = c <= first ? 0 : (c - first) * (levels - 1) / (kPixels - first);
    out[i] = static_cast<uint8_t>(level * 255 / (levels - 1));
  }
  return out;
}

int main() {
  uint8_t *host_frame, *host_out;
  CUDA_CHECK(cudaMallocHost(&host_frame, kPixels));
  CUDA_CHECK(cudaMallocHost(&host_out, kPixels));
  uint8_t *frame, *lut, *out;
  unsigned* bins;
  CUDA_CHECK(cudaMalloc(&frame, kPixels));
  CUDA_CHECK(cudaMalloc(&lut, kBins));
  CUDA_CHECK(cudaMalloc(&out, kPixels));
  CUDA_CHECK(cudaMalloc(&bins, kBins * sizeof(unsigned)));

  cudaGraph_t graph;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t clear, upload, count, map, apply, download;

  cudaMemsetParams memset_params = {};
  memset_params.dst = bins;
  memset_params.value = 0;
  memset_params.elementSize = sizeof(unsigned);
  memset_params.width = kBins;
  memset_params.height = 1;
  CUDA_CHECK(cudaGraphAddMemsetNode(&clear, graph, nullptr, 0, &memset_params));
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&upload, graph, nullptr, 0, frame, host_frame, kPixels, cudaMemcpyHostToDevice));

  int pixels = kPixels;
  int levels = 256;
  const int grid = 128;
  void* count_args[] = {&frame, &pixels, &bins};
  cudaKernelNodeParams count_params = {};
  count_params.func = reinterpret_cast<void*>(histogram);
  count_params.gridDim = dim3(grid);
  count_params.blockDim = dim3(kBins);
  count_params.kernelParams = count_args;
  cudaGraphNode_t count_deps[] = {clear, upload};
  CUDA_CHECK(cudaGraphAddKernelNode(&count, graph, count_deps, 2, &count_params));

  void* map_args[] = {&bins, &pixels, &levels, &lut};
  cudaKernelNodeParams map_params = {};
  map_params.func = reinterpret_cast<void*>(build_lut);
  map_params.gridDim = dim3(1);
  map_params.blockDim = dim3(kBins);
  map_params.kernelParams = map_args;
  CUDA_CHECK(cudaGraphAddKernelNode(&map, graph, &count, 1, &map_params));

  void* apply_args[] = {&frame, &lut, &pixels, &out};
  cudaKernelNodeParams apply_params = {};
  apply_params.func = reinterpret_cast<void*>(apply_lut);
  apply_params.gridDim = dim3(grid);
  apply_params.blockDim = dim3(kBins);
  apply_params.kernelParams = apply_args;
  CUDA_CHECK(cudaGraphAddKernelNode(&apply, graph, &map, 1, &apply_params));
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&download, graph, &apply, 1, host_out, out, kPixels, cudaMemcpyDeviceToHost));

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  const int frame_levels[] = {256, 16, 64, 4};
  bool all_match = true;
  for (int f = 0; f < 4; ++f) {
    make_frame(f, host_frame);
    if (levels != frame_levels[f]) {
      levels = frame_levels[f];
      CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, map, &map_params));
    }
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<uint8_t> expected = equalise(host_frame, levels);
    uint64_t checksum = 0;
    int mismatches = 0, used[kBins] = {}, distinct = 0;
    for (int i = 0; i < kPixels; ++i) {
      checksum += static_cast<uint64_t>(host_out[i]) * (i % 251 + 1);
      mismatches += host_out[i] != expected[i];
      distinct += used[host_out[i]]++ == 0;
    }
    all_match &= mismatches == 0;
    std::printf("frame %d: %3d levels, %3d distinct output values, checksum %llu, %d pixels differ from the host\n", f,
                levels, distinct, static_cast<unsigned long long>(checksum), mismatches);
  }
  std::printf("%s\n", all_match ? "every frame matches the host reference" : "MISMATCH");

  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaFree(frame));
  CUDA_CHECK(cudaFree(lut));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(bins));
  CUDA_CHECK(cudaFreeHost(host_frame));
  CUDA_CHECK(cudaFreeHost(host_out));
  return all_match ? 0 : 1;
}
