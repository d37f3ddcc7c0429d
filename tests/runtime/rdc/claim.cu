// Relocatable device code, object 1 of 2: the kernel calls a device function of the other object.
extern __device__ void store_owner(int* slot, int owner);

__global__ void claim(int* slot) {
  store_owner(slot, blockIdx.x + 1);
  atomicAdd(slot + 1, 1);  // both objects synchronise: perturbed, each defines the seed global
}
