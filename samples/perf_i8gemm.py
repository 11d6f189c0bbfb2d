"""rocWMMA's perf_i8gemm in Python: i8 inputs, i32 C, D and accumulation; wave tiles of
BLOCKS_M x BLOCKS_N blocks, cooperative global reads into double-buffered LDS
(design: samples/perf_gemm_common.py). Every target; gfx9 and gfx11/12 use the original's
parameter tables.

    rocwmma-sample perf_i8gemm [--arch gfx1100] [-m 512 -n 512 -k 512] [--runs 1]

Prints the original's columns (elapsedMs is the emulator's wall time), the emulation speed
and a peak-time model of the target. Exit status: 0 PASSED, 1 FAILED, 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import Constants, int8_t, int32_t

from . import common
from .perf_gemm_common import Params, main_for

#            ROCWMMA_M/N/K  BLOCKS_M/N  TBLOCK_X/Y  WARP_SIZE
GFX9_PARAMS = Params(32, 32, 16, 2, 2, 128, 2, Constants.AMDGCN_WAVE_SIZE_64)
GFX11_PARAMS = Params(16, 16, 16, 4, 2, 64, 2, Constants.AMDGCN_WAVE_SIZE_32)

TYPES = (int8_t, int32_t, int32_t)  # InputT, OutputT, ComputeT


def params(arch: str) -> Params:
    return GFX9_PARAMS if common.is_gfx9(arch) else GFX11_PARAMS


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__, params, TYPES, lambda arch: True, "", argv)


if __name__ == "__main__":
    raise SystemExit(main())
