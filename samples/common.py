"""Helpers shared by the samples: command line, rocWMMA's host-side helpers (samples/common.hpp:
arch probes, fillRand, fill, compareEqual), exact CPU references, printing, and the peak
model of the perf samples.

Exit codes of the rocWMMA sample ports: 0 PASSED, 1 FAILED, 2 refused (unsupported
architecture or size, printed like the original; argparse errors also exit 2).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rocwmma_py import ARCH_NAMES, ArchError, get_arch, types
from rocwmma_py.arch import devices

PASSED, FAILED, REFUSED = 0, 1, 2
ARCH_VAR = "ROCWMMA_PY_ARCH"  # the launch default's variable, honoured by every sample


def arches_with(*builtins: str) -> list[str]:
    """The emulated targets that have every one of `builtins` (names without the prefix)."""
    return [a for a in ARCH_NAMES if all(b in get_arch(a).instructions for b in builtins)]


def parse_args(
    argv: Sequence[str] | None, doc: str, default_arch: str, builtins: Sequence[str],
    seed: int = 0,
) -> argparse.Namespace:
    """The intrinsic samples' command line: `sample_parser` with `--arch` restricted to the
    targets having `builtins`, `--seed` and `--print` (show the result)."""
    return sample_parser(doc, default_arch=default_arch, archs=arches_with(*builtins),
                         show=True, seed=seed).parse_args(argv)


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


# --- command line ---------------------------------------------------------------------------


def positive_int(text: str) -> int:
    """argparse type of sizes and run counts: a whole number >= 1."""
    return _int_at_least(text, 1, "a positive integer")


def non_negative_int(text: str) -> int:
    """argparse type of seeds and warm-up counts: a whole number >= 0."""
    return _int_at_least(text, 0, "a non-negative integer")


def _int_at_least(text: str, low: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
    return value


class SampleParser(argparse.ArgumentParser):
    """Checks the `--arch` default too: it may come from $ROCWMMA_PY_ARCH, which argparse's
    `choices` never sees."""

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed = super().parse_args(args, namespace)
        if parsed.arch not in self.arch_choices:
            text = os.environ[ARCH_VAR].strip()
            alias = "" if text.lower() == parsed.arch else f" ({parsed.arch})"
            self.error(f"argument --arch: ${ARCH_VAR}={text!r}{alias} is not a target this "
                       f"sample runs on; choose from {', '.join(self.arch_choices)}")
        return parsed


def target_name(text: str) -> str:
    """`--arch`'s type: a gfx name or a product/generation alias ("MI300X"), as the gfx name."""
    try:
        return get_arch(text).name
    except ArchError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def sample_parser(doc: str, sizes: dict[str, int] | None = None, default_arch: str = "gfx942",
                  archs: Sequence[str] | None = None, size_help: str = "",
                  show: bool = False, seed: int = 0) -> SampleParser:
    """The command line every sample shares: the sample's docstring as help, `--arch` (the
    targets in `archs`, default every emulated one; $ROCWMMA_PY_ARCH, when set, replaces the
    sample's default), one `-X N` flag per entry of `sizes` (name -> default, positive),
    `--seed` (non-negative) and, with `show`, `--print`."""
    parser = SampleParser(description=doc.strip(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.arch_choices = list(archs or ARCH_NAMES)
    default = os.environ.get(ARCH_VAR, "").strip() or default_arch
    parser.add_argument("--arch", default=default, type=target_name,
                        choices=parser.arch_choices, metavar="ARCH",
                        help=f"target to emulate: {', '.join(parser.arch_choices)} or a product "
                             f"name of one (MI300X, RX 7900 XTX, ...) (default {default}, from "
                             f"${ARCH_VAR} when set)")
    for name, value in (sizes or {}).items():
        parser.add_argument(f"-{name}", type=positive_int, default=value, metavar="N",
                            help=f"problem size {name.upper()} (default {value}){size_help}")
    parser.add_argument("--seed", type=non_negative_int, default=seed,
                        help=f"seed of the random input fill (default {seed})")
    if show:
        parser.add_argument("--print", dest="show", action="store_true",
                            help="print the result matrix")
    return parser


# --- arch probes (common.hpp isGfx9/isGfx11/isGfx12/isF64Supported/isF32Supported) ---------


def is_gfx9(arch: str) -> bool:
    return get_arch(arch).family == "gfx9"


def is_gfx11(arch: str) -> bool:
    return get_arch(arch).family == "gfx11"


def is_gfx12(arch: str) -> bool:
    return get_arch(arch).family == "gfx12"


def is_f64_supported(arch: str) -> bool:
    return types.float64 in get_arch(arch).fragment_types


def is_f32_supported(arch: str) -> bool:
    return is_gfx9(arch)


# --- host data -------------------------------------------------------------------------------


def fill_rand(rng: np.random.Generator, rows: int, cols: int, dtype) -> np.ndarray:
    """fillRand: row i holds (r_i + j) % 5 with r_i random in 0..4, negated when a multiple
    of 3 and the type is signed: values {0, 1, 2, -3, 4}, exact in every type."""
    value = (rng.integers(0, 5, size=(rows, 1)) + np.arange(cols)) % 5
    if types.is_signed(dtype):
        value = np.where(value % 3 == 0, -value, value)
    return types.convert(value, dtype)


def fill_unit(rng: np.random.Generator, shape: tuple[int, ...], dtype) -> np.ndarray:
    """fill (DLRM): uniform [0, 1] rounded to half, then converted to `dtype`."""
    return types.convert(rng.random(shape).astype(np.float16), dtype)


def to_memory(matrix: np.ndarray, col_major: bool) -> np.ndarray:
    """A logical matrix as the C-contiguous buffer of a row- or col-major layout."""
    return np.ascontiguousarray(matrix.T if col_major else matrix)


# --- exact references ------------------------------------------------------------------------


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A @ B without rounding: integer types in int64; integer-valued floats in float64 (exact
    while |A| |B| K < 2**53); float16 scaled by 2**24 to int64 (DLRM's [0, 1] data)."""
    if np.issubdtype(a.dtype, np.integer):
        return a.astype(np.int64) @ b.astype(np.int64)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    bound = np.abs(a64).max(initial=0) * np.abs(b64).max(initial=0) * a.shape[-1]
    if np.all(a64 == np.round(a64)) and np.all(b64 == np.round(b64)) and bound < 2**53:
        return a64 @ b64
    if a.dtype == b.dtype == np.float16 and bound * 2.0**48 < 2**63:
        ia, ib = np.ldexp(a64, 24).astype(np.int64), np.ldexp(b64, 24).astype(np.int64)
        return np.ldexp((ia @ ib).astype(np.float64), -48)  # one rounding, below f16's
    raise ValueError("exact_matmul: no exact reference for these inputs; use integer-valued "
                     "or float16 data")


def gemm_reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, alpha, beta,
                   out_dtype) -> np.ndarray:
    """gemm_cpu_h with exact arithmetic: D = alpha * (A @ B) + beta * C, rounded once to
    `out_dtype` (A m x k, B k x n, C m x n as logical matrices)."""
    ab = exact_matmul(a, b)
    if np.issubdtype(np.dtype(out_dtype), np.integer):
        d = int(alpha) * ab + int(beta) * c.astype(np.int64)
    else:
        d = np.float64(alpha) * ab + np.float64(beta) * c.astype(np.float64)
    return types.convert(d, out_dtype)


# --- validation and printing -----------------------------------------------------------------


def compare_equal(got: np.ndarray, ref: np.ndarray, dtype,
                  tolerance: float = 10.0) -> tuple[bool, float]:
    """rocWMMA's compareEqual: values through float, rel = |a-b| / (|a|+|b|+1); fails on
    inf or NaN, else passes iff max rel <= numeric_limits<DataT>::epsilon() * tolerance
    (0 for integer types)."""
    a = np.asarray(got).astype(np.float32).astype(np.float64)
    b = np.asarray(ref).astype(np.float32).astype(np.float64)
    num, div = np.abs(a - b), np.abs(a) + np.abs(b) + 1.0
    if np.isinf(num).any() or np.isinf(div).any():
        return False, float("inf")
    rel = num / div
    if np.isnan(rel).any():
        return False, float("nan")
    max_rel = float(rel.max(initial=0.0))
    dt = np.dtype(types.storage_dtype(dtype))
    eps = 0.0 if dt.kind in "iu" else float(types.ml_dtypes.finfo(dt).eps)
    return max_rel <= eps * tolerance, max_rel


def report(result: tuple[bool, float], bang: bool = True) -> int:
    """Print PASSED/FAILED (with "!" as the simple samples do) and the max relative error."""
    ok, rel = result
    print(("PASSED" if ok else "FAILED") + ("!" if bang else ""))
    print(f"Max relative error: {fmt(rel)}")
    return PASSED if ok else FAILED


def fmt(v) -> str:
    """A value as C++'s `std::cout << v` prints it (6 significant digits for floats)."""
    if isinstance(v, (float, np.floating)):
        return f"{float(v):g}"
    return str(v)


def print_csv(header: Sequence[str], values: Sequence) -> None:
    """The simple samples' "a, b, c" header line and value line."""
    print(", ".join(header))
    print(", ".join(fmt(v) for v in values))


def print_columns(columns: Sequence[tuple[str, int]], values: Sequence) -> None:
    """The perf samples' `std::left << std::setw(w)` header and value lines."""
    print("".join(f"{name:<{w}}" for name, w in columns))
    print("".join(f"{fmt(v):<{w}}" for (_, w), v in zip(columns, values, strict=True)))


def gflops(m: int, n: int, k: int) -> float:
    """calculateGFlops: 2 m n k 1e-9."""
    return 2.0 * m * n * k * 1.0e-9


def timed_ms(run: Callable[[], None], repeats: int = 1) -> float:
    """Wall time of `repeats` calls of `run` in milliseconds (the emulator's speed)."""
    start = time.perf_counter()
    for _ in range(repeats):
        run()
    return (time.perf_counter() - start) * 1e3


# --- peak model of the perf samples ----------------------------------------------------------


@dataclass(frozen=True)
class Device:
    """A representative product of a target: compute units, matrix SIMDs per CU, peak clock."""

    product: str
    cus: int
    simds_per_cu: int
    clock_ghz: float


def _device(arch: str) -> Device:
    """The peak-model numbers of `arch`'s representative product (`rocwmma_py.arch.devices`,
    the table `device_properties` reads: one HIP device per target, MI250X is one GCD)."""
    p = devices.product(arch)
    return Device(p.product, p.cus, devices.SIMDS_PER_CU[get_arch(arch).family],
                  p.clock_mhz / 1000)


# They only scale the model line: instruction count x instruction cycles / (CUs x SIMDs x clock).
DEVICES: dict[str, Device] = {arch: _device(arch) for arch in ARCH_NAMES}


def print_perf_model(arch: str, instruction, count: int, m: int, n: int, k: int,
                     elapsed_ms: float, runs: int) -> None:
    """The emulation speed and the modelled peak time of `count` matrix instructions."""
    dev = DEVICES[arch]
    per_run = elapsed_ms / runs
    print(f"Emulation speed: {per_run:.1f} ms per run, "
          f"{gflops(m, n, k) / (per_run * 1e-3):.4g} GFLOP/s (wall time of the emulator)")
    cycles = count * instruction.cycles / (dev.cus * dev.simds_per_cu)
    model_ms = cycles / (dev.clock_ghz * 1e6)
    print(f"Model ({arch}, {dev.product}: {dev.cus} CUs x {dev.simds_per_cu} SIMDs at "
          f"{dev.clock_ghz} GHz): {count} x {instruction.builtin} ({instruction.cycles} cycles) "
          f"= {model_ms:.4g} ms, {gflops(m, n, k) / model_ms:.4g} TFLOP/s at peak "
          "(matrix instructions only)")
