"""The logistic fits of benchmarks/fit_confidence.py and benchmarks/fit_rank.py (Newton's method,
L2-regularised)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def logit(p: float) -> float:
    """The log-odds of probability ``p`` (clipped to 1e-6 … 1 − 1e-6)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def set_balanced(rows: Sequence[dict], idx: Sequence[int]) -> list[float]:
    """Row weights for rows ``idx`` giving every set (``row["set"]``) the same total weight:
    each set is one kind of question, and unweighted CMRC's questions would outweigh the others."""
    n = Counter(rows[i]["set"] for i in idx)
    return [len(idx) / (len(n) * n[rows[i]["set"]]) for i in idx]


def fit_logistic(X: list[list[float]], y: list[bool], l2: float = 1.0, iters: int = 50,
                 weight: Sequence[float] | None = None) -> dict:
    """Standardised L2-regularised logistic regression by Newton's method (``weight``: per row,
    default 1)."""
    import numpy as np

    A = np.asarray(X, float)
    t = np.asarray(y, float)
    v = np.ones(len(A)) if weight is None else np.asarray(weight, float)
    mean, scale = A.mean(0), A.std(0)
    scale[scale == 0] = 1.0
    Z = np.hstack([np.ones((len(A), 1)), (A - mean) / scale])
    w = np.zeros(Z.shape[1])
    reg = np.eye(Z.shape[1]) * l2
    reg[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -30, 30)))
        g = Z.T @ (v * (p - t)) + reg @ w
        H = (Z.T * (v * p * (1 - p))) @ Z + reg
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"bias": float(w[0]), "weights": [float(x) for x in w[1:]], "mean": [float(x) for x in mean],
            "scale": [float(x) for x in scale]}


def fit_offset(X: list[list[float]], y: list[bool], offset: list[float], l2: float = 1.0,
               iters: int = 50, weight: Sequence[float] | None = None) -> list[float]:
    """Logistic regression without intercept on top of a fixed log-odds ``offset`` (the
    retrieval model's), by Newton's method: the weights of what answering showed."""
    import numpy as np

    A, t, o = np.asarray(X, float), np.asarray(y, float), np.asarray(offset, float)
    v = np.ones(len(A)) if weight is None else np.asarray(weight, float)
    w = np.zeros(A.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(o + A @ w, -30, 30)))
        g = A.T @ (v * (p - t)) + l2 * w
        H = (A.T * (v * p * (1 - p))) @ A + l2 * np.eye(A.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return [float(x) for x in w]


def fit_listwise(lists: Sequence[tuple[list[list[float]], list[bool]]], l2: float = 1.0, iters: int = 50,
                 weight: Sequence[float] | None = None) -> dict:
    """Standardised L2-regularised conditional logit over ranked lists by Newton's method: each
    list's gold candidates (their share of the probability alike) against a softmax of the
    scores of all its candidates (McFadden 1973; the top-one probability of ListNet, Cao et al.
    2007), so the weights say what sets a list's gold apart from the others of the same list.
    ``weight``: per list, default 1. No intercept (it cancels within a list)."""
    import numpy as np

    A = np.vstack([np.asarray(X, float) for X, _ in lists])
    mean, scale = A.mean(0), A.std(0)
    scale[scale == 0] = 1.0
    v = np.ones(len(lists)) if weight is None else np.asarray(weight, float)
    data = []
    for (X, y), wq in zip(lists, v):
        t = np.asarray(y, float)
        data.append(((np.asarray(X, float) - mean) / scale, t / t.sum(), wq))
    w = np.zeros(A.shape[1])
    for _ in range(iters):
        g, H = l2 * w, l2 * np.eye(len(w))
        for Z, t, wq in data:
            s = Z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            ex = p @ Z
            g = g + wq * (ex - t @ Z)
            H = H + wq * ((Z.T * p) @ Z - np.outer(ex, ex))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"bias": 0.0, "weights": [float(x) for x in w], "mean": [float(x) for x in mean],
            "scale": [float(x) for x in scale]}
