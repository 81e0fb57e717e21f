"""Numba versions of the three kernels, compiled to PTX without a GPU.

Run with NUMBA_FORCE_CUDA_CC=8.0 (table.sh sets it); writes <name>.numba.ptx.
"""
import math
import sys

from numba import cuda, float32, float64, int64


@cuda.jit(device=True)
def prime_factor_sum(n):
    s = 0
    while n > 1 and n % 2 == 0:
        s += 2
        n //= 2
    f = 3
    while f * f <= n:
        while n % f == 0:
            s += f
            n //= f
        f += 2
    if n > 1:
        s += n
    return s


def factor_sums(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = prime_factor_sum(int64(i) + 2)


def add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def logs(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = math.log10(i + j + 1)


KERNELS = {
    "primes": (factor_sums, (int64[::1],)),
    "vectoradd": (add, (float32[::1], float32[::1], float32[::1])),
    "logs": (logs, (float64[:, ::1],)),
}

if __name__ == "__main__":
    outdir = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, (fn, sig) in KERNELS.items():
        ptx, _ = cuda.compile_ptx(fn, sig, cc=(8, 0))
        with open(f"{outdir}/{name}.numba.ptx", "w") as f:
            f.write(ptx)
