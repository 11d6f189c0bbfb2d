"""Shared by the CUDA samples: --arch restricted to targets with the sample's types, exact
validation against numpy, PASSED / FAILED."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from rocwmma_py import wmma


def parse_args(argv: Sequence[str] | None, description: str, dtype, default: str,
               sizes: tuple[int, int, int]) -> argparse.Namespace:
    """--arch (targets whose matrix cores take `dtype`) and -m/-n/-k."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--arch", default=default, choices=wmma.targets_for(dtype),
                   help=f"target to emulate (default {default})")
    for flag, size in zip("mnk", sizes, strict=True):
        p.add_argument(f"-{flag}", type=int, default=size, help=f"{flag.upper()} ({size})")
    return p.parse_args(argv)


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
