"""rocWMMA's hipRTC_gemm in Python: the simple GEMM kernel (bf16 inputs, f32 C, D and
accumulation) kept as source text, compiled at run time with compile() and exec(), looked up
by name and launched — the counterpart of hiprtcCompileProgram / hipModuleGetFunction.

    rocwmma-sample runtime_gemm [--arch gfx1100] [-m 256 -n 256 -k 256] [--seed 0]

Exit status: 0 PASSED, 1 FAILED (or the source failed to compile), 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import traceback

from rocwmma_py import bfloat16_t, float32_t

from . import common
from .simple_gemm_common import gemm_test

TYPES = (bfloat16_t, float32_t, float32_t)  # InputT, OutputT, ComputeT

SOURCE = '''
from rocwmma_py import *

ROCWMMA_M = ROCWMMA_N = ROCWMMA_K = 16
InputT, OutputT, ComputeT = bfloat16_t, float32_t, float32_t

FragA = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, row_major]
FragB = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, col_major]
FragC = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, OutputT]
FragAcc = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, ComputeT]


@kernel
def gemm_rocwmma_d(m, n, k, a, b, c, d, lda, ldb, ldc, ldd,
                   alpha: ComputeT, beta: ComputeT):
    frag_a, frag_b, frag_c, frag_acc = FragA(), FragB(), FragC(), FragAcc()
    fill_fragment(frag_acc, 0.0)

    major_warp = (blockIdx.x * blockDim.x + threadIdx.x) // Constants.AMDGCN_WAVE_SIZE
    minor_warp = blockIdx.y * blockDim.y + threadIdx.y
    c_row = major_warp * ROCWMMA_M
    c_col = minor_warp * ROCWMMA_N

    if c_row < m and c_col < n:
        for i in range(0, k, ROCWMMA_K):
            load_matrix_sync(frag_a, a + (c_row * lda + i), lda)
            load_matrix_sync(frag_b, b + (i + c_col * ldb), ldb)
            mma_sync(frag_acc, frag_a, frag_b, frag_acc)

        load_matrix_sync(frag_c, c + (c_row * ldc + c_col), ldc, mem_row_major)
        frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x
        store_matrix_sync(d + (c_row * ldd + c_col), frag_c, ldd, mem_row_major)
'''


def compile_module(source: str, name: str = "<runtime_gemm>") -> dict | None:
    """Compile and run `source` into a fresh namespace (hiprtcCompileProgram +
    hipModuleLoadData); on failure print the log, as the original does, and return None."""
    try:
        code = compile(source, name, "exec")
        module: dict = {"__name__": name}
        exec(code, module)  # noqa: S102 - running the kernel source is the point of the sample
    except Exception:  # noqa: BLE001 - any error is the "compile log"
        print("Runtime compile failed.")
        print(traceback.format_exc())
        return None
    return module


def main(argv: list[str] | None = None, source: str = SOURCE) -> int:
    args = common.sample_parser(__doc__,
                                {"m": 256, "n": 256, "k": 256}).parse_args(argv)
    module = compile_module(source)
    if module is None:
        return common.FAILED
    gemm = module["gemm_rocwmma_d"]  # hipModuleGetFunction(&func, module, "gemm_rocwmma_d")
    return gemm_test(gemm, args.arch, args.m, args.n, args.k, 2.1, 2.1, args.seed, TYPES)


if __name__ == "__main__":
    raise SystemExit(main())
