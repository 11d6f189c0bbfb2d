"""Small helpers shared by the samples: target selection, validation and printing."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from rocwmma_py import ARCH_NAMES, get_arch


def arches_with(*builtins: str) -> list[str]:
    """The emulated targets that have every one of `builtins` (names without the prefix)."""
    return [a for a in ARCH_NAMES if all(b in get_arch(a).instructions for b in builtins)]


def parse_args(
    argv: Sequence[str] | None, description: str, default_arch: str, builtins: Sequence[str]
) -> argparse.Namespace:
    """`--arch` (restricted to targets having `builtins`) and `--print` (show the result)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--arch", default=default_arch, choices=arches_with(*builtins),
        help=f"target to emulate (default {default_arch})",
    )
    parser.add_argument(
        "--print", dest="show", action="store_true", help="print the result matrix"
    )
    return parser.parse_args(argv)


def validate(name: str, got: np.ndarray, ref: np.ndarray) -> bool:
    """Exact comparison of a kernel's output with a reference; prints PASSED or FAILED."""
    got64 = np.asarray(got, dtype=np.float64)
    ref64 = np.asarray(ref, dtype=np.float64)
    if got64.shape != ref64.shape:
        print(f"{name}: FAILED (shape {got64.shape} != reference shape {ref64.shape})")
        return False
    err = np.abs(got64 - ref64)
    max_err = float(np.max(err, initial=0.0))
    if np.array_equal(got64, ref64):
        print(f"{name}: PASSED (max abs error {max_err:g})")
        return True
    bad = int(np.count_nonzero(got64 != ref64))
    print(f"{name}: FAILED ({bad} of {ref64.size} elements differ, max abs error {max_err:g})")
    return False


def print_matrix(c: np.ndarray) -> None:
    """The seeds' `printf("%f ", (float)c[i * 16 + j])` loop: one row per line."""
    for row in np.asarray(c, dtype=np.float32):
        print(" ".join(f"{v:f}" for v in row))
