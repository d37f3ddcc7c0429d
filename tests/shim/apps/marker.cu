// Compiled to PTX (apps/marker.ptx) and to a fat binary (apps/marker.fatbin) at build time; the driver-API
// app loads both. Kept free of includes so nvcc -ptx emits the constant as a literal.
extern "C" __global__ void marker(unsigned* out) {
  unsigned i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  out[i] = 19088743u + i;  // kOriginalMarker in marker.h
}
