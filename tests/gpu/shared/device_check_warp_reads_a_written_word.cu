// Warp 1 reads one shared word with all 32 lanes (a tile row) while warp 0 writes it, with no
// barrier between: an inter-warp race. Barrier-only, so the GPU checks it, and the 32 reading lanes
// are checked together (apply_shared_read_lanes): the race must still be found whichever side the
// GPU runs first. Warp 1 waits a little so that the write usually comes first.
#include "suite.cuh"

__global__ void read_while_written(const int* in, int* out) {
  __shared__ int row[32];
  const int t = threadIdx.x;
  if (t < 32) row[t] = in[t];
  __syncthreads();
  if (t == 0) row[0] = 7;  // @A
  if (t >= 32) {
    __nanosleep(2000);
    out[t - 32] = row[0];  // @B
  }
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(32);
  read_while_written<<<1, 64>>>(in, out);
  return finish("device_check_warp_reads_a_written_word", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
