"""The Numba side of nugo's vectorize benchmark (run by main.go).

Prints one line per workload: name<TAB>best seconds. The workloads match
main.go's: the same functions, sizes, inputs and outputs preallocated.
"""
import math
import sys
import time

import numpy as np
from numba import guvectorize, vectorize

N_ADD, ROWS, COLS, REPEATS = (int(a) for a in sys.argv[1:5])


def best(fn, repeats=REPEATS):
    fn()  # compile and warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def add(x, y):
    return x + y


def gauss(x):
    return math.exp(-x * x / 2)


def moving_average(x, width, out):
    n = x.shape[0]
    w = width
    for i in range(n):
        lo = max(0, i - w // 2)
        hi = min(n - 1, i + w // 2)
        s = 0.0
        for j in range(lo, hi + 1):
            s += x[j]
        out[i] = s / (hi - lo + 1)


def main():
    a = (np.arange(N_ADD) % 97).astype(np.float32)
    b = (np.arange(N_ADD) % 89).astype(np.float32) * 0.5
    c = np.empty_like(a)
    xg = (np.arange(N_ADD) % 1000).astype(np.float64) / 100
    g = np.empty_like(xg)
    x = ((np.arange(ROWS * COLS) * 7) % 101).astype(np.float64).reshape(ROWS, COLS)
    out = np.empty_like(x)
    for target in ("cpu", "parallel"):
        vadd = vectorize(["float32(float32, float32)"], target=target)(add)
        print(f"add_f32/{target}\t{best(lambda: vadd(a, b, out=c))}")
        vg = vectorize(["float64(float64)"], target=target)(gauss)
        print(f"gauss_f64/{target}\t{best(lambda: vg(xg, out=g))}")
        mavg = guvectorize(["void(float64[:], int64, float64[:])"], "(n),()->(n)", target=target)(moving_average)
        for w in (3, 101):
            print(f"movingavg_w{w}/{target}\t{best(lambda: mavg(x, w, out))}")
    sys.stdout.flush()


main()
