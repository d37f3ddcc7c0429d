"""Triton kernels (Triton runs ptxas itself and loads the cubin: no PTX reaches the driver, so the SASS
back end checks them). racy: every program also stores its id to out[0] (an inter-block race); clean:
each program writes only its own block of out. Exits 77 where Triton or a GPU is missing."""
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError:
    print("triton_kernels: Triton is not installed")
    sys.exit(77)


@triton.jit
def fill(out_ptr, n, RACY: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, offsets.to(tl.float32) * 2.0, mask=offsets < n)
    if RACY:
        tl.store(out_ptr + n, pid.to(tl.float32))


def main() -> int:
    racy = len(sys.argv) > 1 and sys.argv[1] == "racy"
    n = 4096
    out = torch.zeros(n + 1, device="cuda")
    fill[(n // 256,)](out, n, RACY=racy, BLOCK=256)
    torch.cuda.synchronize()
    print(f"triton_kernels: sum of the first {n} = {out[:n].sum().item():.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
