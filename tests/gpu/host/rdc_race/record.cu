// Device function of rdc_race, linked into main.cu's kernel by the device linker.
__device__ void record_owner(int* slot, int owner) {
  slot[0] = owner;  // @A
}
