// atomic_ref at every scope, each used only by threads its scope covers: thread scope on a private
// word, block scope on a per-block word, device and system scope on words shared by all: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void scopes(int* private_words, int* per_block, int* device_word, int* system_word) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_thread>(private_words[i]).fetch_add(1);
  cuda::atomic_ref<int, cuda::thread_scope_block>(per_block[blockIdx.x]).fetch_add(1);
  cuda::atomic_ref<int, cuda::thread_scope_device>(*device_word).fetch_add(1);
  cuda::atomic_ref<int, cuda::thread_scope_system>(*system_word).fetch_add(1);
}

int main() {
  int* private_words = zeroed<int>(4 * 64);
  int* per_block = zeroed<int>(4);
  int* device_word = zeroed<int>(1);
  int* system_word = zeroed<int>(1);
  scopes<<<4, 64>>>(private_words, per_block, device_word, system_word);
  return finish("every_scope", fetch(system_word));
}
// EXPECT: no-race
