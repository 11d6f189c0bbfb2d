"""rocWMMA's simple_hgemm in Python: D = alpha * A x B + beta * C with f16 inputs, C and D,
f32 accumulation; one 16x16 block of D per wave, (4W, 4) thread blocks, no LDS; every target.

    rocwmma-sample simple_hgemm [--arch gfx1100] [-m 256 -n 256 -k 256] [--seed 0]

Exit status: 0 PASSED, 1 FAILED, 2 refused (unsupported size).
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import float16_t, float32_t

from .simple_gemm_common import main_for

TYPES = (float16_t, float16_t, float32_t)  # InputT, OutputT, ComputeT


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__, TYPES, lambda arch: True, "", argv)


if __name__ == "__main__":
    raise SystemExit(main())
