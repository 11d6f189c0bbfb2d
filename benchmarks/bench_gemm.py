"""Emulated gfx942 GEMMs (f16 in, f32 accumulation) vs numpy.matmul (float32, one BLAS thread).

Workloads, each on random normal data (what users run; the primary rows) and on integer
data (extra rows: sums that take the cheap provably-exact path):
- wave tile: each wave computes one 64x64 tile of D = A * B with rocWMMA fragments (A 64x16
  row_major, B 16x64 col_major, 64x64 f32 accumulator), K in steps of 16, one wave per block;
  integer data is {-2..2}.
- simple_hgemm: the rocWMMA sample's kernel (16x16 tile per wave, (4W, 4) blocks), D = 2AB + 2C
  in f16; integer data is the sample's fillRand pattern.
- perf_hgemm: the rocWMMA sample's kernel (wave tiles, cooperative global reads, double-buffered
  LDS), same data sets.
- empty kernel over 4096 blocks of 256 threads (launch and batching overhead).

Every row times one cold launch (the first: plans and caches are built) and then REPEATS warm
launches, each followed by a numpy matmul of the same size, so each ratio compares medians
measured in the same stretch of time (other processes on a shared machine slow both). Every
result is checked (exact against float64 for integers, rocWMMA's compareEqual otherwise); a
wrong result exits with status 1. Timings are reported, never asserted.

    python benchmarks/bench_gemm.py [--cpu] [--repeats N] [--numerics M] [SIZE ...]

Sizes default to 256 512 1024. `--cpu` measures process CPU time instead of wall time
(steadier on a loaded machine). `--numerics exact|silicon` picks the numerics model (default
exact, the model the speed targets are set for; silicon is gfx942's CDNA3 fused dot). Launches
run on one worker, as numpy runs on one BLAS thread (benchmarks/bench_workers.py measures
the spread over cores).
"""

from __future__ import annotations

import os

# One BLAS thread for the numpy baseline: must be set before numpy is first imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from contextlib import nullcontext  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rocwmma_py import (  # noqa: E402
    accumulator,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    get_arch,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    use_numerics,
    use_workers,
)

ARCH = "gfx942"
TILE_M = TILE_N = 64
TILE_K = 16
REPEATS = 3
clock = time.perf_counter  # `--cpu`: time.process_time

FragA = fragment[matrix_a, TILE_M, TILE_N, TILE_K, float16, row_major]
FragB = fragment[matrix_b, TILE_M, TILE_N, TILE_K, float16, col_major]
FragAcc = fragment[accumulator, TILE_M, TILE_N, TILE_K, float32]


@kernel
def wave_tile_gemm(m, n, k, a, b, d, lda, ldb, ldd):
    """D (row_major f32) = A (row_major f16) * B (col_major f16); one 64x64 tile per wave."""
    row, col = blockIdx.x * TILE_M, blockIdx.y * TILE_N
    if row + TILE_M > m or col + TILE_N > n:
        return
    acc = FragAcc()
    fill_fragment(acc, 0.0)
    frag_a, frag_b = FragA(), FragB()
    for kk in range(0, k, TILE_K):
        load_matrix_sync(frag_a, a + row * lda + kk, lda)  # row_major: (row, kk)
        load_matrix_sync(frag_b, b + col * ldb + kk, ldb)  # col_major: (kk, col)
        mma_sync(acc, frag_a, frag_b, acc)
    store_matrix_sync(d + row * ldd + col, acc, ldd, mem_row_major)


def blas_limit():
    """threadpoolctl's one-thread limit when it is installed (never a dependency)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return nullcontext()
    return threadpool_limits(limits=1)


def seconds(fn) -> float:
    t0 = clock()
    fn()
    return clock() - t0


def best_of(fn, repeats: int = REPEATS) -> float:
    """Shortest of `repeats` timings (used by bench_samples.py)."""
    return min(seconds(fn) for _ in range(repeats))


def timed(launch, size: int, repeats: int, baseline=None) -> tuple[float, float, float]:
    """(cold launch, median warm launch, median numpy baseline), the baseline (default numpy
    f32 matmul of size x size; best of 3) timed right after each warm launch; with repeats 0,
    (cold, cold, one baseline run)."""
    x = np.random.default_rng(0).standard_normal((size, size)).astype(np.float32)
    baseline = baseline or (lambda: np.matmul(x, x))
    cold = seconds(launch)
    warm, base = [], []
    with blas_limit():
        for _ in range(repeats):
            warm.append(seconds(launch))
            base.append(min(seconds(baseline) for _ in range(3)))
        if not warm:  # repeats 0: the cold launch only, the baseline once
            warm, base = [cold], [seconds(baseline)]
    return cold, statistics.median(warm), statistics.median(base)


def inputs(size: int, data: str):
    """A, B in f16: small integers in {-2..2} (all sums exact in f32), or standard normal."""
    rng = np.random.default_rng(size)
    if data == "integers":
        draw = lambda: rng.integers(-2, 3, (size, size))  # noqa: E731
    else:
        draw = lambda: rng.standard_normal((size, size))  # noqa: E731
    return draw().astype(np.float16), draw().astype(np.float16)


def wave_tile_row(size: int, data: str, repeats: int, arch: str = ARCH):
    m = n = k = size
    a, b = inputs(size, data)
    a_mem = np.ascontiguousarray(a).ravel()  # row_major, lda = k
    b_mem = np.ascontiguousarray(b.T).ravel()  # col_major, ldb = k
    d = np.full(m * n, np.nan, dtype=np.float32)
    wave = get_arch(arch).wave_size  # one wave per block
    launch = wave_tile_gemm[(m // TILE_M, n // TILE_N), wave, 0, arch]
    times = timed(lambda: launch(m, n, k, a_mem, b_mem, d, k, k, n), size, repeats)
    exact = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64))
    got = d.reshape(m, n).astype(np.float64)
    if data == "integers":
        ok = bool(np.array_equal(got, exact))
        return times, ok, "exact" if ok else f"WRONG: {int(np.sum(got != exact))} differ"
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    err = float(np.max(np.abs(got - exact) / np.maximum(scale, 1e-30)))
    ok = err <= k * float(np.finfo(np.float32).eps)
    return times, ok, f"max err {err:.1e} x |A||B| (bound {k}*eps32)"


def sample_inputs(size: int, data: str):
    """A, B, C in f16: the samples' fillRand integers, or standard normal."""
    from samples import common

    rng = np.random.default_rng(size)
    if data == "integers":
        return [common.fill_rand(rng, size, size, float16) for _ in range(3)]
    return [rng.standard_normal((size, size)).astype(np.float16) for _ in range(3)]


def sample_check(a, b, c, d) -> tuple[bool, str]:
    """rocWMMA's compareEqual of D = 2AB + 2C (f16) against the samples' exact reference, or
    against float64 where that has none (random data at large K)."""
    from samples import common

    try:
        ref = common.gemm_reference(a, b, c, np.float32(2.0), np.float32(2.0), float16)
    except ValueError:
        a64, b64, c64 = (x.astype(np.float64) for x in (a, b, c))
        ref = (2 * (a64 @ b64) + 2 * c64).astype(np.float16)
    ok, err = common.compare_equal(d, ref, float16)
    return ok, f"compareEqual max rel err {err:.1e}"


def simple_hgemm_row(size: int, data: str, repeats: int):
    from samples import common
    from samples.simple_gemm_common import T_BLOCK_X_WAVES, T_BLOCK_Y, make_gemm_kernel

    gemm = make_gemm_kernel(float16, float16, float32)
    a, b, c = sample_inputs(size, data)
    d = np.full((size, size), np.nan, np.float16)
    grid = (size // (16 * T_BLOCK_X_WAVES), size // (16 * T_BLOCK_Y))
    launch = gemm[grid, (T_BLOCK_X_WAVES * 64, T_BLOCK_Y), 0, ARCH]
    b_mem = common.to_memory(b, col_major=True)
    times = timed(lambda: launch(size, size, size, a, b_mem, c, d, size, size, size, size,
                                 2.0, 2.0), size, repeats)
    return (times, *sample_check(a, b, c, d))


def perf_hgemm_row(size: int, data: str, repeats: int):
    from samples import common, perf_gemm_common, perf_hgemm

    p = perf_hgemm.params(ARCH)
    gemm = perf_gemm_common.make_gemm_kernel(p, float16, float16, float32)
    macro_m, macro_n = p.macro_tile
    lds = 2 * 2 * (macro_m + macro_n) * p.ROCWMMA_K
    a, b, c = sample_inputs(size, data)
    d = np.full((size, size), np.nan, np.float16)
    a_mem = common.to_memory(a, col_major=True)  # A col_major, B and C row_major
    launch = gemm[(size // macro_m, size // macro_n), (p.TBLOCK_X, p.TBLOCK_Y), lds, ARCH]
    times = timed(lambda: launch(size, size, size, a_mem, b, c, d, size, size, size, size,
                                 2.0, 2.0), size, repeats)
    return (times, *sample_check(a, b, c, d))


@kernel
def empty():
    """No work: measures launch and batching overhead."""


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Emulated gfx942 GEMMs vs numpy.matmul "
                                     "(one BLAS thread), random normal and integer data.")
    parser.add_argument("sizes", nargs="*", type=int, default=[256, 512, 1024],
                        help=f"matrix sizes, multiples of {TILE_M} (default 256 512 1024)")
    parser.add_argument("--cpu", action="store_true",
                        help="process CPU time instead of wall time")
    parser.add_argument("--repeats", type=int, default=REPEATS,
                        help=f"warm launches per row (default {REPEATS})")
    parser.add_argument("--numerics", choices=("exact", "silicon"), default="exact",
                        help="numerics model (default exact)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or any(size <= 0 or size % TILE_M for size in args.sizes):
        parser.error(f"sizes must be positive multiples of {TILE_M} and --repeats >= 1")
    return args


def main(argv: list[str]) -> int:
    global clock
    args = parse(argv)
    if args.cpu:
        clock = time.process_time
    with use_numerics(args.numerics), use_workers(1):  # one core, like numpy's BLAS thread
        return run_rows(args.sizes, args.repeats, args.numerics)


def run_rows(sizes: list[int], repeats: int, numerics: str) -> int:
    kind = "CPU" if clock is time.process_time else "wall"
    print(f"emulated {ARCH} ({numerics} numerics), f16 -> f32, vs numpy.matmul float32 (1 BLAS "
          f"thread); {kind} time, cold launch, then median of {repeats} warm launches")
    print(f"{'workload':<24} {'data':<8} {'size':>5} {'cold s':>8} {'warm s':>8} {'numpy s':>9} "
          f"{'ratio':>6}  check")
    rows = [("wave tile 64x64", wave_tile_row), ("simple_hgemm (4W, 4)", simple_hgemm_row),
            ("perf_hgemm", perf_hgemm_row)]
    all_ok = True
    for s in sizes:
        for name, row in rows:
            if name.startswith("simple") and s > 1024:
                continue  # 16x16 tiles: minutes at 2048
            for data in ("random", "integers"):
                (cold, warm, base), ok, note = row(s, "normal" if data == "random" else data,
                                                   repeats)
                all_ok &= ok
                print(f"{name:<24} {data:<8} {s:>5} {cold:>8.3f} {warm:>8.3f} {base:>9.5f} "
                      f"{warm / base:>6.1f}  {'' if ok else 'FAILED '}{note}", flush=True)
    t_empty = statistics.median(seconds(lambda: empty[4096, 256, 0, ARCH]())
                                for _ in range(REPEATS))
    print(f"{'empty kernel':<24} {'4096 x 256 threads':>17} {t_empty:>11.3f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
