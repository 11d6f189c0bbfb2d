"""rocWMMA's perf_sgemm in Python: f32 throughout; 32x32 blocks, 2x2 per wave, (128, 2) thread
blocks, cooperative global reads into double-buffered LDS (design:
samples/perf_gemm_common.py). gfx9 only (f32 has no WMMA).

    rocwmma-sample perf_sgemm [--arch gfx90a] [-m 512 -n 512 -k 512] [--runs 1]

Prints the original's columns (elapsedMs is the emulator's wall time), the emulation speed
and a peak-time model of the target. Exit status: 0 PASSED, 1 FAILED, 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import float32_t, get_arch

from . import common
from .perf_gemm_common import Params, main_for

TYPES = (float32_t, float32_t, float32_t)  # InputT, OutputT, ComputeT


def params(arch: str) -> Params:
    """ROCWMMA_M/N/K 32/32/16, BLOCKS 2x2, TBLOCK (128, 2), WARP_SIZE = AMDGCN_WAVE_SIZE."""
    return Params(32, 32, 16, 2, 2, 128, 2, get_arch(arch).wave_size)


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__, params, TYPES, common.is_f32_supported,
                    "f32 sgemm not supported on this device", argv)


if __name__ == "__main__":
    raise SystemExit(main())
