"""Prints the GPU benchmark's table from the JSON lines that bench/gpu
(nugo), bench/numba and bench/cuda print, as scripts/gpu-check.sh collects
them: one Markdown table, one row per workload and size, with kernel times
(median of CUDA-event-timed launches), the ratios nugo/Numba and nugo/CUDA C
(below 1: nugo is faster), nugo's effective bandwidth against the measured
device-to-device copy bandwidth for the memory-bound workloads, first-launch
latency in a fresh process, host launch overhead, and whether the checksums
agree.

Usage: python3 table.py results.jsonl
"""
import json
import sys

IMPLS = ("nugo", "numba", "cuda")
ORDER = ("primes", "vecadd", "logs", "coalesced", "permuted", "movingavg")


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def main(path):
    rows = {}  # (workload, n) -> impl -> record
    errors = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                r = json.loads(line)
                r["workload"], int(r["n"]), r["impl"]
                if "error" not in r:
                    float(r["kernel_ms"])
            except (ValueError, KeyError, TypeError) as e:
                errors.append({"error": "unreadable result line (%s): %s" % (e, line[:200])})
                continue
            if "error" in r:
                errors.append(r)
                continue
            rows.setdefault((r["workload"], int(r["n"])), {})[r["impl"]] = r

    d2d = {impl: rec for (w, _), recs in rows.items() if w == "d2d" for impl, rec in recs.items()}
    ref = d2d.get("cuda") or d2d.get("nugo")
    ref_gbs = ref["bytes"] / ref["kernel_ms"] / 1e6 if ref and ref["kernel_ms"] > 0 else None
    if ref_gbs:
        others = ", ".join("%s %.0f GB/s" % (impl, rec["bytes"] / rec["kernel_ms"] / 1e6)
                           for impl, rec in sorted(d2d.items()) if rec["kernel_ms"] > 0)
        print("Device-to-device copy bandwidth (read + write): %.0f GB/s (%s)\n" % (ref_gbs, others))

    print("| workload | n | kernel ms nugo | Numba | CUDA C | nugo/Numba | nugo/CUDA C "
          "| nugo GB/s | % of D2D | first launch ms nugo / Numba / CUDA C "
          "| launch µs nugo / Numba / CUDA C | checksums |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    keys = sorted((k for k in rows if k[0] != "d2d"),
                  key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else len(ORDER), k[1]))
    for w, n in keys:
        recs = rows[(w, n)]
        get = lambda impl, field: recs[impl][field] if impl in recs else None  # noqa: E731
        nugo = get("nugo", "kernel_ms")
        gbs = pct = None
        nbytes = get("nugo", "bytes")
        if nugo and nbytes:
            gbs = nbytes / nugo / 1e6
            pct = 100 * gbs / ref_gbs if ref_gbs else None
        checks = {recs[i]["check"] for i in IMPLS if i in recs}
        present = [i for i in IMPLS if i in recs]
        if len(checks) > 1:
            check = "DIFFER: " + ", ".join("%s %s" % (i, recs[i]["check"]) for i in present)
        elif len(present) == len(IMPLS):
            check = "agree"
        else:
            check = "agree (%s only)" % ", ".join(present) if len(present) > 1 else "%s only" % present[0]
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s | %s |" % (
            w, "{:.0e}".format(n) if n >= 1e5 else n,
            fmt(nugo, ".3f"), fmt(get("numba", "kernel_ms"), ".3f"), fmt(get("cuda", "kernel_ms"), ".3f"),
            fmt(ratio(nugo, get("numba", "kernel_ms")), ".2f"), fmt(ratio(nugo, get("cuda", "kernel_ms")), ".2f"),
            fmt(gbs, ".0f"), fmt(pct, ".0f"),
            fmt(get("nugo", "first_ms"), ".1f"), fmt(get("numba", "first_ms"), ".1f"), fmt(get("cuda", "first_ms"), ".1f"),
            fmt(get("nugo", "launch_us"), ".1f"), fmt(get("numba", "launch_us"), ".1f"), fmt(get("cuda", "launch_us"), ".1f"),
            check))
    if errors:
        print("\nFailed runs:")
        for e in errors:
            if "impl" in e:
                print("- %s %s n=%s: %s" % (e.get("impl"), e.get("workload"), e.get("n"), e["error"]))
            else:
                print("- %s" % e["error"])


if __name__ == "__main__":
    main(sys.argv[1])
