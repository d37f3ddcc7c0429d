// Device code of rdc_norace, resolved by the device linker.
__device__ int scale_factor = 3;
__device__ int scaled(int v) { return v * scale_factor; }
