# genref.py writes ref64.txt.gz: inputs and correctly rounded float64 results
# of devmath's functions, computed with mpmath at 300 bits, for the
# accuracy-against-the-exact-value test (TestExact64). Run:
#   python3 genref.py | gzip -9 > ref64.txt.gz
# With arguments N SEED [NAMES] it draws N points per function (only the
# comma-separated NAMES if given) from another seed:
# the larger runs that doc.go's "max" column reports, checked with
#   python3 genref.py 20000 9 | gzip > /tmp/big.txt.gz
#   go test -run TestExact64 -v -args -exactref /tmp/big.txt.gz
import random, math, sys
import mpmath
from mpmath import mp, mpf
mp.prec = 300
N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 4)

def logu(lo, hi):
    return math.exp(rnd.uniform(math.log(lo), math.log(hi)))

def sgn(x):
    return x if rnd.random() < 0.5 else -x

def near(c, scale=None):
    e = rnd.randint(1, 52)
    return c * (1 + (rnd.random() - 0.5) * 2.0 ** -e)

def trigpts():
    k = rnd.randint(0, 6)
    if k == 0: return sgn(logu(1e-300, 1e300))
    if k == 1: return sgn(logu(1e-3, 1e6))
    if k == 2: return rnd.uniform(-10, 10)
    if k == 3:  # near multiples of pi/2, also huge ones
        m = rnd.randint(1, 1 << rnd.randint(1, 60))
        v = float(m * mp.pi / 2)
        return sgn(v)
    if k == 4:  # hardest known case region
        return sgn(float(mpf(6381956970095103) * 2 ** 797))
    return sgn(logu(1e6, 1e22))

def mk(f, gen):
    return (f, gen)

def mix(*gens):
    def g():
        return rnd.choice(gens)()
    return g

F = {
 "Exp": (mpmath.exp, mix(lambda: rnd.uniform(-745.1, 709.78), lambda: sgn(logu(1e-20, 700)), lambda: rnd.uniform(-745.2, -708))),
 "Exp2": (lambda x: mpf(2) ** x, mix(lambda: rnd.uniform(-1074, 1023.99), lambda: sgn(logu(1e-20, 1000)))),
 "Expm1": (mpmath.expm1, mix(lambda: rnd.uniform(-38, 709.7), lambda: sgn(logu(1e-300, 2)), lambda: sgn(near(0.3465)))),
 "Log": (mpmath.log, mix(lambda: logu(5e-324, 1.7e308), lambda: near(1.0), lambda: logu(5e-324, 2.2e-308), lambda: rnd.uniform(0.5, 2))),
 "Log2": (lambda x: mpmath.log(x, 2), mix(lambda: logu(5e-324, 1.7e308), lambda: near(1.0), lambda: logu(5e-324, 2.2e-308), lambda: rnd.uniform(0.5, 2))),
 "Log10": (mpmath.log10, mix(lambda: logu(5e-324, 1.7e308), lambda: near(1.0), lambda: logu(5e-324, 2.2e-308), lambda: near(10.0))),
 "Log1p": (mpmath.log1p, mix(lambda: logu(1e-300, 1.7e308), lambda: -logu(1e-300, 1), lambda: rnd.uniform(-1, 1))),
 "Sin": (mpmath.sin, trigpts), "Cos": (mpmath.cos, trigpts), "Tan": (mpmath.tan, trigpts),
 "Asin": (mpmath.asin, mix(lambda: rnd.uniform(-1, 1), lambda: sgn(near(1.0) if rnd.random() < 1 else 0), lambda: sgn(logu(1e-300, 1)))),
 "Acos": (mpmath.acos, mix(lambda: rnd.uniform(-1, 1), lambda: sgn(min(near(1.0), 1.0)), lambda: sgn(logu(1e-300, 1)))),
 "Atan": (mpmath.atan, mix(lambda: sgn(logu(1e-300, 1.7e308)), lambda: rnd.uniform(-4, 4))),
 "Sinh": (mpmath.sinh, mix(lambda: sgn(logu(1e-300, 709.7)), lambda: rnd.uniform(-3, 3))),
 "Cosh": (mpmath.cosh, mix(lambda: sgn(logu(1e-300, 709.7)), lambda: rnd.uniform(-3, 3))),
 "Tanh": (mpmath.tanh, mix(lambda: sgn(logu(1e-300, 30)), lambda: rnd.uniform(-3, 3))),
 "Asinh": (mpmath.asinh, mix(lambda: sgn(logu(1e-300, 1.7e308)), lambda: rnd.uniform(-3, 3))),
 "Acosh": (mpmath.acosh, mix(lambda: logu(1, 1.7e308), lambda: max(near(1.0), 1.0), lambda: rnd.uniform(1, 3))),
 "Atanh": (mpmath.atanh, mix(lambda: sgn(logu(1e-300, 1)), lambda: sgn(min(near(1.0), 0.9999999999999999)), lambda: rnd.uniform(-1, 1))),
 "Cbrt": (lambda x: mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x), mix(lambda: sgn(logu(5e-324, 1.7e308)), lambda: rnd.uniform(-10, 10))),
 "Erf": (mpmath.erf, mix(lambda: sgn(logu(1e-300, 6)), lambda: rnd.uniform(-3, 3))),
 "Erfc": (mpmath.erfc, mix(lambda: sgn(logu(1e-300, 27.3)), lambda: rnd.uniform(-3, 27.3), lambda: rnd.uniform(26, 27.3))),
}
F2 = {
 "Pow": (lambda x, y: mpf(x) ** y, mix(lambda: (logu(1e-300, 1e300), rnd.uniform(-2, 2)), lambda: (rnd.uniform(0, 4), rnd.uniform(-700, 700)), lambda: (near(1.0), sgn(logu(1, 1e15))), lambda: (-float(rnd.randint(1, 100)), float(rnd.randint(-150, 150))))),
 "Atan2": (mpmath.atan2, mix(lambda: (sgn(logu(1e-300, 1e300)), sgn(logu(1e-300, 1e300))), lambda: (rnd.uniform(-2, 2), rnd.uniform(-2, 2)))),
 "Hypot": (lambda x, y: mpmath.sqrt(mpf(x)**2 + mpf(y)**2), mix(lambda: (sgn(logu(5e-324, 1e308)), sgn(logu(5e-324, 1e308))), lambda: (rnd.uniform(-2, 2), rnd.uniform(-2, 2)))),
}

def h(v):
    return float(v).hex()

if len(sys.argv) > 3:
    keep = set(sys.argv[3].split(","))
    F = {k: v for k, v in F.items() if k in keep}
    F2 = {k: v for k, v in F2.items() if k in keep}

out = sys.stdout
for name, (f, gen) in F.items():
    for i in range(N):
        x = gen()
        try:
            y = f(mpf(x))
        except Exception:
            continue
        if isinstance(y, mpmath.mpc):
            continue
        out.write("%s %s %s\n" % (name, h(x), h(y)))
for name, (f, gen) in F2.items():
    for i in range(N):
        x, y = gen()
        try:
            z = f(mpf(x), mpf(y))
        except Exception:
            continue
        if isinstance(z, mpmath.mpc):
            continue
        out.write("%s %s %s %s\n" % (name, h(x), h(y), h(z)))
