"""One batched `numerics.accumulate` call vs numpy.matmul float32 of the same shapes.

The wave-batched engine calls accumulate with a leading batch of waves: here B = 1024
tiles of (16 x K) @ (K x 16) + C (16 x 16), K = 16 and 64, for

* f16-valued random normal A, B and an f32-valued random normal C -> f32 (the general case:
  the line certificate proves A@B exact for almost every output, a few per cent of the sums
  sit on an f32 midpoint and take TwoSum, the error bound and the exact path settle the
  handful left),
* f16 small-integer A, B, C -> f32 (every addition provably exact),
* int8 A, B, int32 C -> int32 (integer MFMA/WMMA).

The baseline is `np.matmul` on float32 copies of the same operands (one BLAS thread) timed in
the same run; the f16 -> f32 results are also checked against an independent exact reference
(math.fsum per element, rounded once to f32) and a wrong result exits with status 1. Timings
are reported, never asserted.

    python benchmarks/bench_accumulate.py [BATCH]      # default batch: 1024
"""

from __future__ import annotations

import os

# One BLAS thread for both sides: must be set before numpy is first imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

# time this checkout's rocwmma_py, not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rocwmma_py import types as T  # noqa: E402
from rocwmma_py.arch.numerics import accumulate  # noqa: E402

TILE = 16
REPEATS = 5


def best_of(fn, repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def operands(kind: str, batch: int, k: int, seed: int):
    """Decoded (float64 / int64) A, B, C and the accumulator type for one case."""
    rng = np.random.default_rng(seed)
    sa, sb, sc = (batch, TILE, k), (batch, k, TILE), (batch, TILE, TILE)
    if kind == "f16 normal":
        a, b = (T.convert(rng.standard_normal(s), T.float16) for s in (sa, sb))
        c = T.convert(rng.standard_normal(sc), T.float32)
        return a.astype(np.float64), b.astype(np.float64), c.astype(np.float64), T.float32
    if kind == "f16 integer":
        a, b, c = (rng.integers(-8, 9, s).astype(np.float64) for s in (sa, sb, sc))
        return a, b, c, T.float32
    a, b = (rng.integers(-128, 128, s) for s in (sa, sb))
    return a, b, rng.integers(-(2**20), 2**20, sc), T.int32


def exact_f32(a, b, c) -> np.ndarray:
    """Independent reference: every element summed exactly (fsum), one RNE to float32.
    fsum's correctly rounded double hi is rounded again, which is exact unless hi lands on an
    f32 tie (f32 midpoints are doubles); there the sign of the exact remainder decides."""
    out = np.empty(c.shape, np.float32)
    for idx in np.ndindex(*c.shape):
        terms = [c[idx], *(a[idx[0], idx[1], :] * b[idx[0], :, idx[2]])]
        hi = math.fsum(terms)
        r = np.float32(hi)
        other = np.nextafter(r, np.float32(math.copysign(np.inf, hi - float(r))))
        if hi != float(r) and hi == (float(r) + float(other)) / 2:  # hi is an f32 tie
            lo = math.fsum([*terms, -hi])  # the exact remainder's sign breaks it
            if lo != 0:
                r = max(r, other) if lo > 0 else min(r, other)
        out[idx] = r
    return out


def run(kind: str, batch: int, k: int) -> tuple[float, float, str]:
    a, b, c, acc = operands(kind, batch, k, seed=k)
    t_acc = best_of(lambda: accumulate(a, b, c, acc))
    a32, b32, c32 = (x.astype(np.float32) for x in (a, b, c))
    t_np = best_of(lambda: c32 + np.matmul(a32, b32))
    got = accumulate(a, b, c, acc)
    if acc is T.int32:
        ref = (c + np.matmul(a, b)).astype(np.int32)
    else:
        sub = slice(0, min(batch, 64))  # the fsum reference is slow: check 64 tiles
        ref, got = exact_f32(a[sub], b[sub], c[sub]), got[sub]
    bad = int(np.sum(got.view(np.uint32) != ref.view(np.uint32)))
    return t_acc, t_np, "exact" if bad == 0 else f"WRONG: {bad} elements differ"


def main(argv: list[str]) -> int:
    batch = int(argv[0]) if argv else 1024
    print(f"accumulate, batch {batch} of ({TILE} x K) @ (K x {TILE}) + C, vs float32 "
          f"c + np.matmul (1 BLAS thread), best of {REPEATS}")
    print(f"{'case':<22} {'K':>3} {'accumulate s':>13} {'numpy s':>9} {'ratio':>7}  check")
    ok = True
    for kind in ("f16 normal", "f16 integer", "i8 -> i32"):
        for k in (16, 64):
            t_acc, t_np, note = run(kind, batch, k)
            ok &= note == "exact"
            label = kind + (" -> f32" if kind.startswith("f16") else "")
            print(f"{label:<22} {k:>3} {t_acc:>13.5f} {t_np:>9.5f} {t_acc / t_np:>7.1f}  {note}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
