"""The statistics of the cards, computed here independently of
src/stats.c, for tests/stats.sh:

    stats_oracle.py < CASES   (the lines tests/statcheck prints)

Each line statcheck printed is checked against this file's own answer:
Tango's interval by maximising the profile likelihood numerically (no
closed form) and searching the score's crossings; McNemar's p-value and
pass^k exactly, in fractions; the mean's interval and Wilson's directly.
Prints one line per case that differs, then "stats: N passed, M failed"."""
import math
import sys
from fractions import Fraction

Z = 1.959963984540054


def profile_q(x, y, n, d):
    # p21 maximising x ln(q + d) + y ln q + (n - x - y) ln(1 - 2q - d)
    lo, hi = max(0.0, -d), (1.0 - d) / 2.0
    if hi <= lo:
        return lo

    def ll(q):
        t = 0.0
        for count, p in ((x, q + d), (y, q), (n - x - y, 1 - 2 * q - d)):
            if count:
                if p <= 0:
                    return -math.inf
                t += count * math.log(p)
        return t
    for _ in range(300):  # golden-section search: the function is concave
        a = lo + (hi - lo) * 0.381966
        b = lo + (hi - lo) * 0.618034
        if ll(a) < ll(b):
            lo = a
        else:
            hi = b
    return (lo + hi) / 2


def score(x, y, n, d):
    q = profile_q(x, y, n, d)
    var = n * (2 * q + d * (1 - d))
    num = x - y - n * d
    if var <= 1e-300:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango(x, y, n):
    if n == 0:
        return 0.0, -1.0, 1.0
    d = (x - y) / n
    lo, hi = -1.0, 1.0
    if score(x, y, n, -1.0) > Z:
        a, b = -1.0, d
        for _ in range(80):
            m = (a + b) / 2
            if score(x, y, n, m) > Z:
                a = m
            else:
                b = m
        lo = (a + b) / 2
    if score(x, y, n, 1.0) < -Z:
        a, b = d, 1.0
        for _ in range(80):
            m = (a + b) / 2
            if score(x, y, n, m) < -Z:
                b = m
            else:
                a = m
        hi = (a + b) / 2
    return d, lo, hi


def mcnemar(x, y):
    n, k = x + y, min(x, y)
    if n == 0:
        return 1.0
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n)
    return float(min(Fraction(1), 2 * tail))


def passk(c, n, k):
    if k == 0:
        return 1.0
    if k > n:
        return 0.0
    return float(Fraction(math.comb(c, k), math.comb(n, k)))


def mean(v):
    m = len(v)
    mu = sum(v) / m if m else 0.0
    if m < 2:
        return mu, -1.0, 1.0
    s = math.sqrt(sum((a - mu) ** 2 for a in v) / (m - 1))
    return mu, mu - Z * s / math.sqrt(m), mu + Z * s / math.sqrt(m)


def wilson(x, n):
    if n == 0:
        return 0.0, 1.0
    p = x / n
    den = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / den
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / den
    return (0.0 if x == 0 else max(0.0, c - h)), (1.0 if x == n else min(1.0, c + h))


def wilson_at(p, n):
    """Wilson's interval of rate p at an effective size n (a real)"""
    den = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / den
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / den
    return (0.0 if p == 0 else max(0.0, c - h)), (1.0 if p == 1 else min(1.0, c + h))


def effective(p, var, m, n):
    """the size Wilson's interval is taken at: p(1-p)/var, at most n; n
    with no variance; m (the tasks) when p is 0 or 1"""
    if p in (0.0, 1.0):
        return m
    if var == 0:
        return n
    return min(n, p * (1 - p) / var)


def by_task(groups):
    """The interval of a rate whose trials fall in tasks: groups is a list
    of lists of 0/1 outcomes, a task each.  Wilson's over the trials when
    each task has one; else the variance of x/n clustered by task gives the
    effective size at which Wilson's is taken (docs/card.md)."""
    x = sum(sum(g) for g in groups)
    n = sum(len(g) for g in groups)
    m = len(groups)
    if max(len(g) for g in groups) == 1:
        return wilson(x, n)
    if m < 2:
        return 0.0, 1.0
    p = x / n
    var = m / (m - 1) * sum((sum(g) - p * len(g)) ** 2 for g in groups) / n ** 2
    return wilson_at(p, effective(p, var, m, n))


def mean_of_tasks(values, n):
    """The interval of a mean of per-task values in [0, 1] (pass^k), from
    n trials in all"""
    m = len(values)
    if m < 2:
        return 0.0, 1.0
    mu = sum(values) / m
    var = sum((v - mu) ** 2 for v in values) / (m - 1) / m
    return wilson_at(mu, effective(mu, var, m, n))


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b)) or (a == b)


def main():
    global passed, failed
    passed = failed = 0
    for line in sys.stdin:
        case, _, out = line.partition("=>")
        w = case.split()
        got = [float(t) for t in out.split()]
        args = [float(t) if w[0] == "mean" else int(t) for t in w[1:]]
        tol = 1e-12
        if w[0] == "tango":
            want, tol = tango(*args), 1e-7
        elif w[0] == "mcnemar":
            want = (mcnemar(*args),)
            tol = 1e-9 * min(1.0, want[0]) if want[0] else 0.0
        elif w[0] == "passk":
            want = (passk(*args),)
        elif w[0] == "mean":
            want = mean(args)
        else:
            want = wilson(*args)
        if len(got) == len(want) and all(
                abs(a - b) <= tol * max(1.0, abs(b)) for a, b in zip(got, want)):
            passed += 1
        else:
            failed += 1
            print("FAIL %s: replay %s, oracle %s" % (case.strip(), got, list(want)))
    print("stats: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
