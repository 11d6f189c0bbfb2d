"""rocWMMA's perf_dgemm in Python: f64 throughout; 16x16 blocks, 2x2 per wave, (128, 2) thread
blocks, cooperative global reads into double-buffered LDS (design:
samples/perf_gemm_common.py). gfx90a, gfx942, gfx950 only (f64 MFMA).

    rocwmma-sample perf_dgemm [--arch gfx90a] [-m 512 -n 512 -k 512] [--runs 1]

Prints the original's columns (elapsedMs is the emulator's wall time), the emulation speed
and a peak-time model of the target. Exit status: 0 PASSED, 1 FAILED, 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import float64_t, get_arch

from . import common
from .perf_gemm_common import Params, main_for

TYPES = (float64_t, float64_t, float64_t)  # InputT, OutputT, ComputeT


def params(arch: str) -> Params:
    """ROCWMMA_M/N/K 16/16/16, BLOCKS 2x2, TBLOCK (128, 2), WARP_SIZE = AMDGCN_WAVE_SIZE."""
    return Params(16, 16, 16, 2, 2, 128, 2, get_arch(arch).wave_size)


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__, params, TYPES, common.is_f64_supported,
                    "f64 dgemm not supported on this device", argv)


if __name__ == "__main__":
    raise SystemExit(main())
