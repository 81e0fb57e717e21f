# gengamma.py writes refgamma.txt.gz: inputs and correctly rounded float64
# results of Gamma and of Lgamma (log|Gamma|; the line carries the sign as a
# third number), computed with mpmath at 300 bits, for TestGammaExact. Run:
#   python3 gengamma.py | gzip -9 > refgamma.txt.gz
import random, math, sys
import mpmath
from mpmath import mp, mpf
mp.prec = 300
N = 2500
rnd = random.Random(7)

def logu(lo, hi):
    return math.exp(rnd.uniform(math.log(lo), math.log(hi)))

def sgn(x):
    return x if rnd.random() < 0.5 else -x

def near(c):
    return c + c * (rnd.random() - 0.5) * 2.0 ** -rnd.randint(1, 52) if c else sgn(2.0 ** -rnd.randint(1, 60))

def nearpole():
    k = rnd.randint(1, 180)
    return -k + sgn(logu(1e-15, 0.5))

def lgzero():
    # the two zeros of lgamma for x > 0 and the ones for x < 0 (|Gamma| = 1)
    c = rnd.choice([1.0, 2.0, -2.457024738220800, -2.747682646727412, -3.143580888349980, -3.955294284858597])
    return c + sgn(logu(1e-17, 1e-2)) * max(1, abs(c))

pts = [lambda: rnd.uniform(-180, 172), lambda: logu(1e-300, 171.6), lambda: sgn(logu(5e-324, 1e-300)),
       lambda: rnd.uniform(-10, 10), nearpole, lambda: near(1.0), lambda: near(2.0), lgzero,
       lambda: rnd.uniform(-190, -170), lambda: -logu(1e-300, 1)]
lpts = pts + [lambda: logu(1, 1.7e308), lambda: -logu(200, 4e15)]

def h(v):
    return float(v).hex()

def emit(name, gen, f):
    n = 0
    while n < N:
        x = rnd.choice(gen)()
        if x <= 0 and x == math.floor(x):
            continue
        y, extra = f(mpf(x))
        if abs(y) > mpf(2) ** 1024:
            continue
        sys.stdout.write("%s %s %s%s\n" % (name, h(x), h(y), extra))
        n += 1

emit("Gamma", pts, lambda x: (mpmath.gamma(x), ""))
def lg(x):
    g = mpmath.loggamma(x)  # complex for x < 0: real part is log|Gamma|
    s = 1 if x > 0 or int(mpmath.floor(x)) % 2 == 0 else -1
    return mpmath.re(g), " %d" % s
emit("Lgamma", lpts, lg)
