// Relocatable device code, object 2 of 2: the store the instrumented module must log.
__device__ void store_owner(int* slot, int owner) {
  slot[0] = owner;  // line 3: the site the test looks for
  atomicAdd(slot + 2, 1);
}
