// Corpus kernels: texture and surface objects, texture references to globals, dynamic shared memory.
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t linear, cudaTextureObject_t image, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v = tex1Dfetch<float>(linear, x);
  v += tex2D<float>(image, x + 0.5f, 0.5f);
  float4 q = tex2D<float4>(image, 0.25f, x * 0.5f);
  v += tex2DLod<float>(image, 0.5f, 0.5f, 1.0f) + tex3D<float>(image, 0.1f, 0.2f, 0.3f);
  v += tex1DLayered<float>(image, 0.5f, x % 4);
  float4 g = tex2Dgather<float4>(image, 0.5f, 0.5f, 1);
  out[x] = v + q.x + q.w + g.y;
}

__global__ void surfaces(cudaSurfaceObject_t surface, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v = surf2Dread<float>(surface, x * 4, 0);
  surf2Dwrite(v * 2, surface, x * 4, 1);
  uchar4 c = surf2Dread<uchar4>(surface, x * 4, 2, cudaBoundaryModeClamp);
  surf2Dwrite(c, surface, x * 4, 3, cudaBoundaryModeZero);
  surf1Dwrite(v, surface, x * 4);
}

__global__ void dynamic_shared(const double* in, double* out) {
  extern __shared__ double scratch[];
  scratch[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}
