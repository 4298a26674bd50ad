"""Statistics for simulation reports: summaries, intervals, tests of a difference.

Plain Python (no numpy or scipy), exact enough for reports:

    >>> summary([1, 2, 3, 4])["median"]
    2.5
    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]

Quantiles interpolate linearly between order statistics (numpy's default,
"type 7"); spreads are sample standard deviations (n - 1). Intervals are 95%:
Wilson's score interval for a rate, Welch's t interval for a difference of
two means (unequal variances), Student's t for a mean of paired
differences, Newcombe's hybrid score interval for a difference of two rates.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5% point
QUANTILES = (("p10", 0.10), ("p25", 0.25), ("median", 0.50), ("p75", 0.75), ("p90", 0.90))


# ---------------------------------------------------------------- summaries
def mean(values) -> float | None:
    values = list(values)
    return math.fsum(values) / len(values) if values else None


def variance(values) -> float | None:
    """The sample variance (n - 1); None below two values."""
    values = list(values)
    if len(values) < 2:
        return None
    centre = math.fsum(values) / len(values)
    return math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1)


def quantile(ordered, q: float) -> float | None:
    """The q-quantile of an already sorted list, interpolating linearly."""
    if not ordered:
        return None
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values) -> dict:
    """n, mean, sd, se (of the mean), min, p10, p25, median, p75, p90, max."""
    ordered = sorted(values)
    n = len(ordered)
    var = variance(ordered)
    out = {"n": n, "mean": mean(ordered), "sd": math.sqrt(var) if var is not None else None,
           "se": math.sqrt(var / n) if var is not None else None,
           "min": ordered[0] if ordered else None}
    for name, q in QUANTILES:
        out[name] = quantile(ordered, q)
    out["max"] = ordered[-1] if ordered else None
    return out


# ---------------------------------------------------------------- rates
def wilson(successes: int, trials: int, z: float = Z95) -> tuple:
    """Wilson's score interval of a rate; (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: int, trials: int) -> dict:
    low, high = wilson(successes, trials)
    return {"count": successes, "of": trials, "rate": successes / trials if trials else None, "ci": [low, high]}


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> dict:
    """Second rate minus first, with Newcombe's hybrid score interval (method 10)."""
    if not n1 or not n2:
        return {"diff": None, "ci": None, "beyond_noise": False}
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    diff = p2 - p1
    low = diff - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = diff + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return {"diff": diff, "ci": [low, high], "beyond_noise": low > 0 or high < 0}


# ---------------------------------------------------------------- means
def welch(first, second) -> dict:
    """Mean of `second` minus mean of `first`: Welch's t, its two-sided p and 95% interval."""
    first, second = list(first), list(second)
    n1, n2 = len(first), len(second)
    out = {"diff": None, "se": None, "df": None, "t": None, "p": None, "ci": None, "beyond_noise": False}
    if n1 == 0 or n2 == 0:
        return out
    out["diff"] = mean(second) - mean(first)
    v1, v2 = variance(first), variance(second)
    if v1 is None or v2 is None:
        return out
    a, b = v1 / n1, v2 / n2
    se = math.sqrt(a + b)
    df = (a + b) ** 2 / ((a * a / (n1 - 1) if a else 0.0) + (b * b / (n2 - 1) if b else 0.0)) if se else None
    return _t_result(out, out["diff"], se, df)


def paired(differences) -> dict:
    """The mean of paired differences: Student's t, its two-sided p and 95% interval."""
    values = list(differences)
    out = {"diff": mean(values), "se": None, "df": None, "t": None, "p": None, "ci": None, "beyond_noise": False,
           "pairs": len(values)}
    var = variance(values)
    if var is None:
        return out
    return _t_result(out, out["diff"], math.sqrt(var / len(values)), len(values) - 1)


def _t_result(out, diff, se, df) -> dict:
    out["se"] = se
    if se == 0:  # no spread: the difference is exact
        out.update(p=1.0 if diff == 0 else 0.0, ci=[diff, diff], beyond_noise=diff != 0)
        return out
    t = diff / se
    half = t_quantile(0.975, df) * se
    out.update(df=df, t=t, p=t_two_sided_p(t, df), ci=[diff - half, diff + half])
    out["beyond_noise"] = out["ci"][0] > 0 or out["ci"][1] < 0
    return out


# ---------------------------------------------------------------- Student's t
def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(df) or df > 1e7:
        return math.erfc(abs(t) / math.sqrt(2))
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t (0.5 < p < 1), by bisection on the distribution."""
    target = 2 * (1 - p)  # two-sided tail
    low, high = 0.0, 1.0
    while t_two_sided_p(high, df) > target:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided_p(middle, df) > target:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a, b, x):
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h
