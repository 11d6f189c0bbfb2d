# Type stub of rocwmma_py.amdgcn, generated from the instruction tables by
# tools/gen_amdgcn_stub.py: do not edit, regenerate (tests/test_typing.py checks it).
from typing import Any

from numpy.typing import ArrayLike, NDArray

from .arch import Arch
from .arch.instructions import Instruction
from .errors import UnsupportedInstructionError as UnsupportedInstructionError
from .runtime import Pointer
from .runtime.lane_ops import CROSS_LANE_BUILTINS as CROSS_LANE_BUILTINS
from .runtime.lane_ops import ds_bpermute as ds_bpermute
from .runtime.lane_ops import ds_permute as ds_permute
from .runtime.lane_ops import ds_swizzle as ds_swizzle
from .runtime.lane_ops import mov_dpp as mov_dpp
from .runtime.lane_ops import permlane16 as permlane16
from .runtime.lane_ops import permlane16_swap as permlane16_swap
from .runtime.lane_ops import permlane32_swap as permlane32_swap
from .runtime.lane_ops import permlane_bcast as permlane_bcast
from .runtime.lane_ops import permlane_down as permlane_down
from .runtime.lane_ops import permlane_up as permlane_up
from .runtime.lane_ops import permlane_xor as permlane_xor
from .runtime.lane_ops import permlanex16 as permlanex16
from .runtime.lane_ops import readfirstlane as readfirstlane
from .runtime.lane_ops import readlane as readlane
from .runtime.lane_ops import update_dpp as update_dpp
from .runtime.mx_convert import MX_CONVERT_BUILTINS as MX_CONVERT_BUILTINS
from .runtime.mx_convert import cvt_scalef32_2xpk16_bf6_f32 as cvt_scalef32_2xpk16_bf6_f32
from .runtime.mx_convert import cvt_scalef32_2xpk16_fp6_f32 as cvt_scalef32_2xpk16_fp6_f32
from .runtime.mx_convert import cvt_scalef32_f16_bf8 as cvt_scalef32_f16_bf8
from .runtime.mx_convert import cvt_scalef32_f16_fp8 as cvt_scalef32_f16_fp8
from .runtime.mx_convert import cvt_scalef32_f32_bf8 as cvt_scalef32_f32_bf8
from .runtime.mx_convert import cvt_scalef32_f32_fp8 as cvt_scalef32_f32_fp8
from .runtime.mx_convert import cvt_scalef32_pk32_bf6_bf16 as cvt_scalef32_pk32_bf6_bf16
from .runtime.mx_convert import cvt_scalef32_pk32_bf6_f16 as cvt_scalef32_pk32_bf6_f16
from .runtime.mx_convert import cvt_scalef32_pk32_bf16_bf6 as cvt_scalef32_pk32_bf16_bf6
from .runtime.mx_convert import cvt_scalef32_pk32_bf16_fp6 as cvt_scalef32_pk32_bf16_fp6
from .runtime.mx_convert import cvt_scalef32_pk32_f16_bf6 as cvt_scalef32_pk32_f16_bf6
from .runtime.mx_convert import cvt_scalef32_pk32_f16_fp6 as cvt_scalef32_pk32_f16_fp6
from .runtime.mx_convert import cvt_scalef32_pk32_f32_bf6 as cvt_scalef32_pk32_f32_bf6
from .runtime.mx_convert import cvt_scalef32_pk32_f32_fp6 as cvt_scalef32_pk32_f32_fp6
from .runtime.mx_convert import cvt_scalef32_pk32_fp6_bf16 as cvt_scalef32_pk32_fp6_bf16
from .runtime.mx_convert import cvt_scalef32_pk32_fp6_f16 as cvt_scalef32_pk32_fp6_f16
from .runtime.mx_convert import cvt_scalef32_pk_bf8_bf16 as cvt_scalef32_pk_bf8_bf16
from .runtime.mx_convert import cvt_scalef32_pk_bf8_f16 as cvt_scalef32_pk_bf8_f16
from .runtime.mx_convert import cvt_scalef32_pk_bf8_f32 as cvt_scalef32_pk_bf8_f32
from .runtime.mx_convert import cvt_scalef32_pk_bf16_bf8 as cvt_scalef32_pk_bf16_bf8
from .runtime.mx_convert import cvt_scalef32_pk_bf16_fp4 as cvt_scalef32_pk_bf16_fp4
from .runtime.mx_convert import cvt_scalef32_pk_bf16_fp8 as cvt_scalef32_pk_bf16_fp8
from .runtime.mx_convert import cvt_scalef32_pk_f16_bf8 as cvt_scalef32_pk_f16_bf8
from .runtime.mx_convert import cvt_scalef32_pk_f16_fp4 as cvt_scalef32_pk_f16_fp4
from .runtime.mx_convert import cvt_scalef32_pk_f16_fp8 as cvt_scalef32_pk_f16_fp8
from .runtime.mx_convert import cvt_scalef32_pk_f32_bf8 as cvt_scalef32_pk_f32_bf8
from .runtime.mx_convert import cvt_scalef32_pk_f32_fp4 as cvt_scalef32_pk_f32_fp4
from .runtime.mx_convert import cvt_scalef32_pk_f32_fp8 as cvt_scalef32_pk_f32_fp8
from .runtime.mx_convert import cvt_scalef32_pk_fp4_bf16 as cvt_scalef32_pk_fp4_bf16
from .runtime.mx_convert import cvt_scalef32_pk_fp4_f16 as cvt_scalef32_pk_fp4_f16
from .runtime.mx_convert import cvt_scalef32_pk_fp4_f32 as cvt_scalef32_pk_fp4_f32
from .runtime.mx_convert import cvt_scalef32_pk_fp8_bf16 as cvt_scalef32_pk_fp8_bf16
from .runtime.mx_convert import cvt_scalef32_pk_fp8_f16 as cvt_scalef32_pk_fp8_f16
from .runtime.mx_convert import cvt_scalef32_pk_fp8_f32 as cvt_scalef32_pk_fp8_f32
from .runtime.mx_convert import cvt_scalef32_sr_bf8_bf16 as cvt_scalef32_sr_bf8_bf16
from .runtime.mx_convert import cvt_scalef32_sr_bf8_f16 as cvt_scalef32_sr_bf8_f16
from .runtime.mx_convert import cvt_scalef32_sr_bf8_f32 as cvt_scalef32_sr_bf8_f32
from .runtime.mx_convert import cvt_scalef32_sr_fp8_bf16 as cvt_scalef32_sr_fp8_bf16
from .runtime.mx_convert import cvt_scalef32_sr_fp8_f16 as cvt_scalef32_sr_fp8_f16
from .runtime.mx_convert import cvt_scalef32_sr_fp8_f32 as cvt_scalef32_sr_fp8_f32
from .runtime.mx_convert import cvt_scalef32_sr_pk32_bf6_bf16 as cvt_scalef32_sr_pk32_bf6_bf16
from .runtime.mx_convert import cvt_scalef32_sr_pk32_bf6_f16 as cvt_scalef32_sr_pk32_bf6_f16
from .runtime.mx_convert import cvt_scalef32_sr_pk32_bf6_f32 as cvt_scalef32_sr_pk32_bf6_f32
from .runtime.mx_convert import cvt_scalef32_sr_pk32_fp6_bf16 as cvt_scalef32_sr_pk32_fp6_bf16
from .runtime.mx_convert import cvt_scalef32_sr_pk32_fp6_f16 as cvt_scalef32_sr_pk32_fp6_f16
from .runtime.mx_convert import cvt_scalef32_sr_pk32_fp6_f32 as cvt_scalef32_sr_pk32_fp6_f32
from .runtime.mx_convert import cvt_scalef32_sr_pk_fp4_bf16 as cvt_scalef32_sr_pk_fp4_bf16
from .runtime.mx_convert import cvt_scalef32_sr_pk_fp4_f16 as cvt_scalef32_sr_pk_fp4_f16
from .runtime.mx_convert import cvt_scalef32_sr_pk_fp4_f32 as cvt_scalef32_sr_pk_fp4_f32
from .runtime.mx_convert import cvt_sr_bf16_f32 as cvt_sr_bf16_f32
from .runtime.mx_convert import cvt_sr_f16_f32 as cvt_sr_f16_f32

BUILTINS: list[str]
"""Every matrix-core builtin name (without `__builtin_amdgcn_`), sorted."""

__all__ = [
    "CROSS_LANE_BUILTINS",
    "MX_CONVERT_BUILTINS",
    "UnsupportedInstructionError",
    "cvt_scalef32_2xpk16_bf6_f32",
    "cvt_scalef32_2xpk16_fp6_f32",
    "cvt_scalef32_f16_bf8",
    "cvt_scalef32_f16_fp8",
    "cvt_scalef32_f32_bf8",
    "cvt_scalef32_f32_fp8",
    "cvt_scalef32_pk32_bf16_bf6",
    "cvt_scalef32_pk32_bf16_fp6",
    "cvt_scalef32_pk32_bf6_bf16",
    "cvt_scalef32_pk32_bf6_f16",
    "cvt_scalef32_pk32_f16_bf6",
    "cvt_scalef32_pk32_f16_fp6",
    "cvt_scalef32_pk32_f32_bf6",
    "cvt_scalef32_pk32_f32_fp6",
    "cvt_scalef32_pk32_fp6_bf16",
    "cvt_scalef32_pk32_fp6_f16",
    "cvt_scalef32_pk_bf16_bf8",
    "cvt_scalef32_pk_bf16_fp4",
    "cvt_scalef32_pk_bf16_fp8",
    "cvt_scalef32_pk_bf8_bf16",
    "cvt_scalef32_pk_bf8_f16",
    "cvt_scalef32_pk_bf8_f32",
    "cvt_scalef32_pk_f16_bf8",
    "cvt_scalef32_pk_f16_fp4",
    "cvt_scalef32_pk_f16_fp8",
    "cvt_scalef32_pk_f32_bf8",
    "cvt_scalef32_pk_f32_fp4",
    "cvt_scalef32_pk_f32_fp8",
    "cvt_scalef32_pk_fp4_bf16",
    "cvt_scalef32_pk_fp4_f16",
    "cvt_scalef32_pk_fp4_f32",
    "cvt_scalef32_pk_fp8_bf16",
    "cvt_scalef32_pk_fp8_f16",
    "cvt_scalef32_pk_fp8_f32",
    "cvt_scalef32_sr_bf8_bf16",
    "cvt_scalef32_sr_bf8_f16",
    "cvt_scalef32_sr_bf8_f32",
    "cvt_scalef32_sr_fp8_bf16",
    "cvt_scalef32_sr_fp8_f16",
    "cvt_scalef32_sr_fp8_f32",
    "cvt_scalef32_sr_pk32_bf6_bf16",
    "cvt_scalef32_sr_pk32_bf6_f16",
    "cvt_scalef32_sr_pk32_bf6_f32",
    "cvt_scalef32_sr_pk32_fp6_bf16",
    "cvt_scalef32_sr_pk32_fp6_f16",
    "cvt_scalef32_sr_pk32_fp6_f32",
    "cvt_scalef32_sr_pk_fp4_bf16",
    "cvt_scalef32_sr_pk_fp4_f16",
    "cvt_scalef32_sr_pk_fp4_f32",
    "cvt_sr_bf16_f32",
    "cvt_sr_f16_f32",
    "ds_bpermute",
    "ds_permute",
    "ds_swizzle",
    "global_load_tr_b128_v8i16",
    "instruction",
    "mfma_f32_16x16x16bf16_1k",
    "mfma_f32_16x16x16f16",
    "mfma_f32_16x16x1f32",
    "mfma_f32_16x16x2bf16",
    "mfma_f32_16x16x32_bf16",
    "mfma_f32_16x16x32_bf8_bf8",
    "mfma_f32_16x16x32_bf8_fp8",
    "mfma_f32_16x16x32_f16",
    "mfma_f32_16x16x32_fp8_bf8",
    "mfma_f32_16x16x32_fp8_fp8",
    "mfma_f32_16x16x4bf16_1k",
    "mfma_f32_16x16x4f16",
    "mfma_f32_16x16x4f32",
    "mfma_f32_16x16x8_xf32",
    "mfma_f32_16x16x8bf16",
    "mfma_f32_32x32x16_bf16",
    "mfma_f32_32x32x16_bf8_bf8",
    "mfma_f32_32x32x16_bf8_fp8",
    "mfma_f32_32x32x16_f16",
    "mfma_f32_32x32x16_fp8_bf8",
    "mfma_f32_32x32x16_fp8_fp8",
    "mfma_f32_32x32x1f32",
    "mfma_f32_32x32x2bf16",
    "mfma_f32_32x32x2f32",
    "mfma_f32_32x32x4_xf32",
    "mfma_f32_32x32x4bf16",
    "mfma_f32_32x32x4bf16_1k",
    "mfma_f32_32x32x4f16",
    "mfma_f32_32x32x8bf16_1k",
    "mfma_f32_32x32x8f16",
    "mfma_f32_4x4x1f32",
    "mfma_f32_4x4x2bf16",
    "mfma_f32_4x4x4bf16_1k",
    "mfma_f32_4x4x4f16",
    "mfma_f64_16x16x4f64",
    "mfma_f64_4x4x4f64",
    "mfma_i32_16x16x16i8",
    "mfma_i32_16x16x32_i8",
    "mfma_i32_16x16x4i8",
    "mfma_i32_16x16x64_i8",
    "mfma_i32_32x32x16_i8",
    "mfma_i32_32x32x32_i8",
    "mfma_i32_32x32x4i8",
    "mfma_i32_32x32x8i8",
    "mfma_i32_4x4x4i8",
    "mfma_scale_f32_16x16x128_f8f6f4",
    "mfma_scale_f32_32x32x64_f8f6f4",
    "mov_dpp",
    "permlane16",
    "permlane16_swap",
    "permlane32_swap",
    "permlane_bcast",
    "permlane_down",
    "permlane_up",
    "permlane_xor",
    "permlanex16",
    "readfirstlane",
    "readlane",
    "smfmac_f32_16x16x128_bf8_bf8",
    "smfmac_f32_16x16x128_bf8_fp8",
    "smfmac_f32_16x16x128_fp8_bf8",
    "smfmac_f32_16x16x128_fp8_fp8",
    "smfmac_f32_16x16x32_bf16",
    "smfmac_f32_16x16x32_f16",
    "smfmac_f32_16x16x64_bf16",
    "smfmac_f32_16x16x64_bf8_bf8",
    "smfmac_f32_16x16x64_bf8_fp8",
    "smfmac_f32_16x16x64_f16",
    "smfmac_f32_16x16x64_fp8_bf8",
    "smfmac_f32_16x16x64_fp8_fp8",
    "smfmac_f32_32x32x16_bf16",
    "smfmac_f32_32x32x16_f16",
    "smfmac_f32_32x32x32_bf16",
    "smfmac_f32_32x32x32_bf8_bf8",
    "smfmac_f32_32x32x32_bf8_fp8",
    "smfmac_f32_32x32x32_f16",
    "smfmac_f32_32x32x32_fp8_bf8",
    "smfmac_f32_32x32x32_fp8_fp8",
    "smfmac_f32_32x32x64_bf8_bf8",
    "smfmac_f32_32x32x64_bf8_fp8",
    "smfmac_f32_32x32x64_fp8_bf8",
    "smfmac_f32_32x32x64_fp8_fp8",
    "smfmac_i32_16x16x128_i8",
    "smfmac_i32_16x16x64_i8",
    "smfmac_i32_32x32x32_i8",
    "smfmac_i32_32x32x64_i8",
    "swmmac_bf16_16x16x32_bf16_w32",
    "swmmac_bf16_16x16x32_bf16_w64",
    "swmmac_bf16_16x16x64_bf16",
    "swmmac_bf16f32_16x16x64_bf16",
    "swmmac_f16_16x16x128_bf8_bf8",
    "swmmac_f16_16x16x128_bf8_fp8",
    "swmmac_f16_16x16x128_fp8_bf8",
    "swmmac_f16_16x16x128_fp8_fp8",
    "swmmac_f16_16x16x32_f16_w32",
    "swmmac_f16_16x16x32_f16_w64",
    "swmmac_f16_16x16x64_f16",
    "swmmac_f32_16x16x128_bf8_bf8",
    "swmmac_f32_16x16x128_bf8_fp8",
    "swmmac_f32_16x16x128_fp8_bf8",
    "swmmac_f32_16x16x128_fp8_fp8",
    "swmmac_f32_16x16x32_bf16_w32",
    "swmmac_f32_16x16x32_bf16_w64",
    "swmmac_f32_16x16x32_bf8_bf8_w32",
    "swmmac_f32_16x16x32_bf8_bf8_w64",
    "swmmac_f32_16x16x32_bf8_fp8_w32",
    "swmmac_f32_16x16x32_bf8_fp8_w64",
    "swmmac_f32_16x16x32_f16_w32",
    "swmmac_f32_16x16x32_f16_w64",
    "swmmac_f32_16x16x32_fp8_bf8_w32",
    "swmmac_f32_16x16x32_fp8_bf8_w64",
    "swmmac_f32_16x16x32_fp8_fp8_w32",
    "swmmac_f32_16x16x32_fp8_fp8_w64",
    "swmmac_f32_16x16x64_bf16",
    "swmmac_f32_16x16x64_f16",
    "swmmac_i32_16x16x128_iu8",
    "swmmac_i32_16x16x32_iu4_w32",
    "swmmac_i32_16x16x32_iu4_w64",
    "swmmac_i32_16x16x32_iu8_w32",
    "swmmac_i32_16x16x32_iu8_w64",
    "swmmac_i32_16x16x64_iu4_w32",
    "swmmac_i32_16x16x64_iu4_w64",
    "update_dpp",
    "wmma_bf16_16x16x16_bf16_w32",
    "wmma_bf16_16x16x16_bf16_w32_gfx12",
    "wmma_bf16_16x16x16_bf16_w64",
    "wmma_bf16_16x16x16_bf16_w64_gfx12",
    "wmma_bf16_16x16x32_bf16",
    "wmma_bf16f32_16x16x32_bf16",
    "wmma_f16_16x16x128_bf8_bf8",
    "wmma_f16_16x16x128_bf8_fp8",
    "wmma_f16_16x16x128_fp8_bf8",
    "wmma_f16_16x16x128_fp8_fp8",
    "wmma_f16_16x16x16_f16_w32",
    "wmma_f16_16x16x16_f16_w32_gfx12",
    "wmma_f16_16x16x16_f16_w64",
    "wmma_f16_16x16x16_f16_w64_gfx12",
    "wmma_f16_16x16x32_f16",
    "wmma_f16_16x16x64_bf8_bf8",
    "wmma_f16_16x16x64_bf8_fp8",
    "wmma_f16_16x16x64_fp8_bf8",
    "wmma_f16_16x16x64_fp8_fp8",
    "wmma_f32_16x16x128_bf8_bf8",
    "wmma_f32_16x16x128_bf8_fp8",
    "wmma_f32_16x16x128_f8f6f4",
    "wmma_f32_16x16x128_fp8_bf8",
    "wmma_f32_16x16x128_fp8_fp8",
    "wmma_f32_16x16x16_bf16_w32",
    "wmma_f32_16x16x16_bf16_w32_gfx12",
    "wmma_f32_16x16x16_bf16_w64",
    "wmma_f32_16x16x16_bf16_w64_gfx12",
    "wmma_f32_16x16x16_bf8_bf8_w32_gfx12",
    "wmma_f32_16x16x16_bf8_bf8_w64_gfx12",
    "wmma_f32_16x16x16_bf8_fp8_w32_gfx12",
    "wmma_f32_16x16x16_bf8_fp8_w64_gfx12",
    "wmma_f32_16x16x16_f16_w32",
    "wmma_f32_16x16x16_f16_w32_gfx12",
    "wmma_f32_16x16x16_f16_w64",
    "wmma_f32_16x16x16_f16_w64_gfx12",
    "wmma_f32_16x16x16_fp8_bf8_w32_gfx12",
    "wmma_f32_16x16x16_fp8_bf8_w64_gfx12",
    "wmma_f32_16x16x16_fp8_fp8_w32_gfx12",
    "wmma_f32_16x16x16_fp8_fp8_w64_gfx12",
    "wmma_f32_16x16x32_bf16",
    "wmma_f32_16x16x32_f16",
    "wmma_f32_16x16x4_f32",
    "wmma_f32_16x16x64_bf8_bf8",
    "wmma_f32_16x16x64_bf8_fp8",
    "wmma_f32_16x16x64_fp8_bf8",
    "wmma_f32_16x16x64_fp8_fp8",
    "wmma_f32_32x16x128_f4",
    "wmma_f64_16x16x4_f64",
    "wmma_i32_16x16x16_iu4_w32",
    "wmma_i32_16x16x16_iu4_w32_gfx12",
    "wmma_i32_16x16x16_iu4_w64",
    "wmma_i32_16x16x16_iu4_w64_gfx12",
    "wmma_i32_16x16x16_iu8_w32",
    "wmma_i32_16x16x16_iu8_w32_gfx12",
    "wmma_i32_16x16x16_iu8_w64",
    "wmma_i32_16x16x16_iu8_w64_gfx12",
    "wmma_i32_16x16x32_iu4_w32_gfx12",
    "wmma_i32_16x16x32_iu4_w64_gfx12",
    "wmma_i32_16x16x64_iu8",
    "wmma_scale16_f32_16x16x128_f8f6f4",
    "wmma_scale16_f32_32x16x128_f4",
    "wmma_scale_f32_16x16x128_f8f6f4",
    "wmma_scale_f32_32x16x128_f4",
]

def instruction(builtin: str, arch: str | Arch | None = None) -> Instruction:
    """The instruction-table row of `builtin` on `arch` (default: the current target).

    The row gives M, N, K, blocks, operand types, cycles, FLOPs and the operand layouts
    (`a_layout`, `b_layout`, `c_layout(opsel)`: which lane and slot holds which element).

    Raises:
        UnsupportedInstructionError: the target has no such builtin (the message names the
            targets that have it).
        ValueError: an unknown architecture name.

    Example:
        >>> from rocwmma_py import amdgcn
        >>> i = amdgcn.instruction("mfma_f32_16x16x16f16", "gfx942")
        >>> (i.m, i.n, i.k, i.blocks, i.cycles)
        (16, 16, 16, 1, 16)
    """

def global_load_tr_b128_v8i16(ptr: Pointer) -> NDArray[Any]:
    """__builtin_amdgcn_global_load_tr_b128_v8i16 (gfx1200, gfx1201): transposing load.

    Each lane loads 8 consecutive 16-bit values from its own address `ptr`, then every group
    of 8 lanes transposes its 8x8 block: out[8q+i][e] = in[8q+e][i]. Returns (lanes, 8)
    int16 (the bytes of `half8`/`bfloat8`/`short8`).

    Raises:
        UnsupportedInstructionError: not on a gfx12 target.
        OutOfBoundsError: an address outside the buffer.
    """

def mfma_f32_16x16x16bf16_1k(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is) on gfx90a
        blgp: int: must be 0 (no BLGP on this instruction) on gfx942, gfx950

    ISA and cycles:
        v_mfma_f32_16x16x16bf16_1k, 32 cycles on gfx90a
        v_mfma_f32_16x16x16_bf16, 16 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x16f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is) on gfx908, gfx90a
        blgp: int: must be 0 (no BLGP on this instruction) on gfx942, gfx950

    ISA and cycles:
        v_mfma_f32_16x16x16f16, 32 cycles on gfx908, gfx90a
        v_mfma_f32_16x16x16_f16, 16 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x1f32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x1f32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x1 (4 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float32
        b: (64, 1) float32
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x1f32, 32 cycles on gfx908, gfx90a
        v_mfma_f32_16x16x1_4b_f32, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x2bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x2bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x2 (4 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) bfloat16
        b: (64, 2) bfloat16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x2bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) bfloat16
        b: (64, 8) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 8) float8_e5m2fnuz on gfx942
        b: (64, 8) float8_e5m2 on gfx950
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_bf8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 8) float8_e4m3fnuz on gfx942
        b: (64, 8) float8_e4m3fn on gfx950
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_bf8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float16
        b: (64, 8) float16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 8) float8_e5m2fnuz on gfx942
        b: (64, 8) float8_e5m2 on gfx950
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_fp8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x32_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 8) float8_e4m3fnuz on gfx942
        b: (64, 8) float8_e4m3fn on gfx950
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x32_fp8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x4bf16_1k(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x4bf16_1k(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x4 (4 blocks), one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x4bf16_1k, 32 cycles on gfx90a
        v_mfma_f32_16x16x4_4b_bf16, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x4f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x4f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x4 (4 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x4f16, 32 cycles on gfx908, gfx90a
        v_mfma_f32_16x16x4_4b_f16, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x4f32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x4, one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float32
        b: (64, 1) float32
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x4f32, 32 cycles on gfx908, gfx90a
        v_mfma_f32_16x16x4_f32, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x8_xf32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x8_xf32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x8, one wave of 64 lanes.
    Targets: gfx942.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) xfloat32 (float32 storage, the low 13 mantissa bits ignored)
        b: (64, 2) xfloat32 (float32 storage, the low 13 mantissa bits ignored)
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_16x16x8_xf32, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_16x16x8bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_16x16x8bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x8, one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) bfloat16
        b: (64, 2) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_16x16x8bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) bfloat16
        b: (64, 8) bfloat16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 8) float8_e5m2fnuz on gfx942
        b: (64, 8) float8_e5m2 on gfx950
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 8) float8_e4m3fnuz on gfx942
        b: (64, 8) float8_e4m3fn on gfx950
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float16
        b: (64, 8) float16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 8) float8_e5m2fnuz on gfx942
        b: (64, 8) float8_e5m2 on gfx950
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x16_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 8) float8_e4m3fnuz on gfx942
        b: (64, 8) float8_e4m3fn on gfx950
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x16_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x1f32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x1f32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x1 (2 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float32
        b: (64, 1) float32
        c: (64, 32) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x1f32, 64 cycles on gfx908, gfx90a
        v_mfma_f32_32x32x1_2b_f32, 64 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x2bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x2bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x2 (2 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) bfloat16
        b: (64, 2) bfloat16
        c: (64, 32) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x2bf16, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x2f32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x2f32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x2, one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float32
        b: (64, 1) float32
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x2f32, 64 cycles on gfx908, gfx90a
        v_mfma_f32_32x32x2_f32, 64 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x4_xf32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x4_xf32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x4, one wave of 64 lanes.
    Targets: gfx942.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) xfloat32 (float32 storage, the low 13 mantissa bits ignored)
        b: (64, 2) xfloat32 (float32 storage, the low 13 mantissa bits ignored)
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_f32_32x32x4_xf32, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x4bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x4bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x4, one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) bfloat16
        b: (64, 2) bfloat16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x4bf16, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x4bf16_1k(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x4bf16_1k(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x4 (2 blocks), one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 32) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x4bf16_1k, 64 cycles on gfx90a
        v_mfma_f32_32x32x4_2b_bf16, 64 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x4f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x4f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x4 (2 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 32) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_32x32x4f16, 64 cycles on gfx908, gfx90a
        v_mfma_f32_32x32x4_2b_f16, 64 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x8bf16_1k(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x8, one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is) on gfx90a
        blgp: int: must be 0 (no BLGP on this instruction) on gfx942, gfx950

    ISA and cycles:
        v_mfma_f32_32x32x8bf16_1k, 64 cycles on gfx90a
        v_mfma_f32_32x32x8_bf16, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_32x32x8f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x8, one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is) on gfx908, gfx90a
        blgp: int: must be 0 (no BLGP on this instruction) on gfx942, gfx950

    ISA and cycles:
        v_mfma_f32_32x32x8f16, 64 cycles on gfx908, gfx90a
        v_mfma_f32_32x32x8_f16, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_4x4x1f32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_4x4x1f32(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x1 (16 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float32
        b: (64, 1) float32
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_4x4x1f32, 8 cycles on gfx908, gfx90a
        v_mfma_f32_4x4x1_16b_f32, 8 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_4x4x2bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_4x4x2bf16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x2 (16 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 2) bfloat16
        b: (64, 2) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_4x4x2bf16, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_4x4x4bf16_1k(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_4x4x4bf16_1k(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x4 (16 blocks), one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_4x4x4bf16_1k, 8 cycles on gfx90a
        v_mfma_f32_4x4x4_16b_bf16, 8 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f32_4x4x4f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f32_4x4x4f16(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x4 (16 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 4) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_f32_4x4x4f16, 8 cycles on gfx908, gfx90a
        v_mfma_f32_4x4x4_16b_f16, 8 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f64_16x16x4f64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x4, one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float64
        b: (64, 1) float64
        c: (64, 4) float64
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction) on gfx90a
        blgp: int: NEG on CDNA3 f64, bit 0 negates A, bit 1 B, bit 2 C on gfx942, gfx950

    ISA and cycles:
        v_mfma_f64_16x16x4f64, 32 cycles on gfx90a
        v_mfma_f64_16x16x4_f64, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_f64_4x4x4f64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_f64_4x4x4f64(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x4 (4 blocks), one wave of 64 lanes.
    Targets: gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 1) float64
        b: (64, 1) float64
        c: (64, 1) float64
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction) on gfx90a
        blgp: int: NEG on CDNA3 f64, bit 0 negates A, bit 1 B, bit 2 C on gfx942, gfx950

    ISA and cycles:
        v_mfma_f64_4x4x4f64, 16 cycles on gfx90a
        v_mfma_f64_4x4x4_4b_f64, 16 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_16x16x16i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_16x16x16i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_i32_16x16x16i8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_16x16x32_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        b: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_i32_16x16x32_i8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_16x16x4i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_16x16x4i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x4 (4 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 16) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_i32_16x16x4i8, 32 cycles on gfx908, gfx90a
        v_mfma_i32_16x16x4_4b_i8, 32 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_16x16x64_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_16x16x64_i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        b: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_i32_16x16x64_i8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_32x32x16_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        b: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        c: (64, 16) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_i32_32x32x16_i8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_32x32x32_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_32x32x32_i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        b: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        c: (64, 16) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: must be 0 (no BLGP on this instruction)

    ISA and cycles:
        v_mfma_i32_32x32x32_i8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_32x32x4i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_32x32x4i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x4 (2 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 32) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_i32_32x32x4i8, 64 cycles on gfx908, gfx90a
        v_mfma_i32_32x32x4_2b_i8, 64 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_32x32x8i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_32x32x8i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 32x32x8, one wave of 64 lanes.
    Targets: gfx908, gfx90a.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 16) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: must be 0 (single-block instruction)
        abid: int: must be 0 (single-block instruction)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_i32_32x32x8i8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_i32_4x4x4i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    abid: int,
    blgp: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_i32_4x4x4i8(a, b, c, cbsz, abid, blgp).

    D = A·B + C, 4x4x4 (16 blocks), one wave of 64 lanes.
    Targets: gfx908, gfx90a, gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))
        abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)
        blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)

    ISA and cycles:
        v_mfma_i32_4x4x4i8, 8 cycles on gfx908, gfx90a
        v_mfma_i32_4x4x4_16b_i8, 8 cycles on gfx942, gfx950

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_scale_f32_16x16x128_f8f6f4(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    blgp: int,
    opsel_a: bool | int,
    scale_a: ArrayLike,
    opsel_b: bool | int,
    scale_b: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, cbsz, blgp, opsel_a, scale_a,
        opsel_b, scale_b).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int32 words (v8i32): 32 values per lane in the cbsz/blgp
            format; fp6 reads the first 6 words, fp4 the first 4
        b: (64, 8) int32 words (v8i32): 32 values per lane in the cbsz/blgp
            format; fp6 reads the first 6 words, fp4 the first 4
        c: (64, 4) float32
        returns D with c's dtype and shape
        scale_a, scale_b: (64,) int32 E8M0 scale words, byte opsel_a/opsel_b
            of lane i + M*kb scaling row i (column i of B) in K block kb:
            2**(s - 127);
            both the constant 0: the unscaled v_mfma_f32_*_f8f6f4

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)
        blgp: int: B's format 0-4 (as cbsz)
        opsel_a: int: 0-3, the byte of scale_a's word that holds the scale
        opsel_b: int: 0-3, the byte of scale_b's word that holds the scale

    ISA and cycles:
        v_mfma_scale_f32_16x16x128_f8f6f4, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def mfma_scale_f32_32x32x64_f8f6f4(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    cbsz: int,
    blgp: int,
    opsel_a: bool | int,
    scale_a: ArrayLike,
    opsel_b: bool | int,
    scale_b: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, cbsz, blgp, opsel_a, scale_a,
        opsel_b, scale_b).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int32 words (v8i32): 32 values per lane in the cbsz/blgp
            format; fp6 reads the first 6 words, fp4 the first 4
        b: (64, 8) int32 words (v8i32): 32 values per lane in the cbsz/blgp
            format; fp6 reads the first 6 words, fp4 the first 4
        c: (64, 16) float32
        returns D with c's dtype and shape
        scale_a, scale_b: (64,) int32 E8M0 scale words, byte opsel_a/opsel_b
            of lane i + M*kb scaling row i (column i of B) in K block kb:
            2**(s - 127);
            both the constant 0: the unscaled v_mfma_f32_*_f8f6f4

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)
        blgp: int: B's format 0-4 (as cbsz)
        opsel_a: int: 0-3, the byte of scale_a's word that holds the scale
        opsel_b: int: 0-3, the byte of scale_b's word that holds the scale

    ISA and cycles:
        v_mfma_scale_f32_32x32x64_f8f6f4, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x128_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x128_bf8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e5m2
        b: (64, 32) float8_e5m2
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x128_bf8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x128_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x128_bf8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e5m2
        b: (64, 32) float8_e4m3fn
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x128_bf8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x128_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x128_fp8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e4m3fn
        b: (64, 32) float8_e5m2
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x128_fp8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x128_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x128_fp8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e4m3fn
        b: (64, 32) float8_e4m3fn
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x128_fp8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x32_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x32_bf16(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 8) bfloat16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x32_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x32_f16(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 8) float16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_bf16(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) bfloat16
        b: (64, 16) bfloat16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_bf8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 16) float8_e5m2fnuz on gfx942
        b: (64, 16) float8_e5m2 on gfx950
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_bf8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_bf8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 16) float8_e4m3fnuz on gfx942
        b: (64, 16) float8_e4m3fn on gfx950
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_bf8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_f16(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float16
        b: (64, 16) float16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_fp8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 16) float8_e5m2fnuz on gfx942
        b: (64, 16) float8_e5m2 on gfx950
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_fp8_bf8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_16x16x64_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_16x16x64_fp8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 16) float8_e4m3fnuz on gfx942
        b: (64, 16) float8_e4m3fn on gfx950
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_16x16x64_fp8_fp8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x16_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x16_bf16(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    A is 4:2 sparse: 8 stored values of each row's 16, 4 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 8) bfloat16
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x16_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x16_f16(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x16, one wave of 64 lanes.
    A is 4:2 sparse: 8 stored values of each row's 16, 4 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 8) float16
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_bf16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_bf16(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) bfloat16
        b: (64, 16) bfloat16
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_bf8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 16) float8_e5m2fnuz on gfx942
        b: (64, 16) float8_e5m2 on gfx950
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_bf8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e5m2fnuz on gfx942
        a: (64, 8) float8_e5m2 on gfx950
        b: (64, 16) float8_e4m3fnuz on gfx942
        b: (64, 16) float8_e4m3fn on gfx950
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_f16(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_f16(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float16
        b: (64, 16) float16
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_fp8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 16) float8_e5m2fnuz on gfx942
        b: (64, 16) float8_e5m2 on gfx950
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x32_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x32_fp8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) float8_e4m3fnuz on gfx942
        a: (64, 8) float8_e4m3fn on gfx950
        b: (64, 16) float8_e4m3fnuz on gfx942
        b: (64, 16) float8_e4m3fn on gfx950
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x32_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x64_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x64_bf8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e5m2
        b: (64, 32) float8_e5m2
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x64_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x64_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x64_bf8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e5m2
        b: (64, 32) float8_e4m3fn
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x64_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x64_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x64_fp8_bf8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e4m3fn
        b: (64, 32) float8_e5m2
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x64_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_f32_32x32x64_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_f32_32x32x64_fp8_fp8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float8_e4m3fn
        b: (64, 32) float8_e4m3fn
        c: (64, 16) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_f32_32x32x64_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_i32_16x16x128_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_i32_16x16x128_i8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x128, one wave of 64 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        b: (64, 32) int8 (the same bytes as (64, 8) int32 words)
        c: (64, 4) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_i32_16x16x128_i8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_i32_16x16x64_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_i32_16x16x64_i8(a, b, c, index, cbsz, abid).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        b: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        c: (64, 4) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_i32_16x16x64_i8, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_i32_32x32x32_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_i32_32x32x32_i8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx942, gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        b: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        c: (64, 16) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_i32_32x32x32_i8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def smfmac_i32_32x32x64_i8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    cbsz: int,
    abid: int,
) -> NDArray[Any]:
    """__builtin_amdgcn_smfmac_i32_32x32x64_i8(a, b, c, index, cbsz, abid).

    D = A·B + C, 32x32x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx950.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        b: (64, 32) int8 (the same bytes as (64, 8) int32 words)
        c: (64, 16) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0
        abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)

    ISA and cycles:
        v_smfmac_i32_32x32x64_i8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_bf16_16x16x32_bf16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_bf16_16x16x32_bf16_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) bfloat16
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_bf16_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_bf16_16x16x32_bf16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_bf16_16x16x32_bf16_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 8) bfloat16
        c: (64, 4) bfloat16
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_bf16_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_bf16_16x16x64_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_bf16_16x16x64_bf16(a_neg, a, b_neg, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 32) bfloat16
        c: (32, 8) bfloat16
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_bf16_16x16x64_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_bf16f32_16x16x64_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_bf16f32_16x16x64_bf16(a_neg, a, b_neg, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 32) bfloat16
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D as (32, 8) bfloat16

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_bf16f32_16x16x64_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x128_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x128_bf8_bf8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 64) float8_e5m2
        c: (32, 8) float16
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f16_16x16x128_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x128_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x128_bf8_fp8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float16
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f16_16x16x128_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x128_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x128_fp8_bf8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 64) float8_e5m2
        c: (32, 8) float16
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f16_16x16x128_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x128_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x128_fp8_fp8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float16
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f16_16x16x128_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x32_f16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x32_f16_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float16
        b: (32, 16) float16
        c: (32, 8) float16
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f16_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x32_f16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x32_f16_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 8) float16
        c: (64, 4) float16
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f16_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f16_16x16x64_f16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f16_16x16x64_f16(a_neg, a, b_neg, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 32) float16
        c: (32, 8) float16
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f16_16x16x64_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x128_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x128_bf8_bf8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 64) float8_e5m2
        c: (32, 8) float32
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x128_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x128_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x128_bf8_fp8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float32
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x128_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x128_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x128_fp8_bf8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 64) float8_e5m2
        c: (32, 8) float32
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x128_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x128_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x128_fp8_fp8(a, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float32
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x128_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf16_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf16_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 8) bfloat16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf8_bf8_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf8_bf8_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e5m2
        b: (32, 16) float8_e5m2
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf8_bf8_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf8_bf8_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e5m2
        b: (64, 8) float8_e5m2
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf8_fp8_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf8_fp8_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e5m2
        b: (32, 16) float8_e4m3fn
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_bf8_fp8_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_bf8_fp8_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e5m2
        b: (64, 8) float8_e4m3fn
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_bf8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_f16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float16
        b: (32, 16) float16
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_f16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_f16_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 8) float16
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_fp8_bf8_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_fp8_bf8_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e4m3fn
        b: (32, 16) float8_e5m2
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_fp8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_fp8_bf8_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_fp8_bf8_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e4m3fn
        b: (64, 8) float8_e5m2
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_fp8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_fp8_fp8_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_fp8_fp8_w32(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e4m3fn
        b: (32, 16) float8_e4m3fn
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_fp8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x32_fp8_fp8_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x32_fp8_fp8_w64(a, b, c, index).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e4m3fn
        b: (64, 8) float8_e4m3fn
        c: (64, 4) float32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    ISA and cycles:
        v_swmmac_f32_16x16x32_fp8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x64_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x64_bf16(a_neg, a, b_neg, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 32) bfloat16
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x64_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_f32_16x16x64_f16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_f32_16x16x64_f16(a_neg, a, b_neg, b, c, index, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 32) float16
        c: (32, 8) float32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_swmmac_f32_16x16x64_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x128_iu8(
    a_sign: bool | int,
    a: ArrayLike,
    b_sign: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
    clamp: bool | int = False,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x128_iu8(a_sign, a, b_sign, b, c, index, matrix_a_reuse,
        matrix_b_reuse, clamp).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    A is 4:2 sparse: 64 stored values of each row's 128, 1 index set(s) per index word.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) int8 (the same bytes as (32, 8) int32 words)
        b: (32, 64) int8 (the same bytes as (32, 16) int32 words)
        c: (32, 8) int32
        index: (32, 2) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_sign: bool: A is signed (True) or unsigned
        b_sign: bool: B is signed (True) or unsigned
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x128_iu8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x32_iu4_w32(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x32_iu4_w32(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) int4 (the same bytes as (32, 1) int32 words)
        b: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        c: (32, 8) int32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x32_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x32_iu4_w64(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x32_iu4_w64(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        b: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x32_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x32_iu8_w32(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x32_iu8_w32(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) int8 (the same bytes as (32, 2) int32 words)
        b: (32, 16) int8 (the same bytes as (32, 4) int32 words)
        c: (32, 8) int32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x32_iu8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x32_iu8_w64(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x32_iu8_w64(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    A is 4:2 sparse: 16 stored values of each row's 32, 4 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 8) int8 (the same bytes as (64, 2) int32 words)
        c: (64, 4) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x32_iu8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x64_iu4_w32(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x64_iu4_w32(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 1 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        b: (32, 32) int4 (the same bytes as (32, 4) int32 words)
        c: (32, 8) int32
        index: (32,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x64_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def swmmac_i32_16x16x64_iu4_w64(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    index: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_swmmac_i32_16x16x64_iu4_w64(sgn_a, a, sgn_b, b, c, index, clamp).

    D = A·B + C, 16x16x64, one wave of 64 lanes.
    A is 4:2 sparse: 32 stored values of each row's 64, 2 index set(s) per index word.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        b: (64, 16) int4 (the same bytes as (64, 2) int32 words)
        c: (64, 4) int32
        index: (64,) int32, the 2-bit positions of A's stored values:
            value e of a lane in bits 2e+1:2e of its index set
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_swmmac_i32_16x16x64_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16_16x16x16_bf16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    opsel: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(a, b, c, opsel).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 16) bfloat16
        c: (32, 16) bfloat16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        opsel: bool: OPSEL, which 16-bit half of each C/D register holds the result

    ISA and cycles:
        v_wmma_bf16_16x16x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16_16x16x16_bf16_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) bfloat16
        b: (32, 8) bfloat16
        c: (32, 8) bfloat16
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_bf16_16x16x16_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16_16x16x16_bf16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    opsel: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w64(a, b, c, opsel).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) bfloat16
        b: (64, 16) bfloat16
        c: (64, 8) bfloat16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        opsel: bool: OPSEL, which 16-bit half of each C/D register holds the result

    ISA and cycles:
        v_wmma_bf16_16x16x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16_16x16x16_bf16_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 4) bfloat16
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_bf16_16x16x16_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16_16x16x32_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16_16x16x32_bf16(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) bfloat16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_bf16_16x16x32_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_bf16f32_16x16x32_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_bf16f32_16x16x32_bf16(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) float32
        returns D as (32, 8) bfloat16

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_bf16f32_16x16x32_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x128_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x128_bf8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e5m2
        b: (32, 64) float8_e5m2
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x128_bf8_bf8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x128_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x128_bf8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e5m2
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x128_bf8_fp8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x128_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x128_fp8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e4m3fn
        b: (32, 64) float8_e5m2
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x128_fp8_bf8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x128_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x128_fp8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e4m3fn
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x128_fp8_fp8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x16_f16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    opsel: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a, b, c, opsel).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 16) float16
        c: (32, 16) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        opsel: bool: OPSEL, which 16-bit half of each C/D register holds the result

    ISA and cycles:
        v_wmma_f16_16x16x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x16_f16_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float16
        b: (32, 8) float16
        c: (32, 8) float16
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f16_16x16x16_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x16_f16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
    opsel: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x16_f16_w64(a, b, c, opsel).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float16
        b: (64, 16) float16
        c: (64, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        opsel: bool: OPSEL, which 16-bit half of each C/D register holds the result

    ISA and cycles:
        v_wmma_f16_16x16x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x16_f16_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x16_f16_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 4) float16
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f16_16x16x16_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x32_f16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x32_f16(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 16) float16
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x32_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x64_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x64_bf8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 32) float8_e5m2
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x64_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x64_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x64_bf8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 32) float8_e4m3fn
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x64_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x64_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x64_fp8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 32) float8_e5m2
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x64_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f16_16x16x64_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f16_16x16x64_fp8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 32) float8_e4m3fn
        c: (32, 8) float16
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f16_16x16x64_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x128_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x128_bf8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e5m2
        b: (32, 64) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x128_bf8_bf8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x128_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x128_bf8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e5m2
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x128_bf8_fp8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x128_f8f6f4(
    matrix_a_fmt: int,
    a: ArrayLike,
    matrix_b_fmt: int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x128_f8f6f4(matrix_a_fmt, a, matrix_b_fmt, b, c_mod, c).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_a_fmt format; fp6 reads the first 12 words, fp4 the first 8
        b: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_b_fmt format; fp6 reads the first 12 words, fp4 the first 8
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_fmt: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)
        matrix_b_fmt: int: B's format 0-4 (as matrix_a_fmt)
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)

    ISA and cycles:
        v_wmma_f32_16x16x128_f8f6f4, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x128_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x128_fp8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e4m3fn
        b: (32, 64) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x128_fp8_bf8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x128_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x128_fp8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 64) float8_e4m3fn
        b: (32, 64) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x128_fp8_fp8, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf16_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) bfloat16
        b: (32, 8) bfloat16
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf16_w64(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) bfloat16
        b: (64, 16) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf16_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf16_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) bfloat16
        b: (64, 4) bfloat16
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf8_bf8_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf8_bf8_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e5m2
        b: (32, 8) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf8_bf8_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf8_bf8_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e5m2
        b: (64, 4) float8_e5m2
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf8_fp8_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf8_fp8_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e5m2
        b: (32, 8) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_bf8_fp8_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_bf8_fp8_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e5m2
        b: (64, 4) float8_e4m3fn
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_bf8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_f16_w32(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 16) float16
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_f16_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float16
        b: (32, 8) float16
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_f16_w64(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_f16_w64(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) float16
        b: (64, 16) float16
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_f16_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_f16_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float16
        b: (64, 4) float16
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_f16, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_fp8_bf8_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_fp8_bf8_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e4m3fn
        b: (32, 8) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_fp8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_fp8_bf8_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_fp8_bf8_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e4m3fn
        b: (64, 4) float8_e5m2
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_fp8_bf8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_fp8_fp8_w32_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_fp8_fp8_w32_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) float8_e4m3fn
        b: (32, 8) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_fp8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x16_fp8_fp8_w64_gfx12(
    a: ArrayLike,
    b: ArrayLike,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x16_fp8_fp8_w64_gfx12(a, b, c).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) float8_e4m3fn
        b: (64, 4) float8_e4m3fn
        c: (64, 4) float32
        returns D with c's dtype and shape

    ISA and cycles:
        v_wmma_f32_16x16x16_fp8_fp8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x32_bf16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x32_bf16(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) bfloat16
        b: (32, 16) bfloat16
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x32_bf16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x32_f16(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x32_f16(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) float16
        b: (32, 16) float16
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x32_f16, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x4_f32(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x4_f32(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x4, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 2) float32
        b: (32, 2) float32
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x4_f32, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x64_bf8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x64_bf8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 32) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x64_bf8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x64_bf8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x64_bf8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e5m2
        b: (32, 32) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x64_bf8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x64_fp8_bf8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x64_fp8_bf8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 32) float8_e5m2
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x64_fp8_bf8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_16x16x64_fp8_fp8(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_16x16x64_fp8_fp8(a, b, c_mod, c, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) float8_e4m3fn
        b: (32, 32) float8_e4m3fn
        c: (32, 8) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f32_16x16x64_fp8_fp8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f32_32x16x128_f4(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f32_32x16x128_f4(a, b, c_mod, c).

    D = A·B + C, 32x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 128 fp4 values per lane
        b: (32, 8) int32 words (v8i32): 64 fp4 values per lane
        c: (32, 16) float32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)

    ISA and cycles:
        v_wmma_f32_32x16x128_f4, 128 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_f64_16x16x4_f64(
    a_neg: bool | int,
    a: ArrayLike,
    b_neg: bool | int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_f64_16x16x4_f64(a_neg, a, b_neg, b, c_mod, c, matrix_a_reuse,
        matrix_b_reuse).

    D = A·B + C, 16x16x4, one wave of 32 lanes.
    Targets: gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 2) float64
        b: (32, 2) float64
        c: (32, 8) float64
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_neg: bool: negate A
        b_neg: bool: negate B
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_f64_16x16x4_f64, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu4_w32(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu4_w32(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        b: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu4, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu4_w32_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu4_w32_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) int4 (the same bytes as (32, 1) int32 words)
        b: (32, 8) int4 (the same bytes as (32, 1) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu4_w64(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu4_w64(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int4 (the same bytes as (64, 2) int32 words)
        b: (64, 16) int4 (the same bytes as (64, 2) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu4, 16 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu4_w64_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu4_w64_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        b: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu8_w32(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int8 (the same bytes as (32, 4) int32 words)
        b: (32, 16) int8 (the same bytes as (32, 4) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu8_w32_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 8) int8 (the same bytes as (32, 2) int32 words)
        b: (32, 8) int8 (the same bytes as (32, 2) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu8_w64(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153.

    Operands per wave (lanes, elements per lane):
        a: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        b: (64, 16) int8 (the same bytes as (64, 4) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x16_iu8_w64_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x16_iu8_w64_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x16, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        b: (64, 4) int8 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x16_iu8, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x32_iu4_w32_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x32_iu4_w32_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x32, one wave of 32 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        b: (32, 16) int4 (the same bytes as (32, 2) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x32_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x32_iu4_w64_gfx12(
    sgn_a: bool | int,
    a: ArrayLike,
    sgn_b: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    clamp: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x32_iu4_w64_gfx12(sgn_a, a, sgn_b, b, c, clamp).

    D = A·B + C, 16x16x32, one wave of 64 lanes.
    Targets: gfx1200, gfx1201, gfx1170.

    Operands per wave (lanes, elements per lane):
        a: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        b: (64, 8) int4 (the same bytes as (64, 1) int32 words)
        c: (64, 4) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        sgn_a: bool: A is signed (True) or unsigned
        sgn_b: bool: B is signed (True) or unsigned
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x32_iu4, 8 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_i32_16x16x64_iu8(
    a_sign: bool | int,
    a: ArrayLike,
    b_sign: bool | int,
    b: ArrayLike,
    c: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
    clamp: bool | int = False,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_i32_16x16x64_iu8(a_sign, a, b_sign, b, c, matrix_a_reuse,
        matrix_b_reuse, clamp).

    D = A·B + C, 16x16x64, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 32) int8 (the same bytes as (32, 8) int32 words)
        b: (32, 32) int8 (the same bytes as (32, 8) int32 words)
        c: (32, 8) int32
        returns D with c's dtype and shape

    Immediates (compile-time ints or bools; out of range: ModifierError):
        a_sign: bool: A is signed (True) or unsigned
        b_sign: bool: B is signed (True) or unsigned
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)
        clamp: bool: saturate the int32 result instead of wrapping

    ISA and cycles:
        v_wmma_i32_16x16x64_iu8, 32 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_scale16_f32_16x16x128_f8f6f4(
    matrix_a_fmt: int,
    a: ArrayLike,
    matrix_b_fmt: int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_scale: int,
    matrix_a_scale_fmt: int,
    matrix_a_scale_exp: ArrayLike,
    matrix_b_scale: int,
    matrix_b_scale_fmt: int,
    matrix_b_scale_exp: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_scale16_f32_16x16x128_f8f6f4(matrix_a_fmt, a, matrix_b_fmt, b, c_mod,
        c, matrix_a_scale, matrix_a_scale_fmt, matrix_a_scale_exp, matrix_b_scale,
        matrix_b_scale_fmt, matrix_b_scale_exp, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_a_fmt format; fp6 reads the first 12 words, fp4 the first 8
        b: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_b_fmt format; fp6 reads the first 12 words, fp4 the first 8
        c: (32, 8) float32
        returns D with c's dtype and shape
        matrix_a_scale_exp, matrix_b_scale_exp: (32,) int64 scale words, byte
            kb of lane x + 16*sel scaling row x of A (column x of B) in K block
            kb of 16 values (a 32-row A: lane x)

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_fmt: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)
        matrix_b_fmt: int: B's format 0-4 (as matrix_a_fmt)
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_scale: int: 0/1, lanes 0-15 or 16-31 hold A's scales (unused by a 32-row A)
        matrix_a_scale_fmt: int: A's scale format, 0 E8M0, 1 E5M3, 2 E4M3
        matrix_b_scale: int: 0/1, lanes 0-15 or 16-31 hold B's scales
        matrix_b_scale_fmt: int: B's scale format (as matrix_a_scale_fmt)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_scale16_f32_16x16x128_f8f6f4, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_scale16_f32_32x16x128_f4(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_scale: int,
    matrix_a_scale_fmt: int,
    matrix_a_scale_exp: ArrayLike,
    matrix_b_scale: int,
    matrix_b_scale_fmt: int,
    matrix_b_scale_exp: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_scale16_f32_32x16x128_f4(a, b, c_mod, c, matrix_a_scale,
        matrix_a_scale_fmt, matrix_a_scale_exp, matrix_b_scale, matrix_b_scale_fmt,
        matrix_b_scale_exp, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 32x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 128 fp4 values per lane
        b: (32, 8) int32 words (v8i32): 64 fp4 values per lane
        c: (32, 16) float32
        returns D with c's dtype and shape
        matrix_a_scale_exp, matrix_b_scale_exp: (32,) int64 scale words, byte
            kb of lane x + 16*sel scaling row x of A (column x of B) in K block
            kb of 16 values (a 32-row A: lane x)

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_scale: int: 0/1, lanes 0-15 or 16-31 hold A's scales (unused by a 32-row A)
        matrix_a_scale_fmt: int: A's scale format, 0 E8M0, 1 E5M3, 2 E4M3
        matrix_b_scale: int: 0/1, lanes 0-15 or 16-31 hold B's scales
        matrix_b_scale_fmt: int: B's scale format (as matrix_a_scale_fmt)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_scale16_f32_32x16x128_f4, 128 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_scale_f32_16x16x128_f8f6f4(
    matrix_a_fmt: int,
    a: ArrayLike,
    matrix_b_fmt: int,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_scale: int,
    matrix_a_scale_fmt: int,
    matrix_a_scale_exp: ArrayLike,
    matrix_b_scale: int,
    matrix_b_scale_fmt: int,
    matrix_b_scale_exp: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_scale_f32_16x16x128_f8f6f4(matrix_a_fmt, a, matrix_b_fmt, b, c_mod, c,
        matrix_a_scale, matrix_a_scale_fmt, matrix_a_scale_exp, matrix_b_scale,
        matrix_b_scale_fmt, matrix_b_scale_exp, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 16x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_a_fmt format; fp6 reads the first 12 words, fp4 the first 8
        b: (32, 16) int32 words (v16i32): 64 values per lane in the
            matrix_b_fmt format; fp6 reads the first 12 words, fp4 the first 8
        c: (32, 8) float32
        returns D with c's dtype and shape
        matrix_a_scale_exp, matrix_b_scale_exp: (32,) int32 scale words, byte
            kb of lane x + 16*sel scaling row x of A (column x of B) in K block
            kb of 32 values (a 32-row A: lane x)

    Immediates (compile-time ints or bools; out of range: ModifierError):
        matrix_a_fmt: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)
        matrix_b_fmt: int: B's format 0-4 (as matrix_a_fmt)
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_scale: int: 0/1, lanes 0-15 or 16-31 hold A's scales (unused by a 32-row A)
        matrix_a_scale_fmt: int: A's scale format, 0 E8M0, 1 E5M3, 2 E4M3
        matrix_b_scale: int: 0/1, lanes 0-15 or 16-31 hold B's scales
        matrix_b_scale_fmt: int: B's scale format (as matrix_a_scale_fmt)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_scale_f32_16x16x128_f8f6f4, 64 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """

def wmma_scale_f32_32x16x128_f4(
    a: ArrayLike,
    b: ArrayLike,
    c_mod: int,
    c: ArrayLike,
    matrix_a_scale: int,
    matrix_a_scale_fmt: int,
    matrix_a_scale_exp: ArrayLike,
    matrix_b_scale: int,
    matrix_b_scale_fmt: int,
    matrix_b_scale_exp: ArrayLike,
    matrix_a_reuse: bool | int,
    matrix_b_reuse: bool | int,
) -> NDArray[Any]:
    """__builtin_amdgcn_wmma_scale_f32_32x16x128_f4(a, b, c_mod, c, matrix_a_scale,
        matrix_a_scale_fmt, matrix_a_scale_exp, matrix_b_scale, matrix_b_scale_fmt,
        matrix_b_scale_exp, matrix_a_reuse, matrix_b_reuse).

    D = A·B + C, 32x16x128, one wave of 32 lanes.
    Targets: gfx1250, gfx1251.

    Operands per wave (lanes, elements per lane):
        a: (32, 16) int32 words (v16i32): 128 fp4 values per lane
        b: (32, 8) int32 words (v8i32): 64 fp4 values per lane
        c: (32, 16) float32
        returns D with c's dtype and shape
        matrix_a_scale_exp, matrix_b_scale_exp: (32,) int32 scale words, byte
            kb of lane x + 16*sel scaling row x of A (column x of B) in K block
            kb of 32 values (a 32-row A: lane x)

    Immediates (compile-time ints or bools; out of range: ModifierError):
        c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)
        matrix_a_scale: int: 0/1, lanes 0-15 or 16-31 hold A's scales (unused by a 32-row A)
        matrix_a_scale_fmt: int: A's scale format, 0 E8M0, 1 E5M3, 2 E4M3
        matrix_b_scale: int: 0/1, lanes 0-15 or 16-31 hold B's scales
        matrix_b_scale_fmt: int: B's scale format (as matrix_a_scale_fmt)
        matrix_a_reuse: bool: reuse hint for A (accepted, no effect)
        matrix_b_reuse: bool: reuse hint for B (accepted, no effect)

    ISA and cycles:
        v_wmma_scale_f32_32x16x128_f4, 128 cycles

    Raises:
        UnsupportedInstructionError: the running target has no such builtin.
        ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).
        TypeError: wrong arguments (the message shows the builtin's argument list).
    """
