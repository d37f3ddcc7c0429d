#!/usr/bin/env python3
"""A PyTorch C++/CUDA extension built with torch.utils.cpp_extension.load_inline. PyTorch builds
extensions for the GPU's own architecture only (SASS, nothing barracuda can instrument) unless told to
embed PTX: TORCH_CUDA_ARCH_LIST="9.0+PTX" (set here, over any value the environment has) makes the
extension checkable.
`torch_extension.py racy` launches a kernel whose blocks 0 and 1 write and read one word unordered
(torch_kernels.cu:3 and :4: `#line 1` names the line after it); `clean` the race-free one. No PyTorch
kernel runs (tensors are made with torch.empty and read back with .cpu()): PyTorch's own kernels are
cubins without PTX. Exits 77 where PyTorch or a GPU is missing (ctest: skipped)."""
import os
import sys
import tempfile

os.environ["TORCH_CUDA_ARCH_LIST"] = "9.0+PTX"
try:
    import torch
    from torch.utils.cpp_extension import load_inline
    if not torch.cuda.is_available():
        raise RuntimeError("no GPU for PyTorch")
except Exception as error:
    print(f"skipped: {error}")
    sys.exit(77)

CUDA_SOURCE = r"""#line 1 "torch_kernels.cu"
// kernels of a PyTorch extension
__global__ void publish_racy(int* flag, int* seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[0] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 0) seen[0] = flag[0];
}
__global__ void fill_clean(int* slots, int*) {
  slots[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
void run(torch::Tensor slots, torch::Tensor seen, bool racy) {
  int* s = slots.data_ptr<int>();
  int* f = seen.data_ptr<int>();
  if (racy) publish_racy<<<2, 64>>>(s, f); else fill_clean<<<2, 64>>>(s, f);
}
"""


def main():
    racy = len(sys.argv) > 1 and sys.argv[1] == "racy"
    # One build directory for the native and the checked run: the second loads what the first built.
    build = os.path.join(tempfile.gettempdir(), "barracuda_torch_extension")
    os.makedirs(build, exist_ok=True)
    extension = load_inline(name="barracuda_torch_extension", cpp_sources="void run(torch::Tensor, torch::Tensor, bool);",
                            cuda_sources=CUDA_SOURCE, functions=["run"], extra_cuda_cflags=["-lineinfo"],
                            build_directory=build, verbose=False)
    slots = torch.empty(128, dtype=torch.int32, device="cuda")
    seen = torch.empty(1, dtype=torch.int32, device="cuda")
    extension.run(slots, seen, racy)
    torch.cuda.synchronize()
    values = slots.cpu()
    # The racy kernel writes only slot 0 of `slots`: print what every run writes.
    print(f"torch extension {'racy' if racy else 'clean'}: {int(values[0]) if racy else int(values.sum())}")


if __name__ == "__main__":
    main()
