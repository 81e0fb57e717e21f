"""vecadd: c = a + b over n float32. Usage: vecadd.py [N]"""
import numpy as np
from numba import cuda

import common


@cuda.jit
def vecadd(a, b, c):
    i = cuda.grid(1)
    if i < c.shape[0]:
        c[i] = a[i] + b[i]


def main():
    n = common.size(100_000_000)
    common.context()
    i = np.arange(n, dtype=np.int64)
    da = cuda.to_device((i % 1024).astype(np.float32))
    db = cuda.to_device((2 * (i % 512)).astype(np.float32))
    del i
    dc = cuda.device_array(n, np.float32)
    grid = common.grid1(n)
    timings = common.measure(lambda s: vecadd[grid, 256, s](da, db, dc))
    common.report("vecadd", n, timings, 12 * n, common.checksum_float(dc))


if __name__ == "__main__":
    main()
