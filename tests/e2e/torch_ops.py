"""PyTorch's own kernels (machine code in libtorch_cuda, no PTX: the SASS back end checks them): an
elementwise op, a reduction and a matrix product, race-free. Exits 77 where PyTorch or a GPU is missing."""
import sys

try:
    import torch
except ImportError:
    print("torch_ops: PyTorch is not installed")
    sys.exit(77)


def main() -> int:
    if not torch.cuda.is_available():
        print("torch_ops: no GPU")
        return 77
    x = torch.arange(4096, device="cuda", dtype=torch.float32)
    y = x * 2.0 + 1.0
    m = y[:4096].reshape(64, 64)
    product = m @ m
    torch.cuda.synchronize()
    print(f"torch_ops: sum {y.sum().item():.0f}, trace {product.trace().item():.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
