"""Shared by the CUDA samples: --arch restricted to targets with the sample's types, exact
validation against numpy, PASSED / FAILED."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

import numpy as np

from rocwmma_py import get_arch, wmma
from rocwmma_py.runtime import last_launch_stats

from ..common import REFUSED, sample_parser

WARP = 32  # llama.cpp's WARP_SIZE for its row kernels: 32-thread blocks on every target


def parse_args(argv: Sequence[str] | None, doc: str, dtype, default: str,
               sizes: tuple[int, int, int],
               tile: tuple[int, int, int] = (16, 16, 16)) -> argparse.Namespace | int:
    """The samples' shared command line with --arch restricted to the targets whose matrix
    cores take `dtype` and -m/-n/-k; sizes that are not multiples of the wmma `tile` (the
    CUDA samples have no edge handling) are refused like the rocWMMA samples do: the
    message, then the exit status REFUSED (returned instead of the arguments)."""
    args = sample_parser(doc, dict(zip("mnk", sizes, strict=True)), default,
                         archs=wmma.targets_for(dtype)).parse_args(argv)
    if any(size % t for size, t in zip((args.m, args.n, args.k), tile, strict=True)):
        print(f"Unsupported size! M, N and K must be multiples of {tile[0]}, {tile[1]} and "
              f"{tile[2]}, got {args.m}x{args.n}x{args.k}")
        return REFUSED
    return args


def small_ints(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    """Values in [-4, 4]: every product and sum is exact, so results compare bit for bit."""
    return rng.integers(-4, 4, shape, endpoint=True).astype(dtype)


def report(name: str, arch: str, got: np.ndarray, ref: np.ndarray) -> int:
    """Print PASSED / FAILED (exact comparison) and return the exit status."""
    bad = int(np.count_nonzero(np.asarray(got, np.float64) != np.asarray(ref, np.float64)))
    if bad:
        print(f"{name} on {arch}: FAILED ({bad} of {ref.size} elements differ)")
        return 1
    print(f"{name} on {arch}: PASSED ({ref.shape[0]}x{ref.shape[1]}, bit-exact)")
    return 0


def run_rows(doc: str, name: str, argv: Sequence[str] | None,
             launch: Callable[[str, np.ndarray, np.ndarray], None],
             rel_err: Callable[[np.ndarray, np.ndarray], float], tolerance: float) -> int:
    """The main of the one-block-per-row samples (rms_norm, softmax): random normal rows of
    `-c` float32 values, `launch(arch, x, dst)` with one 32-thread block per row, the largest
    relative error against float64 within `tolerance`, and how the engine ran it."""
    args = sample_parser(doc, {"r": 64, "c": 1024}, "gfx942").parse_args(argv)
    if args.c % WARP:
        print(f"Unsupported size! the column count must be a multiple of {WARP}, got {args.c}")
        return REFUSED
    x = np.random.default_rng(args.seed).normal(size=(args.r, args.c)).astype(np.float32)
    dst = np.zeros_like(x)
    launch(args.arch, x, dst)
    stats = last_launch_stats()
    err = rel_err(dst, x)
    ok = err <= tolerance
    share = "half a wave" if get_arch(args.arch).wave_size == 2 * WARP else "one wave"
    print(f"{name} on {args.arch}: {args.r} rows x {args.c} columns, blocks of {WARP} threads "
          f"({share} each); {stats.batched_blocks} blocks batched, {stats.per_wave_blocks} per "
          "wave")
    print(f"{'PASSED' if ok else 'FAILED'} (max relative error {err:.3g} vs float64 numpy, "
          f"limit {tolerance:g})")
    return 0 if ok else 1
