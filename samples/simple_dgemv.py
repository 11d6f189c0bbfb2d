"""rocWMMA's simple_dgemv in Python: y = alpha * A x + beta * y in f64 with 16x16x16 fragments,
(16W, 1) thread blocks, 16 rows of y per wave; gfx90a, gfx942, gfx950 only (f64 MFMA).

    rocwmma-sample simple_dgemv [--arch gfx942] [-m 256 -k 256] [--seed 0]

x and y are allocated 16 columns wide because the kernel touches that much (see
samples/simple_gemv_common.py). Exit status: 0 PASSED, 1 FAILED, 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from rocwmma_py import float64_t

from . import common
from .simple_gemv_common import main_for


def main(argv: list[str] | None = None) -> int:
    return main_for("dgemv", __doc__, float64_t, common.is_f64_supported,
                    "f64 dgemv not supported on this device", argv)


if __name__ == "__main__":
    raise SystemExit(main())
