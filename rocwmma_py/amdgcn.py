"""The emulated matrix cores as LLVM builtins: `amdgcn.X` is `__builtin_amdgcn_X`.

Each function takes the builtin's arguments in the builtin's order and operates on a whole
wave's registers: every vector operand is an array shaped (lanes, elements) as HIP sees it
(`half16` on gfx11 -> (32, 16) float16; `float4` -> (64, 4) float32; packed integer vectors
as their int8 elements or as 32/64-bit words, the same bytes). The instruction is looked up
in the table of the target architecture: the running kernel's, or outside a kernel
`runtime.current_arch()` (see `use_arch`), and computed by the numerics model that applies
there (`use_numerics`, `numerics_model`). D comes back with C's dtype and shape.

The cross-lane builtins (`readlane`, `ds_bpermute`, `update_dpp`, `ds_swizzle`, `permlane16`,
... : `CROSS_LANE_BUILTINS`) take per-lane values (`runtime.lane_ops`), and so do gfx950's
scaled / stochastic-rounding conversions (`cvt_scalef32_*`, `cvt_sr_*`: `MX_CONVERT_BUILTINS`,
`runtime.mx_convert`).
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from .arch import ARCH_NAMES, get_arch, targets_with
from .arch.execute import execute
from .arch.instructions import SIGN_ARGS, Instruction
from .arch.models import numerics_model
from .errors import BuiltinArgumentError, UnsupportedInstructionError
from .runtime import Pointer, VectorRegs, current_arch
from .runtime.lane_ops import (  # noqa: F401 - the cross-lane builtins, re-exported
    CROSS_LANE_BUILTINS,
    ds_bpermute,
    ds_permute,
    ds_swizzle,
    mov_dpp,
    permlane16,
    permlane16_swap,
    permlane32_swap,
    permlane_bcast,
    permlane_down,
    permlane_up,
    permlane_xor,
    permlanex16,
    readfirstlane,
    readlane,
    update_dpp,
)
from .runtime.lanes import Lanes, as_lanes, batch_data
from .runtime.mx_convert import (  # noqa: F401 - gfx950's scaled/SR conversions, re-exported
    MX_CONVERT_BUILTINS,
    cvt_scalef32_2xpk16_bf6_f32,
    cvt_scalef32_2xpk16_fp6_f32,
    cvt_scalef32_f16_bf8,
    cvt_scalef32_f16_fp8,
    cvt_scalef32_f32_bf8,
    cvt_scalef32_f32_fp8,
    cvt_scalef32_pk32_bf6_bf16,
    cvt_scalef32_pk32_bf6_f16,
    cvt_scalef32_pk32_bf16_bf6,
    cvt_scalef32_pk32_bf16_fp6,
    cvt_scalef32_pk32_f16_bf6,
    cvt_scalef32_pk32_f16_fp6,
    cvt_scalef32_pk32_f32_bf6,
    cvt_scalef32_pk32_f32_fp6,
    cvt_scalef32_pk32_fp6_bf16,
    cvt_scalef32_pk32_fp6_f16,
    cvt_scalef32_pk_bf8_bf16,
    cvt_scalef32_pk_bf8_f16,
    cvt_scalef32_pk_bf8_f32,
    cvt_scalef32_pk_bf16_bf8,
    cvt_scalef32_pk_bf16_fp4,
    cvt_scalef32_pk_bf16_fp8,
    cvt_scalef32_pk_f16_bf8,
    cvt_scalef32_pk_f16_fp4,
    cvt_scalef32_pk_f16_fp8,
    cvt_scalef32_pk_f32_bf8,
    cvt_scalef32_pk_f32_fp4,
    cvt_scalef32_pk_f32_fp8,
    cvt_scalef32_pk_fp4_bf16,
    cvt_scalef32_pk_fp4_f16,
    cvt_scalef32_pk_fp4_f32,
    cvt_scalef32_pk_fp8_bf16,
    cvt_scalef32_pk_fp8_f16,
    cvt_scalef32_pk_fp8_f32,
    cvt_scalef32_sr_bf8_bf16,
    cvt_scalef32_sr_bf8_f16,
    cvt_scalef32_sr_bf8_f32,
    cvt_scalef32_sr_fp8_bf16,
    cvt_scalef32_sr_fp8_f16,
    cvt_scalef32_sr_fp8_f32,
    cvt_scalef32_sr_pk32_bf6_bf16,
    cvt_scalef32_sr_pk32_bf6_f16,
    cvt_scalef32_sr_pk32_bf6_f32,
    cvt_scalef32_sr_pk32_fp6_bf16,
    cvt_scalef32_sr_pk32_fp6_f16,
    cvt_scalef32_sr_pk32_fp6_f32,
    cvt_scalef32_sr_pk_fp4_bf16,
    cvt_scalef32_sr_pk_fp4_f16,
    cvt_scalef32_sr_pk_fp4_f32,
    cvt_sr_bf16_f32,
    cvt_sr_f16_f32,
)
from .runtime.state import current_context_or_none


def _targets(builtin: str) -> list[str]:
    return [a for a in ARCH_NAMES if builtin in get_arch(a).instructions]


def instruction(builtin: str, arch=None) -> Instruction:
    """The table entry of `builtin` on `arch` (default: the current target)."""
    target = get_arch(arch) if arch is not None else current_arch()
    try:
        return target.instructions[builtin]
    except KeyError:
        where = ", ".join(_targets(builtin)) or "no supported architecture"
        raise UnsupportedInstructionError(
            f"__builtin_amdgcn_{builtin} is not available on {target.name}; it exists on {where}"
        ) from None


def _registers(value, lanes: int) -> np.ndarray:
    """A vector operand as (lanes, ...) registers; a uniform scalar goes to every lane (of
    every wave of a batch)."""
    regs = np.asarray(batch_data(value))
    return regs if regs.ndim else np.full(lanes * _waves(), regs)


def _waves() -> int:
    """Waves whose registers a builtin call carries: the running batch's, else one (whole
    waves: a narrow batch reruns with them)."""
    ctx = current_context_or_none()
    if ctx is None:
        return 1
    ctx.whole_waves()
    return ctx.n_waves


def _like(c, d: np.ndarray):
    """D in C's form: the same vector type, else Lanes (per-lane scalars, or rows that are
    lanes), which keep a batch's other waves out of the kernel's reach."""
    if isinstance(c, VectorRegs):
        return type(c)(d)
    return as_lanes(d, -1 if d.ndim == 1 else -2)


def _bind(signature: inspect.Signature, builtin: str, no_opsel: bool, args,
          kwargs) -> dict[str, Any]:
    """The call's arguments by name; a mismatch names the builtin's real argument list."""
    try:
        return signature.bind(*args, **kwargs).arguments
    except TypeError as err:
        call = f"__builtin_amdgcn_{builtin}({', '.join(signature.parameters)})"
        if no_opsel and (len(args) + len(kwargs) > len(signature.parameters) or
                         "opsel" in kwargs):
            raise BuiltinArgumentError(
                f"{call}: gfx12 has no OPSEL (16-bit results are packed, two per register); "
                "drop the opsel argument"
            ) from None
        raise BuiltinArgumentError(f"{call}: {err}") from None


def _literal_zero(value) -> bool:
    """A scale operand written as the constant 0 (a Python int, not a per-lane value): LLVM
    and MLIR spell the unscaled v_mfma_f32_*_f8f6f4 as the scaled builtin with both scales
    the constant 0 (iree-org/iree#20616, ROCm/rocMLIR#2246; CK's unscaled f8f6f4 warp GEMM
    passes 0), so such a call computes without scales; any other scale value, a zero
    register included, is an E8M0 byte 2**(s - 127)."""
    return type(value) is int and value == 0


def _make(builtin: str, args: tuple[str, ...], targets: list[str], no_opsel: bool,
          optional: int = 0):
    required = len(args) - optional  # trailing optional immediates default to 0 (gfx1250 clamp)
    params = [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                **({} if n < required else {"default": False}))
              for n, a in enumerate(args)]
    signature = inspect.Signature(params)

    def builtin_fn(*call_args, **call_kwargs):
        bound = _bind(signature, builtin, no_opsel, call_args, call_kwargs)
        bound = {SIGN_ARGS.get(k, k): v for k, v in bound.items()}  # a_sign is sgn_a
        arch = current_arch()
        instr = instruction(builtin, arch)
        c = bound["c"]
        a, b, c_regs = (_registers(bound.pop(x), instr.wave) for x in "abc")
        if instr.mx and all(_literal_zero(bound[s]) for s in ("scale_a", "scale_b")):
            bound["scale_a"] = bound["scale_b"] = None  # LLVM's unscaled f8f6f4 MFMA
        for name in ("index", "scale_a", "scale_b"):  # per-lane index / E8M0 scale words
            if bound.get(name) is not None:
                bound[name] = _registers(bound[name], instr.wave)
        return _like(c, execute(instr, a, b, c_regs, waves=_waves(), hip_types=True,
                                model=numerics_model(arch), **bound))

    builtin_fn.__name__ = builtin_fn.__qualname__ = builtin
    builtin_fn.__signature__ = signature
    builtin_fn.__doc__ = (f"__builtin_amdgcn_{builtin}({', '.join(args)}): emulated on "
                          f"{', '.join(targets)}.")
    return builtin_fn


def _register() -> list[str]:
    names: dict[str, Instruction] = {}
    for arch in ARCH_NAMES:
        for name, instr in get_arch(arch).instructions.items():
            names.setdefault(name, instr)
    for name, instr in names.items():
        # a gfx12 builtin whose gfx11 form takes OPSEL (16-bit results) has none itself
        gfx11 = names.get(name.removesuffix("_gfx12")) if name.endswith("_gfx12") else None
        no_opsel = gfx11 is not None and "opsel" in gfx11.args
        globals()[name] = _make(name, instr.args, _targets(name), no_opsel, instr.optional)
    return sorted(names)


BUILTINS: list[str] = _register()


def global_load_tr_b128_v8i16(ptr: Pointer) -> Lanes:
    """gfx12 transposing load (AMD's "Accelerating Generative AI on AMD Radeon GPUs"): each
    lane loads 8 x 16-bit from its own address,
    then every group of 8 lanes transposes its 8x8 block: out[8q+i][e] = in[8q+e][i]."""
    arch = current_arch()
    if not arch.transpose_load:
        raise UnsupportedInstructionError(
            f"__builtin_amdgcn_global_load_tr_b128_v8i16 is not available on {arch.name}; "
            f"it exists on {', '.join(targets_with('transpose_load'))}"
        )
    rows = batch_data(ptr.cast(np.int16).load(8))  # (lanes, 8)
    lanes = rows.shape[0]
    return as_lanes(rows.reshape(lanes // 8, 8, 8).transpose(0, 2, 1).reshape(lanes, 8), -2)


__all__ = [*BUILTINS, *CROSS_LANE_BUILTINS, "CROSS_LANE_BUILTINS", *MX_CONVERT_BUILTINS,
           "MX_CONVERT_BUILTINS", "global_load_tr_b128_v8i16",
           "instruction", "UnsupportedInstructionError"]
