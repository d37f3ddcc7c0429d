// Corpus kernels: tensor cores through wmma, mma.sync and (sm_90a) wgmma.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void wmma_gemm(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void mma_sync(const unsigned* a, const unsigned* b, float* d) {
  unsigned ra[4] = {a[0], a[1], a[2], a[3]}, rb[2] = {b[0], b[1]};
  float acc[4] = {0, 0, 0, 0};
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
  unsigned frag[4];
  __shared__ alignas(16) unsigned short tile[16 * 16];
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(tile + (threadIdx.x % 16) * 16));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3]) : "r"(addr));
  for (int i = 0; i < 4; ++i) d[threadIdx.x * 4 + i] = acc[i] + frag[i];
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// One m64n8k16 wgmma with both operands described by shared-memory matrix descriptors.
__global__ void wgmma_tile(float* d, unsigned long long desc_a, unsigned long long desc_b) {
  float acc[4] = {0, 0, 0, 0};
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 0, 0;"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  for (int i = 0; i < 4; ++i) d[threadIdx.x * 4 + i] = acc[i];
}
#endif
