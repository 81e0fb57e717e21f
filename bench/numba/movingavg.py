"""movingavg: centred moving average of width elements, truncated at the
ends. Usage: movingavg.py [N] [WIDTH]"""
import sys

import numpy as np
from numba import cuda

import common


@cuda.jit
def movingavg(x, width, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i >= n:
        return
    lo = max(0, i - width // 2)
    hi = min(n - 1, i + width // 2)
    s = 0.0
    for j in range(lo, hi + 1):
        s += x[j]
    out[i] = s / (hi - lo + 1)


def main():
    n = common.size(10_000_000)
    width = int(sys.argv[2]) if len(sys.argv) > 2 else 101
    common.context()
    dx = cuda.to_device((np.arange(n, dtype=np.int64) % 1000).astype(np.float64))
    out = cuda.device_array(n, np.float64)
    grid = common.grid1(n)
    timings = common.measure(lambda s: movingavg[grid, 256, s](dx, width, out))
    common.report("movingavg", n, timings, 16 * n, common.checksum_float(out))


if __name__ == "__main__":
    main()
