"""coalesced / permuted: out[i] = log10(i+1) in order, or out[j] = log10(j+1)
for j = perm[i], a random permutation. Usage: coalesced.py [N] [permuted]"""
import math
import sys

import numpy as np
from numba import cuda

import common


@cuda.jit
def in_order(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = math.log10(i + 1)


@cuda.jit
def permuted(perm, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        j = perm[i]
        out[j] = math.log10(j + 1)


def main():
    n = common.size(100_000_000)
    perm = len(sys.argv) > 2 and sys.argv[2] == "permuted"
    common.context()
    out = cuda.device_array(n, np.float64)
    grid = common.grid1(n)
    if perm:
        dp = cuda.to_device(np.random.default_rng(1).permutation(n).astype(np.int32))
        timings = common.measure(lambda s: permuted[grid, 256, s](dp, out))
        common.report("permuted", n, timings, 12 * n, common.checksum_float(out))
    else:
        timings = common.measure(lambda s: in_order[grid, 256, s](out))
        common.report("coalesced", n, timings, 8 * n, common.checksum_float(out))


if __name__ == "__main__":
    main()
