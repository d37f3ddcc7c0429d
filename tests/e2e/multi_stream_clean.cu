// End-to-end fixture: several kernels on several streams, ordered only where they share data (events,
// a stream wait, a stream synchronisation, the legacy stream): race-free, and the output is fixed.
#include <cstdio>

__global__ void produce(int* data, int n, int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = i * seed;
}

__global__ void add_into(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += in[i];
}

__global__ void sum_into(const int* in, int n, unsigned long long* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(in[i]));
}

int main() {
  constexpr int n = 1 << 16, threads = 256, blocks = n / threads;
  int *a, *b, *c;
  unsigned long long* total;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaMalloc(&total, sizeof *total);
  cudaMemset(total, 0, sizeof *total);
  cudaStream_t s1, s2, s3;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaStreamCreate(&s3);  // blocking: ordered with the legacy stream
  cudaEvent_t a_ready, b_ready;
  cudaEventCreateWithFlags(&a_ready, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&b_ready, cudaEventDisableTiming);

  // s1 and s2 produce independent buffers concurrently; s3 produces c.
  produce<<<blocks, threads, 0, s1>>>(a, n, 3);
  cudaEventRecord(a_ready, s1);
  produce<<<blocks, threads, 0, s2>>>(b, n, 5);
  cudaEventRecord(b_ready, s2);
  produce<<<blocks, threads, 0, s3>>>(c, n, 7);
  // s2 adds a into b once a is ready; s1 then waits for that before adding b into a.
  cudaStreamWaitEvent(s2, a_ready, 0);
  add_into<<<blocks, threads, 0, s2>>>(a, b, n);
  cudaEventRecord(b_ready, s2);
  cudaStreamWaitEvent(s1, b_ready, 0);
  add_into<<<blocks, threads, 0, s1>>>(b, a, n);
  cudaStreamSynchronize(s1);
  // The legacy stream waits for s3 (blocking); a and b are complete (s1 was synchronised after s2's work).
  add_into<<<blocks, threads>>>(a, c, n);
  sum_into<<<blocks, threads>>>(c, n, total);
  unsigned long long host_total = 0;
  cudaMemcpy(&host_total, total, sizeof host_total, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("multi_stream_clean: %s, total=%llu\n", cudaGetErrorString(err), host_total);
  return err == cudaSuccess ? 0 : 1;
}
