"""The speed targets (issue 24) as one table: a row per target, each measured against numpy
in the same run.

Every row: workload, numerics model, the cold (first) launch, the median of REPEATS warm
launches, the median numpy reference (timed right after each warm launch, so both see the
same load; one BLAS thread), their ratio, the row's numpy floor (bench_floors.py: the same
computation in the same batches with only the numpy passes its model cannot do without, as
a ratio to the same numpy reference; seconds for the per-wave and 7168^3 rows), the target
and met/missed. GEMMs are f16 -> f32 on
gfx942 on random normal data (bench_gemm.py's rows and checks) against numpy f32 matmul of
the same size; softmax + rms_norm (samples/cuda: llama.cpp-style SIMT kernels, warp
shuffles) against a numpy implementation of the same. Launches run on one worker, as numpy
runs one BLAS thread; `--big` adds perf_hgemm at 7168^3 on 2 workers on the sample's own
integer data (minutes: one launch, its wall time is the figure). The load average is printed
at the start and the end. Every result is validated and a wrong one exits with status 1;
timings are reported, never asserted.

    python benchmarks/bench_targets.py [--cpu] [--repeats N] [--quick] [--big] [--only TEXT]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

# isort: off
import bench_gemm  # noqa: E402 - sets one BLAS thread before numpy is imported
import bench_floors  # noqa: E402
import numpy as np  # noqa: E402
# isort: on

from rocwmma_py import use_engine, use_numerics, use_workers  # noqa: E402
from samples.cuda import rms_norm, softmax  # noqa: E402

# The per-wave engine's simple_hgemm 256^3 (silicon, random normal, 1 worker), warm median at
# the start of the release (commit 5cc2183, on the shared 2-core machine at load average 8-9):
# wall and CPU seconds; the target is 0.6 x the figure of the clock in use.
PER_WAVE_BASELINE = {"wall": 3.71, "cpu": 1.94}


@dataclass(frozen=True)
class Target:
    """One row: what runs, under which model, and the largest ratio (or seconds) it may take."""

    workload: str
    numerics: str
    run: object  # (size, repeats) -> ((cold, warm, numpy), ok, note)
    size: int
    quick_size: int
    limit: float  # ratio to numpy, or seconds of the launch that `judge` names
    judge: str = "ratio"  # or "cold s" (a single launch), "warm s" (the warm median)


def wave_tile(arch: str = "gfx942"):
    """bench_gemm's wave tile row on `arch` (one wave per block)."""
    return lambda size, repeats: bench_gemm.wave_tile_row(size, "normal", repeats, arch)


def simple_hgemm(size: int, repeats: int):
    """bench_gemm's simple_hgemm row (the rocWMMA sample's kernel)."""
    return bench_gemm.simple_hgemm_row(size, "normal", repeats)


def perf_hgemm(size: int, repeats: int):
    """bench_gemm's perf_hgemm row (the rocWMMA sample's kernel)."""
    return bench_gemm.perf_hgemm_row(size, "normal", repeats)


def per_wave_simple_hgemm(size: int, repeats: int):
    """simple_hgemm on the per-wave engine."""
    with use_engine("wave"):
        return simple_hgemm(size, repeats)


def perf_hgemm_2_workers(size: int, repeats: int):
    """One launch on 2 workers on the sample's fillRand data, as `rocwmma-sample perf_hgemm`
    runs it (repeats 0: its time is the cold launch), in wall time even under --cpu (the
    workers' CPU time is not this process's)."""
    clock, bench_gemm.clock = bench_gemm.clock, time.perf_counter
    try:
        with use_workers(2):
            return bench_gemm.perf_hgemm_row(size, "integers", 0)
    finally:
        bench_gemm.clock = clock


def numpy_rms_norm(x: np.ndarray) -> np.ndarray:
    """The rms_norm kernel's computation in numpy float32."""
    mean = (x * x).mean(axis=1, keepdims=True)
    return x / np.sqrt(mean + rms_norm.EPS)


def softmax_rms_norm(rows: int, repeats: int, arch: str = "gfx942", cols: int = 4096):
    """soft_max then rms_norm over rows x cols f32, one 32-thread block per row each."""
    x = np.random.default_rng(rows).standard_normal((rows, cols)).astype(np.float32)
    d_soft, d_norm = np.full_like(x, np.nan), np.full_like(x, np.nan)
    soft = softmax.soft_max[rows, softmax.WARP, 0, arch]
    norm = rms_norm.rms_norm[rows, rms_norm.WARP, 0, arch]

    def launch():
        soft(x, d_soft, cols, np.float32(1.0))
        norm(x, d_norm, cols)

    times = bench_gemm.timed(launch, 1, repeats,
                             baseline=lambda: (softmax.reference(x), numpy_rms_norm(x)))
    ref = rms_norm.reference(x)
    errs = softmax.max_rel_err(d_soft, x), float(np.max(np.abs(d_norm - ref) / np.abs(ref)))
    ok = max(errs) <= softmax.TOLERANCE
    return times, ok, f"max rel err {errs[0]:.1e} / {errs[1]:.1e} (limit {softmax.TOLERANCE:g})"


TARGETS = [
    Target("wave tile 64x64, 512^3", "silicon", wave_tile(), 512, 128, 50),
    Target("wave tile 64x64, 512^3", "exact", wave_tile(), 512, 128, 15),
    Target("wave tile 64x64, 2048^3", "silicon", wave_tile(), 2048, 256, 45),
    Target("wave tile 64x64, 2048^3", "exact", wave_tile(), 2048, 256, 15),
    Target("simple_hgemm, 512^3", "silicon", simple_hgemm, 512, 128, 90),
    Target("simple_hgemm, 512^3", "exact", simple_hgemm, 512, 128, 40),
    Target("perf_hgemm, 1024^3", "silicon", perf_hgemm, 1024, 256, 70),
    Target("perf_hgemm, 1024^3", "exact", perf_hgemm, 1024, 256, 25),
    Target("gfx1100 wave tile 64x64, 512^3", "exact", wave_tile("gfx1100"), 512, 128, 20),
    Target("softmax + rms_norm, 512 x 4096", "silicon", softmax_rms_norm, 512, 16, 15),
    Target("per-wave engine simple_hgemm, 256^3", "silicon", per_wave_simple_hgemm, 256, 64,
           0.6, "warm s"),  # limit: share of PER_WAVE_BASELINE
]
BIG = Target("perf_hgemm 7168^3 (fillRand), 2 workers", "silicon", perf_hgemm_2_workers, 7168,
             256, 120, "cold s")


def floor_text(t: Target, size: int, base: float, repeats: int) -> str:
    """The row's numpy floor: a ratio to the row's numpy time, or seconds (the per-wave row;
    the 7168^3 row from a K slice, scaled to the whole K and shared by 2 workers)."""
    if t is BIG:
        run, factor = bench_floors.big_gemm_floor(size)
        return f"{bench_floors.median_time(run, 1) * factor / 2:.1f} s"
    build = bench_floors.floor_for(t.workload, t.numerics)
    if build is None:
        return "-"
    floor = bench_floors.median_time(build(size), max(1, min(repeats, 3)))
    return f"{floor:.2f} s" if t.judge == "warm s" else f"{floor / base:.1f}x"


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def blas_setting() -> str:
    """How numpy is held to one BLAS thread (bench_gemm's environment or threadpoolctl)."""
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        threads = "/".join(f"{v}={os.environ.get(v)}" for v in ("OPENBLAS_NUM_THREADS",
                                                                 "OMP_NUM_THREADS"))
        return f"1 BLAS thread ({threads})"
    return "1 BLAS thread (threadpoolctl)"


def limit(t: Target, kind: str) -> float:
    """The row's limit: a ratio, or seconds on the clock `kind` ("wall" or "cpu")."""
    return t.limit * PER_WAVE_BASELINE[kind] if t.run is per_wave_simple_hgemm else t.limit


def target_text(t: Target, kind: str) -> str:
    """The target column."""
    if t.judge == "ratio":
        return f"<= {t.limit:g}x"
    if t.run is per_wave_simple_hgemm:
        return f"<= {limit(t, kind):.2f} s (0.6 x {PER_WAVE_BASELINE[kind]:.2f} s)"
    return f"< {t.limit:g} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="process CPU time instead of wall")
    parser.add_argument("--repeats", type=int, default=bench_gemm.REPEATS,
                        help=f"warm launches per row (default {bench_gemm.REPEATS})")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, 1 repeat: checks results, judges no target")
    parser.add_argument("--big", action="store_true", help="add perf_hgemm 7168^3 (minutes)")
    parser.add_argument("--only", metavar="TEXT", default="",
                        help="only the rows whose workload contains TEXT")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else max(args.repeats, 1)
    kind = "cpu" if args.cpu else "wall"
    if args.cpu:
        bench_gemm.clock = bench_floors.clock = time.process_time
    print(f"load average at the start {load()}; {blas_setting()}; {os.cpu_count()} cores; "
          f"{kind} time, cold launch then median of {repeats} warm"
          + ("; --quick: small sizes, targets not judged" if args.quick else ""), flush=True)
    print("| workload | model | cold s | warm s | numpy s | ratio | floor | target | met |")
    print("|---|---|---|---|---|---|---|---|---|", flush=True)
    all_ok = True
    for t in TARGETS + ([BIG] if args.big else []):
        if args.only not in t.workload:
            continue
        size = t.quick_size if args.quick else t.size
        with use_numerics(t.numerics), use_workers(1):
            (cold, warm, base), ok, note = t.run(size, repeats)
        all_ok &= ok
        ratio = warm / base
        met = {"ratio": ratio, "cold s": cold, "warm s": warm}[t.judge] <= limit(t, kind)
        verdict = "-" if args.quick else ("met" if met else "**missed**")
        name = t.workload if not args.quick else f"{t.workload} (quick: {size})"
        floor = floor_text(t, size, base, repeats)
        print(f"| {name} | {t.numerics} | {cold:.3f} | {warm:.3f} | {base:.5f} | {ratio:.1f}x "
              f"| {floor} | {target_text(t, kind)} | {verdict} |"
              + ("" if ok else f" FAILED: {note}"), flush=True)
    print(f"load average at the end {load()}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
