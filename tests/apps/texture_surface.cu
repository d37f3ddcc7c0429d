// An image-processing chain on CUDA arrays, as in a vision front end: an edge filter reads the image
// through a texture object (point sampling, clamped borders) and writes the edge map into a second
// array through a surface object; a thresholding pass reads and rewrites that array in place through
// the surface; a 2x downsampling pass reads it through a second texture with bilinear filtering.
// APP-EXPECT: clean
#include <cmath>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

constexpr int kWidth = 256;
constexpr int kHeight = 192;
constexpr float kThreshold = 24.0f;

__global__ void sobel(cudaTextureObject_t image, cudaSurfaceObject_t edges, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  auto p = [&](int dx, int dy) { return tex2D<float>(image, x + dx + 0.5f, y + dy + 0.5f); };
  float gx = (p(1, -1) + 2.0f * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2.0f * p(-1, 0) + p(-1, 1));
  float gy = (p(-1, 1) + 2.0f * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2.0f * p(0, -1) + p(1, -1));
  surf2Dwrite(fabsf(gx) + fabsf(gy), edges, x * static_cast<int>(sizeof(float)), y);
}

__global__ void threshold(cudaSurfaceObject_t edges, int width, int height, float limit) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float v = surf2Dread<float>(edges, x * static_cast<int>(sizeof(float)), y);
  surf2Dwrite(v >= limit ? v : 0.0f, edges, x * static_cast<int>(sizeof(float)), y);
}

// Samples the corner shared by texels (2x, 2y) .. (2x+1, 2y+1): bilinear filtering averages the four.
__global__ void downsample(cudaTextureObject_t edges, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = tex2D<float>(edges, 2.0f * x + 1.0f, 2.0f * y + 1.0f);
}

cudaTextureObject_t make_texture(cudaArray_t array, cudaTextureFilterMode filter) {
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture = {};
  texture.addressMode[0] = cudaAddressModeClamp;
  texture.addressMode[1] = cudaAddressModeClamp;
  texture.filterMode = filter;
  texture.readMode = cudaReadModeElementType;
  texture.normalizedCoords = 0;
  cudaTextureObject_t object;
  CUDA_CHECK(cudaCreateTextureObject(&object, &resource, &texture, nullptr));
  return object;
}

int main() {
  // A few bright rectangles and a ring on a dark background, in whole grey levels.
  std::vector<float> image(kWidth * kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      float v = static_cast<float>((x * 3 + y * 5) % 7);
      if (x > 30 && x < 90 && y > 20 && y < 70) v += 100.0f;
      if (x > 120 && x < 200 && y > 100 && y < 160) v += 60.0f;
      int dx = x - 180, dy = y - 50, r2 = dx * dx + dy * dy;
      if (r2 > 400 && r2 < 900) v += 80.0f;
      image[y * kWidth + x] = v;
    }
  }
  cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  cudaArray_t source, edges;
  CUDA_CHECK(cudaMallocArray(&source, &channel, kWidth, kHeight));
  CUDA_CHECK(cudaMallocArray(&edges, &channel, kWidth, kHeight, cudaArraySurfaceLoadStore));
  CUDA_CHECK(cudaMemcpy2DToArray(source, 0, 0, image.data(), kWidth * sizeof(float), kWidth * sizeof(float), kHeight,
                                 cudaMemcpyHostToDevice));
  cudaTextureObject_t image_texture = make_texture(source, cudaFilterModePoint);
  cudaTextureObject_t edge_texture = make_texture(edges, cudaFilterModeLinear);
  cudaResourceDesc surface_resource = {};
  surface_resource.resType = cudaResourceTypeArray;
  surface_resource.res.array.array = edges;
  cudaSurfaceObject_t edge_surface;
  CUDA_CHECK(cudaCreateSurfaceObject(&edge_surface, &surface_resource));

  const int small_width = kWidth / 2, small_height = kHeight / 2;
  float* small;
  CUDA_CHECK(cudaMalloc(&small, small_width * small_height * sizeof(float)));
  dim3 block(16, 16);
  dim3 grid(kWidth / block.x, kHeight / block.y);
  sobel<<<grid, block>>>(image_texture, edge_surface, kWidth, kHeight);
  threshold<<<grid, block>>>(edge_surface, kWidth, kHeight, kThreshold);
  downsample<<<dim3(small_width / block.x, small_height / block.y), block>>>(edge_texture, small, small_width,
                                                                            small_height);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> edge_map(kWidth * kHeight), reduced(small_width * small_height);
  CUDA_CHECK(cudaMemcpy2DFromArray(edge_map.data(), kWidth * sizeof(float), edges, 0, 0, kWidth * sizeof(float), kHeight,
                                   cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(reduced.data(), small, reduced.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // The host's edge map, with the same clamped borders.
  auto p = [&](int x, int y) {
    x = x < 0 ? 0 : x >= kWidth ? kWidth - 1 : x;
    y = y < 0 ? 0 : y >= kHeight ? kHeight - 1 : y;
    return image[y * kWidth + x];
  };
  int edge_mismatches = 0, edge_pixels = 0;
  double edge_sum = 0.0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      float gx = (p(x + 1, y - 1) + 2.0f * p(x + 1, y) + p(x + 1, y + 1)) -
                 (p(x - 1, y - 1) + 2.0f * p(x - 1, y) + p(x - 1, y + 1));
      float gy = (p(x - 1, y + 1) + 2.0f * p(x, y + 1) + p(x + 1, y + 1)) -
                 (p(x - 1, y - 1) + 2.0f * p(x, y - 1) + p(x + 1, y - 1));
      float v = std::fabs(gx) + std::fabs(gy);
      v = v >= kThreshold ? v : 0.0f;
      edge_mismatches += v != edge_map[y * kWidth + x];
      edge_pixels += edge_map[y * kWidth + x] != 0.0f;
      edge_sum += edge_map[y * kWidth + x];
    }
  }
  int reduced_mismatches = 0;
  double reduced_sum = 0.0;
  for (int y = 0; y < small_height; ++y) {
    for (int x = 0; x < small_width; ++x) {
      const float* e = &edge_map[2 * y * kWidth + 2 * x];
      float average = (e[0] + e[1] + e[kWidth] + e[kWidth + 1]) * 0.25f;
      reduced_mismatches += std::fabs(reduced[y * small_width + x] - average) > 1e-3f * (1.0f + average);
      reduced_sum += reduced[y * small_width + x];
    }
  }
  std::printf("edge map: %d edge pixels, sum %.1f, %d pixels differ from the host\n", edge_pixels, edge_sum,
              edge_mismatches);
  std::printf("downsampled %dx%d: sum %.2f, %d pixels differ from the host\n", small_width, small_height, reduced_sum,
              reduced_mismatches);

  CUDA_CHECK(cudaDestroyTextureObject(image_texture));
  CUDA_CHECK(cudaDestroyTextureObject(edge_texture));
  CUDA_CHECK(cudaDestroySurfaceObject(edge_surface));
  CUDA_CHECK(cudaFreeArray(source));
  CUDA_CHECK(cudaFreeArray(edges));
  CUDA_CHECK(cudaFree(small));
  return edge_mismatches == 0 && reduced_mismatches == 0 ? 0 : 1;
}
