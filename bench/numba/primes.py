"""primes: the sum of the prime factors of every integer 2..N, one thread per
number, by trial division (int64, as a Numba user writes it; LLVM bypasses
slow 64-bit division with a 32-bit one when the operands fit).
Usage: primes.py [N]"""
import numpy as np
from numba import cuda

import common


@cuda.jit(device=True)
def factor_sum(n):
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


@cuda.jit
def primes(start, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = factor_sum(start + i)


def main():
    N = common.size(1_000_000)
    n = N - 1
    common.context()
    out = cuda.device_array(n, np.int64)
    grid = common.grid1(n)
    start = np.int64(2)
    timings = common.measure(lambda s: primes[grid, 256, s](start, out))
    common.report("primes", N, timings, 0, str(int(out.copy_to_host().sum())))


if __name__ == "__main__":
    main()
