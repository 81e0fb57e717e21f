#!/usr/bin/env python3
"""Golden values of Numba's numba.cuda.random for nugo's cuda/random tests.

Run with the Python that has Numba (Debian's python3-numba 0.56.4):

    /usr/bin/python3 cuda/random/testdata/numba_golden.py > cuda/random/testdata/numba_golden.json

The values come from Numba's own functions, compiled by Numba for the CPU
(nopython mode): the same typing as its CUDA target, so float32 stays
float32 (xoroshiro128p_normal_float64 takes the logarithm of a float32
uniform in float32). As a cross-check the script then runs the same
generators in a kernel under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1,
a subprocess) and requires identical states, raw outputs and uniforms; the
simulator evaluates Python's float64 math, so its normals differ and are
not compared.

Floats are written as their IEEE bit patterns (integers), uint64s as
integers, so the Go test can compare bit for bit.
"""

import json
import os
import subprocess
import sys

import numpy as np

DRAWS = 8          # values per generator and kind
KINDS = ["next", "uniform64", "uniform32", "normal64", "normal32"]

# (seed, subsequence_start, number of generators)
SEEDED = [
    (0, 0, 5),
    (1, 0, 5),
    (42, 0, 5),
    (42, 1, 3),
    (42, 3, 3),
    (42, 1000, 2),
    (2**64 - 1, 0, 5),
    (2**64 - 1, 7, 2),
]

# Hand-made states for edge cases: an all-ones output (uniform32 rounds to
# 1.0), the all-zero state (stuck at 0; normals are +Inf), single bits.
CUSTOM = [
    (2**64 - 1, 0),
    (0, 0),
    (1, 0),
    (0, 1 << 63),
    (0x0123456789ABCDEF, 0xFEDCBA9876543210),
]


def bits64(x):
    return int(np.float64(x).view(np.uint64))


def bits32(x):
    return int(np.float32(x).view(np.uint32))


def draws(r, states, index):
    """DRAWS values of each kind from generator index, each kind from a
    fresh copy of states."""
    out = {}
    fns = {
        "next": lambda s: int(r.xoroshiro128p_next(s, index)),
        "uniform64": lambda s: bits64(r.xoroshiro128p_uniform_float64(s, index)),
        "uniform32": lambda s: bits32(r.xoroshiro128p_uniform_float32(s, index)),
        "normal64": lambda s: bits64(r.xoroshiro128p_normal_float64(s, index)),
        "normal32": lambda s: bits32(r.xoroshiro128p_normal_float32(s, index)),
    }
    for kind in KINDS:
        s = states.copy()
        out[kind] = [fns[kind](s) for _ in range(DRAWS)]
    return out


def as_pairs(states):
    return [[int(g["s0"]), int(g["s1"])] for g in states]


def compiled():
    import numba
    from numba.cuda import random as r

    doc = {
        "generator": "cuda/random/testdata/numba_golden.py",
        "numba": numba.__version__,
        "numpy": np.__version__,
        "draws": DRAWS,
        "seeded": [],
        "custom": [],
    }
    for seed, sub, n in SEEDED:
        states = np.empty(n, dtype=r.xoroshiro128p_dtype)
        r.init_xoroshiro128p_states_cpu(states, np.uint64(seed), np.uint64(sub))
        gens = sorted({0, 1, n - 1} & set(range(n)))
        doc["seeded"].append({
            "seed": seed,
            "subsequence": sub,
            "n": n,
            "states": as_pairs(states),
            "draws": {str(i): draws(r, states, i) for i in gens},
        })
    for s0, s1 in CUSTOM:
        states = np.empty(1, dtype=r.xoroshiro128p_dtype)
        states[0]["s0"] = s0
        states[0]["s1"] = s1
        doc["custom"].append({"state": [s0, s1], "draws": draws(r, states, 0)})
    return doc


SIM = r"""
import json, sys
import numpy as np
from numba import cuda
from numba.cuda import random as r

cases = json.load(sys.stdin)
out = []
for seed, sub, n, k in cases:
    states = r.create_xoroshiro128p_states(n, seed, subsequence_start=sub)
    init = [[int(g["s0"]), int(g["s1"])] for g in states.copy_to_host()]

    @cuda.jit
    def kernel(states, nxt, u64, u32):
        i = cuda.grid(1)
        if i < nxt.shape[0]:
            for j in range(nxt.shape[1]):
                nxt[i, j] = r.xoroshiro128p_next(states, i)
            for j in range(u64.shape[1]):
                u64[i, j] = r.xoroshiro128p_uniform_float64(states, i)
            for j in range(u32.shape[1]):
                u32[i, j] = r.xoroshiro128p_uniform_float32(states, i)

    nxt = np.zeros((n, k), dtype=np.uint64)
    u64 = np.zeros((n, k), dtype=np.float64)
    u32 = np.zeros((n, k), dtype=np.float32)
    kernel[1, n](states, nxt, u64, u32)
    out.append({
        "states": init,
        "next": nxt.tolist(),
        "uniform64": [[int(v) for v in row] for row in u64.view(np.uint64)],
        "uniform32": [[int(v) for v in row] for row in u32.view(np.uint32)],
    })
json.dump(out, sys.stdout)
"""


def simulated_matches(doc):
    """Run the seeded cases in a kernel under the CUDA simulator and check
    them against the compiled functions' values."""
    from numba.cuda import random as r

    cases = [[c["seed"], c["subsequence"], c["n"], 3] for c in doc["seeded"] if c["subsequence"] < 100]
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    res = subprocess.run([sys.executable, "-W", "ignore", "-c", SIM], input=json.dumps(cases),
                         capture_output=True, text=True, env=env, check=True)
    sims = json.loads(res.stdout)
    for (seed, sub, n, k), sim in zip(cases, sims):
        c = next(c for c in doc["seeded"] if (c["seed"], c["subsequence"]) == (seed, sub))
        if sim["states"] != c["states"]:
            sys.exit(f"cudasim states differ for seed {seed} subsequence {sub}")
        # The kernel draws next, then uniform64, then uniform32 from one
        # generator in turn; replay that with the compiled functions.
        states = np.empty(n, dtype=r.xoroshiro128p_dtype)
        for i, (s0, s1) in enumerate(c["states"]):
            states[i]["s0"], states[i]["s1"] = s0, s1
        for i in range(n):
            want = {
                "next": [int(r.xoroshiro128p_next(states, i)) for _ in range(k)],
                "uniform64": [bits64(r.xoroshiro128p_uniform_float64(states, i)) for _ in range(k)],
                "uniform32": [bits32(r.xoroshiro128p_uniform_float32(states, i)) for _ in range(k)],
            }
            for kind, vals in want.items():
                if sim[kind][i] != vals:
                    sys.exit(f"cudasim {kind} differs for seed {seed} subsequence {sub} generator {i}")
    print(f"cudasim agrees on {len(cases)} seeded cases", file=sys.stderr)


def dumps(v, indent=""):
    """JSON with every list of numbers (or of pairs) on one line."""
    inner = indent + " "
    if isinstance(v, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(x, inner)}" for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(v, list) and any(isinstance(x, dict) for x in v):
        items = [inner + dumps(x, inner) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(v, separators=(",", ":"))


def main():
    doc = compiled()
    simulated_matches(doc)
    sys.stdout.write(dumps(doc) + "\n")


if __name__ == "__main__":
    main()
