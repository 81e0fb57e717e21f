"""logs: a[i, j] = log10(i+j+1) over an n x n float64 array.
Usage: logs.py [N]"""
import math

import numpy as np
from numba import cuda

import common


@cuda.jit
def logs(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = math.log10(i + j + 1)


def main():
    n = common.size(10_000)
    common.context()
    d = cuda.device_array((n, n), np.float64)
    grid = ((n + 15) // 16, (n + 15) // 16)
    timings = common.measure(lambda s: logs[grid, (16, 16), s](d))
    common.report("logs", n, timings, 8 * n * n, common.checksum_float(d))


if __name__ == "__main__":
    main()
