#!/usr/bin/env python3
"""Minimax polynomial coefficients for the fp32 builtin library (src/compiler/lib/core).

Every polynomial in core/*.h was produced by this script (python3 + mpmath, no other
dependency): `scripts/libm_fit.py [name...]` prints, per approximation, the float
coefficients as C hex literals and the weighted error after rounding them to float.

Method: weighted Remez exchange in 60-digit arithmetic on a monomial basis, then the
coefficients are rounded to binary32 one at a time, lowest power first, re-fitting the
remaining ones after each rounding (the rounded terms move into the target), which keeps
most of the accuracy a naive rounding would lose.
"""
import struct
import sys

import mpmath as mp

mp.mp.dps = 60


def f32_exact(x):
    # float(x) rounds to binary64 first; the double rounding to binary32 can differ from
    # the direct one only when x lies extremely close to a binary32 midpoint, which does
    # not matter for coefficients that are refined afterwards.
    return mp.mpf(struct.unpack("<f", struct.pack("<f", float(x)))[0])


def hexf(x):
    b = struct.unpack("<I", struct.pack("<f", float(x)))[0]
    sign = "-" if b >> 31 else ""
    e = (b >> 23) & 0xFF
    m = b & 0x7FFFFF
    if e == 0 and m == 0:
        return sign + "0.0f"
    if e == 0:
        e = -126
        return "%s0x0.%06xp%df" % (sign, m << 1, e)
    return "%s0x1.%06xp%df" % (sign, m << 1, e - 127)


def remez(f, w, powers, a, b, iters=40, samples=3000):
    """Minimize max |w(x) (f(x) - sum c_i x^powers[i])| over [a, b]."""
    n = len(powers)
    # Chebyshev reference of n+1 points.
    # (Slightly skewed so that no reference point falls on a zero of the weight.)
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (n - j + mp.mpf("0.013")) / (n + mp.mpf("0.026")))
          for j in range(n + 1)]
    grid = [a + (b - a) * mp.mpf(i) / (samples - 1) for i in range(samples)]
    # Cluster some samples near the ends, where extrema of such fits often sit.
    grid += [a + (b - a) * (mp.mpf(i) / 400) ** 3 for i in range(1, 400)]
    grid += [b - (b - a) * (mp.mpf(i) / 400) ** 3 for i in range(1, 400)]
    grid = sorted(set(grid))
    fw = {}

    def fv(x):
        if x not in fw:
            fw[x] = (f(x), w(x))
        return fw[x]

    coef, E = None, None
    for _ in range(iters):
        A = mp.matrix(n + 1, n + 1)
        rhs = mp.matrix(n + 1, 1)
        for j, x in enumerate(xs):
            fx, wx = fv(x)
            for i, p in enumerate(powers):
                A[j, i] = x ** p
            A[j, n] = (-1) ** j / wx
            rhs[j] = fx
        sol = mp.lu_solve(A, rhs)
        coef = [sol[i] for i in range(n)]
        E = sol[n]

        def err(x):
            fx, wx = fv(x)
            return wx * (fx - sum(c * x ** p for c, p in zip(coef, powers)))

        es = [err(x) for x in grid]
        # Local extrema, then an alternating subsequence of n+1 of them.
        ext = []
        for i in range(len(grid)):
            l = es[i - 1] if i > 0 else None
            r = es[i + 1] if i + 1 < len(grid) else None
            v = es[i]
            if (l is None or abs(v) >= abs(l)) and (r is None or abs(v) >= abs(r)):
                ext.append((grid[i], v))
        alt = []
        for x, v in ext:
            if alt and mp.sign(alt[-1][1]) == mp.sign(v):
                if abs(v) > abs(alt[-1][1]):
                    alt[-1] = (x, v)
            else:
                alt.append((x, v))
        while len(alt) > n + 1:
            # Drop the smaller end.
            if abs(alt[0][1]) < abs(alt[-1][1]):
                alt.pop(0)
            else:
                alt.pop()
        if len(alt) < n + 1:
            break
        new = [x for x, _ in alt]
        maxe = max(abs(v) for _, v in alt)
        xs = new
        if abs(maxe - abs(E)) < abs(E) * mp.mpf("1e-6"):
            break
    maxerr = max(abs(e) for e in es)
    return coef, maxerr


def fit(name, f, w, powers, a, b, fixed=None):
    """Fit, then round coefficients one by one (lowest power first) and re-fit."""
    a, b = mp.mpf(a), mp.mpf(b)
    fixed = dict(fixed or {})
    rounded = {}
    remaining = list(powers)
    coef, e0 = remez(f, w, remaining, a, b)
    coef_full = list(coef)
    while remaining:
        p = remaining[0]
        rounded[p] = f32_exact(coef[0])
        remaining = remaining[1:]
        if not remaining:
            break
        done = dict(rounded)

        def g(x, done=done):
            return f(x) - sum(c * x ** q for q, c in done.items())

        coef, _ = remez(g, w, remaining, a, b)
    # Error with the rounded coefficients (exact arithmetic); the re-fitting can fail to
    # converge on badly conditioned bases, so plain rounding is kept when it is better.
    grid = [a + (b - a) * mp.mpf(i) / 4000 for i in range(4001)]

    def maxerr(cs):
        return max(abs(w(x) * (f(x) - sum(c * x ** q for q, c in cs.items()))) for x in grid)

    e1 = maxerr(rounded)
    naive = {p: f32_exact(c) for p, c in zip(powers, coef_full)}
    e2 = maxerr(naive)
    if e2 < e1:
        rounded, e1 = naive, e2
    print("// %s: powers %s on [%s, %s]; minimax error %.3g, after rounding %.3g (2^%.1f)"
          % (name, powers, mp.nstr(a, 8), mp.nstr(b, 8), float(e0), float(e1),
             float(mp.log(e1, 2)) if e1 > 0 else -999))
    for p in powers:
        print("  %s,  // x^%d  %s" % (hexf(rounded[p]), p, mp.nstr(rounded[p], 12)))
    return rounded


def nz(x):
    # Targets below are divided by powers of x; avoid the removable singularity at 0.
    return x if abs(x) > mp.mpf("1e-12") else mp.mpf("1e-12")


FITS = {}


def register(fn):
    FITS[fn.__name__] = fn
    return fn


@register
def exp():
    h = mp.log(2) / 2
    # e^r = 1 + r + r^2 q(r); relative error of e^r.
    fit("exp q(r)", lambda r: (mp.exp(nz(r)) - 1 - nz(r)) / nz(r) ** 2,
        lambda r: nz(r) ** 2 / mp.exp(r), list(range(0, 6)), -h, h)


@register
def exp2():
    # 2^r = 1 + r q(r), r in [-1/2, 1/2].
    fit("exp2 q(r)", lambda r: (mp.power(2, nz(r)) - 1) / nz(r),
        lambda r: nz(r) / mp.power(2, r), list(range(0, 7)), -0.5, 0.5)


@register
def exp10():
    h = mp.log10(2) / 2
    fit("exp10 q(r)", lambda r: (mp.power(10, nz(r)) - 1) / nz(r),
        lambda r: nz(r) / mp.power(10, r), list(range(0, 7)), -h, h)


@register
def expm1():
    h = mp.log(2)
    # expm1(x) = x + x^2 q(x), |x| <= ln 2.
    fit("expm1 q(x)", lambda x: (mp.expm1(nz(x)) - nz(x)) / nz(x) ** 2,
        lambda x: nz(x) ** 2 / mp.expm1(nz(x)), list(range(0, 8)), -h, h)


@register
def log():
    smax = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
    # R(z) = 2 atanh(s)/s - 2, z = s^2; log1p(f) = f - hfsq + s (hfsq + R).
    def R(z):
        s = mp.sqrt(nz(z))
        return 2 * mp.atanh(s) / s - 2
    fit("log R(z)", R, lambda z: 1, [1, 2, 3, 4], 0, smax ** 2 * mp.mpf("1.0001"))


@register
def sin():
    hi = mp.mpf("0.8")  # pi/4 plus the overshoot of the reduction near 1e5
    # sin r = r + r^3 S(r^2), variable z = r^2.
    fit("sin S(z)", lambda z: (mp.sin(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.sin(mp.sqrt(nz(z))), [0, 1, 2, 3], 0, hi ** 2)


@register
def cos():
    hi = mp.mpf("0.8")  # pi/4 plus the overshoot of the reduction near 1e5
    # cos r = 1 - r^2/2 + r^4 C(r^2).
    fit("cos C(z)", lambda z: (mp.cos(mp.sqrt(nz(z))) - 1 + nz(z) / 2) / nz(z) ** 2,
        lambda z: nz(z) ** 2 / mp.cos(mp.sqrt(z)), [0, 1, 2, 3], 0, hi ** 2)


@register
def tan():
    hi = mp.mpf("0.8")  # pi/4 plus the overshoot of the reduction near 1e5
    fit("tan T(z)", lambda z: (mp.tan(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.tan(mp.sqrt(nz(z))), list(range(0, 7)), 0, hi ** 2)


@register
def sinpi():
    # sin(pi r) = r (pi + r^2 S(r^2)), r in [0, 1/4]; z = r^2.
    fit("sinpi S(z)", lambda z: (mp.sin(mp.pi * mp.sqrt(nz(z))) / mp.sqrt(nz(z)) - mp.pi) / nz(z),
        lambda z: nz(z) ** 1.5 / mp.sin(mp.pi * mp.sqrt(nz(z))), [0, 1, 2, 3], 0,
        mp.mpf(1) / 16 * mp.mpf("1.0001"))


@register
def cospi():
    # cos(pi r) = 1 + r^2 C(r^2).
    fit("cospi C(z)", lambda z: (mp.cos(mp.pi * mp.sqrt(nz(z))) - 1) / nz(z),
        lambda z: nz(z) / mp.cos(mp.pi * mp.sqrt(z)), [0, 1, 2, 3, 4], 0,
        mp.mpf(1) / 16 * mp.mpf("1.0001"))


@register
def tanpi():
    fit("tanpi T(z)", lambda z: (mp.tan(mp.pi * mp.sqrt(nz(z))) / mp.sqrt(nz(z)) - mp.pi) / nz(z),
        lambda z: nz(z) ** 1.5 / mp.tan(mp.pi * mp.sqrt(nz(z))), list(range(0, 7)), 0,
        mp.mpf(1) / 16 * mp.mpf("1.0001"))


@register
def atan():
    # atan a = a + a^3 P(a^2), a in [0, 1].
    fit("atan P(z)", lambda z: (mp.atan(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.atan(mp.sqrt(nz(z))), list(range(0, 10)), 0, 1)


@register
def asin():
    # asin x = x + x^3 P(x^2), x in [0, 1/2].
    fit("asin P(z)", lambda z: (mp.asin(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.asin(mp.sqrt(nz(z))), list(range(0, 5)), 0,
        mp.mpf("0.2501"))


@register
def sinh():
    fit("sinh P(z)", lambda z: (mp.sinh(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.sinh(mp.sqrt(nz(z))), list(range(0, 5)), 0, 1)


@register
def tanh():
    fit("tanh P(z)", lambda z: (mp.tanh(mp.sqrt(nz(z))) - mp.sqrt(nz(z))) / nz(z) ** 1.5,
        lambda z: nz(z) ** 1.5 / mp.tanh(mp.sqrt(nz(z))), list(range(0, 7)), 0,
        mp.mpf("0.5626"))


@register
def erf():
    # erf x = x + x E(x^2), x in [0, 1] (E = erf(x)/x - 1 keeps the leading 2/sqrt(pi)
    # partly out of the rounded coefficients).
    fit("erf E(z)", lambda z: mp.erf(mp.sqrt(nz(z))) / mp.sqrt(nz(z)) - 1,
        lambda z: 1 / (mp.erf(mp.sqrt(nz(z))) / mp.sqrt(nz(z))), list(range(0, 8)), 0, 1)


@register
def erfc():
    # erfc x = exp(-x^2) g(t) / (1 + 2x), t = (x - 2) / (x + 2), x >= 0, t in [-1, 1).
    def g(t):
        x = 2 * (1 + t) / (1 - t)
        return mp.erfc(x) * mp.exp(x * x) * (1 + 2 * x)
    fit("erfc g(t)", g, lambda t: 1 / g(t), list(range(0, 13)), -1, mp.mpf("0.67"))


@register
def tgamma():
    # Gamma(1 + t) = 1 + t (t - 1) H(t), t in [0, 1].
    def H(t):
        t = nz(t)
        if abs(t - 1) < mp.mpf("1e-30"):
            t = 1 - mp.mpf("1e-30")
        return (mp.gamma(1 + t) - 1) / (t * (t - 1))
    # Relative error of H itself: lgamma near its zeros 1 and 2 is log1p(t (t-1) H(t)).
    fit("tgamma H(t)", H, lambda t: 1 / abs(H(t)), list(range(0, 11)), 0, 1)


if __name__ == "__main__":
    names = sys.argv[1:] or list(FITS)
    for n in names:
        FITS[n]()
