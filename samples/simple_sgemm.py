"""rocWMMA's simple_sgemm in Python: D = alpha * A x B + beta * C in f32, one 16x16 block of D
per wave, (4W, 4) thread blocks, no LDS; gfx9 only (f32 has no WMMA).

    rocwmma-sample simple_sgemm [--arch gfx90a] [-m 256 -n 256 -k 256] [--seed 0]

Exit status: 0 PASSED, 1 FAILED, 2 refused (unsupported architecture or size).
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import float32_t

from . import common
from .simple_gemm_common import main_for

TYPES = (float32_t, float32_t, float32_t)  # InputT, OutputT, ComputeT


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__, TYPES, common.is_f32_supported,
                    "f32 sgemm not supported on this device", argv)


if __name__ == "__main__":
    raise SystemExit(main())
