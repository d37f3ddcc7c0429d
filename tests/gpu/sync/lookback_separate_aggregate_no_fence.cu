// A look-back that spins on a volatile flag but reads the aggregate from a separate plain array,
// written before the flag with no fence: the spin is not a race (volatile store and spin read), but
// nothing orders the aggregate's write before its read in a later block. The fix is
// __threadfence() before the flag store and after the spin (or one word for value and status).
#include "suite.cuh"

constexpr int kTiles = 8, kThreads = 32;

__global__ void scan(const unsigned* in, unsigned* aggregates, volatile unsigned* flags, unsigned* out,
                     unsigned* ticket) {
  __shared__ int tile_of_block;
  if (threadIdx.x == 0) tile_of_block = atomicAdd(ticket, 1u);
  __syncthreads();
  const int tile = tile_of_block;
  unsigned aggregate = in[tile * kThreads + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) aggregate += __shfl_down_sync(~0u, aggregate, offset);
  if (threadIdx.x != 0) return;
  aggregates[tile] = aggregate;  // @A
  flags[tile] = 1;
  unsigned exclusive = 0;
  for (int j = tile - 1; j >= 0; --j) {
    while (flags[j] == 0) {
    }
    exclusive += aggregates[j];  // @B
  }
  out[tile] = exclusive;
}

int main() {
  unsigned host[kTiles * kThreads];
  for (int i = 0; i < kTiles * kThreads; ++i) host[i] = i % 3;
  unsigned* in = zeroed<unsigned>(kTiles * kThreads);
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
  unsigned* aggregates = zeroed<unsigned>(kTiles);
  unsigned* flags = zeroed<unsigned>(kTiles);
  unsigned* out = zeroed<unsigned>(kTiles);
  unsigned* ticket = zeroed<unsigned>(1);
  scan<<<kTiles, kThreads>>>(in, aggregates, flags, out, ticket);
  return finish("lookback_separate_aggregate_no_fence", fetch(out + kTiles - 1));
}
// EXPECT: race inter-block global RAW A B
