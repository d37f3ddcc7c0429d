// Particle binning with on-device diagnostics, as simulation codes debug themselves: particles are
// counted into grid cells, one thread prints the occupied cells with device-side printf (one thread,
// so the order is fixed), and a validation kernel asserts that no cell exceeds its capacity. The
// second batch is deliberately overloaded: the program expects cudaErrorAssert from the synchronisation
// after the validation, says so and exits 0 (the context is unusable after a device assert).
// APP-EXPECT: clean
// APP-UNCHECKED: ended in a fault
#undef NDEBUG  // the validation must stay in release builds
#include <cassert>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kCellsPerSide = 8;
constexpr int kCells = kCellsPerSide * kCellsPerSide;
constexpr int kCapacity = 40;
constexpr int kParticles = 1536;

__global__ void bin_particles(const float2* positions, int n, int* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int cx = static_cast<int>(positions[i].x * kCellsPerSide);
  int cy = static_cast<int>(positions[i].y * kCellsPerSide);
  atomicAdd(&counts[cy * kCellsPerSide + cx], 1);
}

__global__ void print_occupancy(const int* counts, int batch) {
  if (threadIdx.x != 0) return;
  int busiest = 0;
  for (int c = 0; c < kCells; ++c) busiest = counts[c] > counts[busiest] ? c : busiest;
  printf("[device] batch %d: busiest cell (%d, %d) holds %d particles\n", batch, busiest % kCellsPerSide,
         busiest / kCellsPerSide, counts[busiest]);
  for (int row = 0; row < kCellsPerSide; ++row) {
    printf("[device]  row %d:", row);
    for (int col = 0; col < kCellsPerSide; ++col) printf(" %3d", counts[row * kCellsPerSide + col]);
    printf("\n");
  }
}

__global__ void check_capacity(const int* counts) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < kCells) assert(counts[c] <= kCapacity);
}

// Uniform particles; the overloaded batch drops a dense cluster into one cell.
std::vector<float2> make_batch(bool overloaded) {
  std::vector<float2> positions(kParticles);
  unsigned seed = overloaded ? 99u : 7u;
  for (int i = 0; i < kParticles; ++i) {
    seed = seed * 1103515245u + 12345u;
    float x = static_cast<float>((seed >> 8) & 0xffff) / 65536.0f;
    seed = seed * 1103515245u + 12345u;
    float y = static_cast<float>((seed >> 8) & 0xffff) / 65536.0f;
    if (overloaded && i % 16 == 0) {
      x = 0.3f + x / 64.0f;
      y = 0.6f + y / 64.0f;
    }
    positions[i] = make_float2(x, y);
  }
  return positions;
}

int main() {
  float2* positions;
  int* counts;
  CUDA_CHECK(cudaMalloc(&positions, kParticles * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&counts, kCells * sizeof(int)));
  for (int batch = 0; batch < 2; ++batch) {
    const bool overloaded = batch == 1;
    std::vector<float2> host = make_batch(overloaded);
    CUDA_CHECK(cudaMemcpy(positions, host.data(), kParticles * sizeof(float2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(counts, 0, kCells * sizeof(int)));
    bin_particles<<<(kParticles + 255) / 256, 256>>>(positions, kParticles, counts);
    std::printf("batch %d: %d particles binned into %d cells of capacity %d\n", batch, kParticles, kCells, kCapacity);
    std::fflush(stdout);  // the device's lines come after this one
    print_occupancy<<<1, 32>>>(counts, batch);
    CUDA_CHECK(cudaDeviceSynchronize());
    check_capacity<<<1, kCells>>>(counts);
    cudaError_t status = cudaDeviceSynchronize();
    if (!overloaded) {
      CUDA_CHECK(status);
      std::printf("batch %d: every cell within capacity\n", batch);
    } else if (status == cudaErrorAssert) {
      std::printf("batch %d: assert caught (%s)\n", batch, cudaGetErrorName(status));
      return 0;
    } else {
      std::printf("batch %d: expected cudaErrorAssert, got %s\n", batch, cudaGetErrorName(status));
      return 1;
    }
  }
  std::printf("the overloaded batch passed validation\n");
  return 1;
}
