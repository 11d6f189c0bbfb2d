"""rocWMMA's simple_sgemm in Python: D = alpha * A x B + beta * C in f32, one 16x16 block of D
per wave, (4W, 4) thread blocks, no LDS; gfx9 only (f32 has no WMMA).

    python samples/simple_sgemm.py [--arch gfx90a] [-m 256 -n 256 -k 256] [--seed 0]

Exit status: 0 PASSED, 1 FAILED, 2 refused (unsupported architecture or size).
"""

import sys
from pathlib import Path

if not __package__:  # run as a script: make this repository's packages importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rocwmma_py import float32_t
from samples import common
from samples.simple_gemm_common import main_for

TYPES = (float32_t, float32_t, float32_t)  # InputT, OutputT, ComputeT


def main(argv: list[str] | None = None) -> int:
    return main_for(__doc__.splitlines()[0], TYPES, common.is_f32_supported,
                    "f32 sgemm not supported on this device", argv)


if __name__ == "__main__":
    raise SystemExit(main())
