// A user kernel and a cuBLAS GEMM (library machine code, no PTX: the SASS back end checks it) write the
// same matrix C. racy: in two streams with nothing between them (every element of C written by both:
// an inter-launch race). ordered: the kernel waits for the GEMM through an event. Prints a checksum.
#include <cublas_v2.h>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void overwrite(float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 1.0f;
}

int main(int argc, char** argv) {
  const bool racy = argc > 1 && std::strcmp(argv[1], "racy") == 0;
  constexpr int kN = 64;
  float *a, *b, *c;
  cudaMalloc(&a, kN * kN * sizeof(float));
  cudaMalloc(&b, kN * kN * sizeof(float));
  cudaMalloc(&c, kN * kN * sizeof(float));
  std::vector<float> ones(kN * kN, 1.0f);
  cudaMemcpy(a, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaStream_t gemm_stream, user_stream;
  cudaStreamCreateWithFlags(&gemm_stream, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&user_stream, cudaStreamNonBlocking);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(handle, gemm_stream);
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &alpha, a, kN, b, kN, &beta, c, kN);
  if (!racy) {
    cudaEvent_t done;
    cudaEventCreate(&done);
    cudaEventRecord(done, gemm_stream);
    cudaStreamWaitEvent(user_stream, done, 0);
  }
  overwrite<<<kN * kN / 128, 128, 0, user_stream>>>(c, kN * kN);
  const cudaError_t err = cudaDeviceSynchronize();
  std::vector<float> host(kN * kN);
  cudaMemcpy(host.data(), c, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : host) sum += v;
  // The race decides only which write lands last; print what both orders give alike.
  std::printf("cublas_overlap: %s, %s\n", cudaGetErrorString(err), racy ? "ran" : (sum == kN * kN ? "ones" : "wrong"));
  cublasDestroy(handle);
  return err == cudaSuccess ? 0 : 1;
}
