"""sassstat.py: measure a cuobjdump -sass listing for table.sh.

Usage: sassstat.py REGISTERS < listing
Prints "registers | instructions | innermost loop | calls | 32-bit division".
"""
import re
import sys

LINE = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
ops = []
best = None
calls = 0
fast = False
for line in sys.stdin:
    m = LINE.match(line)
    if not m:
        continue
    addr = int(m.group(1), 16)
    text = m.group(2)
    words = text.split()
    op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    ops.append(op)
    if op.startswith("BRA"):
        t = re.search(r"0x([0-9a-f]+)", text)
        if t:
            target = int(t.group(1), 16)
            if target < addr:
                n = (addr - target) // 16 + 1
                best = n if best is None else min(best, n)
    if op.startswith("CALL"):
        calls += 1
    if op.startswith("I2F.U32.RP"):
        fast = True
print(f"{sys.argv[1]} | {len(ops)} | {best if best else '-'} | {calls} | {'yes' if fast else 'no'}")
