// Every lane of every warp reads the same shared words between barriers, then one thread writes them
// after a barrier: race-free. The reading lanes of each warp are checked together; their entries must
// not make the write after the barrier look concurrent.
#include "suite.cuh"

__global__ void broadcast_then_update(const int* in, int* out) {
  __shared__ int coefficients[4];
  const int t = threadIdx.x;
  if (t < 4) coefficients[t] = in[t];
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < 4; ++i) sum += coefficients[i];
  __syncthreads();
  if (t == 0) coefficients[0] = sum;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = sum + coefficients[0];
}

int main() {
  int* in = zeroed<int>(4);
  int* out = zeroed<int>(256);
  broadcast_then_update<<<2, 128>>>(in, out);
  return finish("device_check_warps_read_one_word", fetch(out));
}
// EXPECT: no-race
