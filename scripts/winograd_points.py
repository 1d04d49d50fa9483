#!/usr/bin/env python3
"""Ranks interpolation points for Winograd F(4x4, 3x3) by their f32 error.

For each point set (the finite points; infinity is always the last), the
Toom-Cook matrices A^T, G, B^T are derived exactly (sympy; the fractions in
G, as `crates/executor/src/kernels/winograd.rs` holds them), then a model of
the kernel's arithmetic runs in numpy: G g G^T in f64 rounded once to f32,
B^T d B and A^T M A in f32, the channel sums in f32 in order (as the GEMM's
k loop). It prints the worst output error against f64 sums, relative to the
largest output, at 64 to 512 input channels, for mixed-sign values from
1e-2 to 1e2 and for N(0,1) inputs with 0.05 N(0,1) filters
(docs/performance.md, "Winograd for 3x3 convolutions").

    python3 scripts/winograd_points.py            # the sets of the table
    python3 scripts/winograd_points.py 0 1 -1 1/2 -2   # one set, its matrices
"""

import sys

import numpy as np
import sympy as sp


def derive(points, m=4, r=3):
    """A^T (m x n), G (n x r), B^T (n x n) for the finite `points` and infinity."""
    n = m + r - 1
    p = [sp.Rational(x) for x in points]
    assert len(p) == n - 1, "n - 1 finite points"
    at = sp.zeros(m, n)
    for i in range(m):
        for j in range(n - 1):
            at[i, j] = p[j] ** i
    at[m - 1, n - 1] = 1
    g = sp.zeros(n, r)
    for j in range(n - 1):
        f = sp.prod([p[j] - p[k] for k in range(n - 1) if k != j])
        for k in range(r):
            g[j, k] = p[j] ** k / f
    g[n - 1, r - 1] = 1
    # B^T solves sum_x A^T[i,x] G[x,k] B^T[x,j] = [j == i + k].
    b = sp.Matrix(n, n, lambda x, y: sp.Symbol(f"b{x}_{y}"))
    equations = [
        sum(at[i, x] * g[x, k] * b[x, j] for x in range(n)) - (1 if j == i + k else 0)
        for i in range(m)
        for k in range(r)
        for j in range(n)
    ]
    solution = sp.solve(equations, list(b), dict=True)
    assert len(solution) == 1, "a unique B^T"
    return at, g, b.subs(solution[0])


def values(rng, shape, kind):
    if kind == "mixed":
        unit = rng.random(shape)
        sign = rng.choice([-1.0, 1.0], shape)
        scale = 10.0 ** rng.integers(-2, 3, shape)
        return (unit * sign * scale).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def error(points, channels, kind, seed, tiles=400):
    at, g, bt = (np.array(x.tolist(), dtype=np.float64) for x in derive(points))
    rng = np.random.default_rng(seed)
    d = values(rng, (tiles, channels, 6, 6), kind)
    w = values(rng, (channels, 3, 3), kind)
    if kind == "normal":
        w = (w * 0.05).astype(np.float32)
    d64, w64 = d.astype(np.float64), w.astype(np.float64)
    exact = np.zeros((tiles, 4, 4))
    for i in range(4):
        for j in range(4):
            exact[:, i, j] = np.einsum("tcab,cab->t", d64[:, :, i : i + 3, j : j + 3], w64)
    u = np.einsum("xa,cab,yb->cxy", g, w64, g).astype(np.float32)
    bt32, at32 = bt.astype(np.float32), at.astype(np.float32)
    v = np.einsum("xa,tcab->tcxb", bt32, d).astype(np.float32)
    v = np.einsum("tcxb,yb->tcxy", v, bt32).astype(np.float32)
    sums = np.zeros((tiles, 6, 6), np.float32)
    for c in range(channels):
        sums = (sums + u[c] * v[:, c]).astype(np.float32)
    y = np.einsum("ix,txy->tiy", at32, sums).astype(np.float32)
    y = np.einsum("tiy,jy->tij", y, at32).astype(np.float32)
    return np.max(np.abs(y - exact)) / np.max(np.abs(exact))


SETS = [
    "0 1 -1 2 -2",
    "0 1 -1 1/2 -1/2",
    "0 1 -1 2/3 -2/3",
    "0 1 -1 3/4 -3/4",
    "0 1 -1 1/2 -3/2",
    "0 1 -1 3/2 -1/2",
    "0 1 -1 2/3 -3/2",
    "0 1 -1 1/3 -3",
    "0 1 -1 1/2 -3",
    "0 1 -1 1/4 -2",
    "0 1 -1 2 -1/2",
    "0 1 -1 1/2 -2",
]


def main():
    if len(sys.argv) > 1:
        for name, matrix in zip(["A^T", "G", "B^T"], derive(sys.argv[1:])):
            print(name)
            sp.pprint(matrix)
        return
    print("points | " + " | ".join(f"C_in {c}" for c in [64, 128, 256, 512]))
    for points in SETS:
        cells = [
            max(error(points.split(), c, kind, seed) for kind in ["mixed", "normal"] for seed in [1, 2])
            for c in [64, 128, 256, 512]
        ]
        print(f"{points} | " + " | ".join(f"{e:.1e}" for e in cells))


if __name__ == "__main__":
    main()
