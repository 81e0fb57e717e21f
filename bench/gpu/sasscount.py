"""Counts SASS instructions per function and per loop in `cuobjdump -sass`
output (or in `nugo ptx -sass`'s): the function's total (trailing
self-branch and NOP padding left out) and, per backward branch, the
instructions of the loop body with their opcodes. bench/gpu/CODEGEN.md's
numbers come from it.

Usage: python3 sasscount.py FILE [FUNCTION-SUBSTRING] [-v]
"""
import collections
import re
import sys


def main(args):
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    text = open(args[0]).read()
    want = args[1] if len(args) > 1 else None
    for f in re.split(r"\n\s*Function : ", text)[1:]:
        name = f.split("\n", 1)[0].strip()
        if want and want not in name:
            continue
        body = [(int(m.group(1), 16), m.group(2).strip())
                for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", f)
                if not m.group(2).strip().startswith("NOP")]
        if body and re.match(r"BRA 0x%x$" % body[-1][0], body[-1][1]):
            body = body[:-1]
        print("%s: %d instructions" % (name, len(body)))
        for a, t in body:
            m = re.search(r"BRA\s+(?:`\(\.L_x_\d+\)\s+)?0x([0-9a-f]+)", t)
            if m and int(m.group(1), 16) < a:
                loop = [u for b, u in body if int(m.group(1), 16) <= b <= a]
                ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", u).split()[0] for u in loop)
                print("  loop 0x%x..0x%x: %d instructions: %s" % (
                    int(m.group(1), 16), a, len(loop),
                    ", ".join("%s %d" % kv for kv in sorted(ops.items(), key=lambda kv: (-kv[1], kv[0])))))
        if verbose:
            for a, t in body:
                print("    %04x %s" % (a, t))


if __name__ == "__main__":
    main(sys.argv[1:])
