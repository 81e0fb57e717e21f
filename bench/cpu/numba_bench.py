"""Numba's side of bench/cpu: the same workloads as nugo's CPU backend.

Prints one line per workload: NAME SECONDS CHECK, where SECONDS is the best
of several runs after a warm-up run (so JIT compilation is excluded) and
CHECK is a checksum the Go side compares with its own.
"""
import math
import os
import sys
import time

import numpy as np
from numba import njit, prange


def best(fn, repeat):
    fn()  # warm-up: compiles
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def factor_sum_py(n):
    """The sum of n's prime factors: compiled by @njit and, for the CUDA
    simulator, by @cuda.jit(device=True)."""
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


factor_sum = njit(factor_sum_py)


@njit
def primes_serial(n):
    out = np.empty(n - 1, np.int64)
    for i in range(n - 1):
        out[i] = factor_sum(i + 2)
    return out


@njit(parallel=True)
def primes_parallel(n):
    out = np.empty(n - 1, np.int64)
    for i in prange(n - 1):
        out[i] = factor_sum(i + 2)
    return out


@njit(parallel=True)
def logs_parallel(rows, cols):
    a = np.empty((rows, cols), np.float64)
    for i in prange(rows):
        for j in range(cols):
            a[i, j] = math.log10(i + j + 1)
    return a


if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    # The simulator replaces the cuda module in a kernel's globals, so the
    # kernels must be defined at module level.
    from numba import cuda

    dev_factor_sum = cuda.jit(device=True)(factor_sum_py)

    @cuda.jit
    def factor_sum_kernel(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = dev_factor_sum(i + 2)


def cudasim_primes(n):
    out = np.zeros(n - 1, np.int64)
    t0 = time.perf_counter()
    factor_sum_kernel[(out.size + 255) // 256, 256](out)
    return time.perf_counter() - t0, out


def main():
    which = sys.argv[1]
    if which == "primes_njit":
        n = int(sys.argv[2])
        t, out = best(lambda: primes_serial(n), 2)
    elif which == "primes_parallel":
        n = int(sys.argv[2])
        t, out = best(lambda: primes_parallel(n), 3)
    elif which == "logs_parallel":
        n = int(sys.argv[2])
        t, out = best(lambda: logs_parallel(n, n), 5)
        print(f"{which} {t:.6f} {out.sum():.6f}")
        return
    elif which == "primes_cudasim":
        assert os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
        t, out = cudasim_primes(int(sys.argv[2]))
    else:
        sys.exit(f"unknown workload {which}")
    print(f"{which} {t:.6f} {int(out.sum())}")


if __name__ == "__main__":
    main()
