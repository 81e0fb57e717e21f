"""Timing and output shared by the Numba side of nugo's GPU benchmark.

Each workload script runs one workload in a fresh process and prints one
JSON line in the format of bench/gpu (nugo's side): kernel_ms is the median
of REPS launches timed by CUDA events after two warm-ups, first_ms the first
launch with its synchronization (the context already created, so it is
Numba's compile, module load and launch), launch_us the median host time of
those launch calls (asynchronous, each on an idle stream).
"""
import json
import os
import sys
import time

os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

REPS = 20


def size(default):
    """The problem size: the first command-line argument, or default."""
    return int(sys.argv[1]) if len(sys.argv) > 1 else default


def context():
    """Creates the CUDA context before anything is timed."""
    cuda.current_context()
    cuda.device_array(1)


def measure(launch):
    """Times launch(stream) (stream 0: the default stream).

    Returns (kernel_ms, first_ms, launch_us).
    """
    t0 = time.perf_counter()
    launch(0)
    cuda.synchronize()
    first_ms = (time.perf_counter() - t0) * 1e3
    for _ in range(2):
        launch(0)
    cuda.synchronize()
    s = cuda.stream()
    start, end = cuda.event(), cuda.event()
    times, host = [], []
    for _ in range(REPS):
        start.record(s)
        h0 = time.perf_counter()
        launch(s)
        host.append((time.perf_counter() - h0) * 1e6)
        end.record(s)
        end.synchronize()
        times.append(start.elapsed_time(end))
    return float(np.median(times)), first_ms, float(np.median(host))


def checksum_float(d):
    """The sum of a device array's elements, 6 significant digits."""
    return "%.6g" % float(np.sum(d.copy_to_host(), dtype=np.float64))


def report(workload, n, timings, nbytes, check):
    kernel_ms, first_ms, launch_us = timings
    print(json.dumps({"impl": "numba", "workload": workload, "n": n, "kernel_ms": kernel_ms,
                      "first_ms": first_ms, "launch_us": launch_us, "bytes": nbytes,
                      "check": check}))


def grid1(n, block=256):
    return (n + block - 1) // block
