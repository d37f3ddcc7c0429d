"""PyTorch on two GPUs of one process (its kernels are machine code: the SASS back end checks them on
each GPU): a tensor made on GPU 0, copied to GPU 1, computed on there, and the result brought back and
combined on GPU 0; every step in stream order or after a copy, race-free. Exits 77 where PyTorch or a
second GPU is missing."""
import sys

try:
    import torch
except ImportError:
    print("torch_two_gpus: PyTorch is not installed")
    sys.exit(77)


def main() -> int:
    if not torch.cuda.is_available() or torch.cuda.device_count() < 2:
        print("torch_two_gpus: needs two GPUs")
        return 77
    x = torch.arange(4096, device="cuda:0", dtype=torch.float32)
    y = (x * 2.0).to("cuda:1")
    z = y + 1.0
    back = z.to("cuda:0")
    total = (back - x).sum()
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    print(f"torch_two_gpus: {total.item():.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
