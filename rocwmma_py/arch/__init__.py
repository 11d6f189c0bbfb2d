"""Architectures as data: one `Arch` row per GPU target, each with its instruction table.

Every architecture fact the emulator branches on is a column of the `Arch` row (its
capabilities), so a new target is one row of `_ROWS` and the code reads the columns.
A row names its family; the family's defaults (`_FAMILY`) fill every column the row does
not set itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .. import types as T
from ..errors import ArchError
from .aliases import normalize, target_of, unknown_target

LDS_BYTES = 64 * 1024
GFX950_LDS_BYTES = 160 * 1024  # CDNA4 raised LDS per CU to 160 KiB
# GFX12.5: LLVM AMDGPU.td gives gfx1250 FeatureAddressableLocalMemorySize327680
GFX1250_LDS_BYTES = 320 * 1024

# f16/bf16 packed atomic adds that return the old value, as (type name, space) pairs
# (`Arch.half_atomic_add`; LLVM AMDGPU features atomic-buffer-global-pk-add-f16-insts,
# atomic-global-pk-add-bf16-inst, atomic-ds-pk-add-16-insts).
_HALF_ADD_ALL = (("float16", "global"), ("float16", "LDS"), ("bfloat16", "global"),
                 ("bfloat16", "LDS"))


@dataclass(frozen=True, eq=False)
class Arch:
    """One GPU target: its family, wave size, LDS size, the matrix instructions it has and
    the capabilities the emulator branches on (one column each)."""

    name: str
    family: str  # "gfx9" (CDNA, MFMA), "gfx11" (RDNA3, WMMA), "gfx12" (RDNA4, WMMA),
    # "gfx1250" (GFX12.5 WMMA: K = 32..128, wave32 only)
    wave_size: int
    arch_id: int
    lds_bytes: int
    # the validated bit-level model of its matrix cores ("cdna1", ...; `arch/models.py`), None
    # where no public one exists: those targets compute with the exact model
    silicon_model: str | None
    # MFMA generation of a gfx9 target (1 gfx908, 2 gfx90a, 3 gfx942, 4 gfx950), which picks
    # its rows of the MFMA table (`arch/instructions.py`); 0 on WMMA targets
    mfma_generation: int
    # fragment data types beyond rocWMMA's common ones (f16, bf16, f32, i8, u8, i32, u32)
    fragment_types: tuple[type, ...]
    # 16-bit accumulators are computed by an f32-accumulating instruction and rounded after
    # each one (MFMA has no 16-bit accumulation, §3.4)
    acc16_in_f32: bool
    # rocWMMA's mma_sync saturates int8 x int8 -> int32 (the WMMA clamp bit)
    int8_clamp: bool
    # rocWMMA runs uint8 fragments on the iu8 instruction's sign flags
    rocwmma_unsigned_i8: bool
    # the CUDA wmma facade runs unsigned char on the iu8 instruction's sign flags
    wmma_unsigned_i8: bool
    # native 16x16 accumulator layout (`rocwmma/fragment_layout.py: NATIVE_ACC` key) ...
    acc_layout: str
    # ... and the one of 64-bit accumulators
    acc_layout_f64: str
    # (type name, "global"/"LDS") pairs whose packed f16/bf16 atomic add returns the old value
    half_atomic_add: tuple[tuple[str, str], ...]
    # v_permlane16_b32 / v_permlanex16_b32 (GFX10+)
    permlane16: bool
    # v_permlane16_swap / v_permlane32_swap (gfx950)
    permlane_swap: bool
    # global_load_tr_b128 transposing loads (gfx12)
    transpose_load: bool
    # DPP wave_shl/rol/shr/ror:1 and row_bcast:15/31 (gfx9 only)
    dpp_wave_shifts: bool
    # DPP row_newbcast (gfx90a+)
    dpp_row_newbcast: bool
    # DPP row_share / row_xmask (GFX10+)
    dpp_row_share: bool
    # the unit whose FLOPs/cycle the inspector reports ("CU" on gfx9, "WGP" on RDNA)
    compute_unit: str
    # v_wmma_f64_16x16x4_f64 (gfx1251: LLVM gfx1251-gemm-insts)
    wmma_f64: bool = False
    # v_permlane_bcast/up/down/xor_b32 in lane groups of a given width (gfx1250, gfx1251:
    # llvm/test/CodeGen/AMDGPU/llvm.amdgcn.permlane.gfx1250.ll @ 14c01d5)
    permlane_groups: bool = False

    @cached_property
    def instructions(self) -> dict:
        """Instruction table of this target: builtin name -> `Instruction`."""
        from .instructions import instructions_for

        return instructions_for(self)

    def __str__(self) -> str:
        return self.name


# Family defaults: every column a row of that family does not set itself.
_FAMILY: dict[str, dict] = {
    "gfx9": dict(
        wave_size=64, fragment_types=(), acc16_in_f32=True, int8_clamp=False,
        rocwmma_unsigned_i8=False, wmma_unsigned_i8=False, acc_layout="mfma",
        acc_layout_f64="mfma-f64", half_atomic_add=(), permlane16=False, permlane_swap=False,
        transpose_load=False, dpp_wave_shifts=True, dpp_row_newbcast=True, dpp_row_share=False,
        compute_unit="CU",
    ),
    "gfx11": dict(
        wave_size=32, mfma_generation=0, fragment_types=(), acc16_in_f32=False, int8_clamp=True,
        rocwmma_unsigned_i8=False, wmma_unsigned_i8=True, acc_layout="wmma11",
        acc_layout_f64="wmma11", half_atomic_add=(), permlane16=True, permlane_swap=False,
        transpose_load=False, dpp_wave_shifts=False, dpp_row_newbcast=False,
        dpp_row_share=True, compute_unit="WGP",
    ),
    "gfx12": dict(
        wave_size=32, mfma_generation=0, fragment_types=(T.float8, T.bfloat8),
        acc16_in_f32=False, int8_clamp=True, rocwmma_unsigned_i8=True, wmma_unsigned_i8=True,
        acc_layout="wmma12", acc_layout_f64="wmma12", half_atomic_add=_HALF_ADD_ALL,
        permlane16=True, permlane_swap=False, transpose_load=True, dpp_wave_shifts=False,
        dpp_row_newbcast=False, dpp_row_share=True, compute_unit="WGP",
    ),
    # GFX12.5 (LLVM TargetParser: gfx1250-insts; every WMMA builtin wave32 only): RDNA4's
    # accumulator layout (CK ck_tile WmmaTraitsBase<gfx12_t, ...> serves gfx1250), 16-bit
    # results packed; its own instruction set (`arch/instructions.py: _WMMA1250`).
    "gfx1250": dict(
        wave_size=32, mfma_generation=0, fragment_types=(T.float8, T.bfloat8),
        acc16_in_f32=False, int8_clamp=True, rocwmma_unsigned_i8=True, wmma_unsigned_i8=True,
        acc_layout="wmma12", acc_layout_f64="wmma12", half_atomic_add=_HALF_ADD_ALL,
        permlane16=True, permlane_swap=False, transpose_load=False, dpp_wave_shifts=False,
        dpp_row_newbcast=False, dpp_row_share=True, compute_unit="WGP", permlane_groups=True,
    ),
}

_ROWS: list[tuple[str, str, int, int, str | None, dict]] = [
    # name,  family, arch_id, LDS bytes per workgroup, silicon numerics model, own columns
    ("gfx908", "gfx9", 0x0908, LDS_BYTES, "cdna1",
     dict(mfma_generation=1, dpp_row_newbcast=False)),
    ("gfx90a", "gfx9", 0x090A, LDS_BYTES, "cdna2",
     dict(mfma_generation=2, fragment_types=(T.float64,),
          half_atomic_add=(("float16", "global"),))),
    ("gfx942", "gfx9", 0x0942, LDS_BYTES, "cdna3",
     dict(mfma_generation=3,
          fragment_types=(T.float64, T.xfloat32, T.float8_fnuz, T.bfloat8_fnuz),
          half_atomic_add=_HALF_ADD_ALL)),
    ("gfx950", "gfx9", 0x0950, GFX950_LDS_BYTES, None,
     dict(mfma_generation=4, fragment_types=(T.float64, T.float8, T.bfloat8),
          half_atomic_add=_HALF_ADD_ALL, permlane_swap=True)),
    ("gfx1100", "gfx11", 0x1100, LDS_BYTES, None, {}),
    ("gfx1101", "gfx11", 0x1101, LDS_BYTES, None, {}),
    ("gfx1102", "gfx11", 0x1102, LDS_BYTES, None, {}),
    # RDNA3 APU (Phoenix) and RDNA 3.5 (Strix Point, Strix Halo, Krackan Point, ...): the
    # gfx1100 matrix cores (same WMMA builtins, layouts and numerics)
    ("gfx1103", "gfx11", 0x1103, LDS_BYTES, None, {}),
    ("gfx1150", "gfx11", 0x1150, LDS_BYTES, None, {}),
    ("gfx1151", "gfx11", 0x1151, LDS_BYTES, None, {}),
    ("gfx1152", "gfx11", 0x1152, LDS_BYTES, None, {}),
    ("gfx1153", "gfx11", 0x1153, LDS_BYTES, None, {}),
    ("gfx1200", "gfx12", 0x1200, LDS_BYTES, None, {}),
    ("gfx1201", "gfx12", 0x1201, LDS_BYTES, None, {}),
    # GFX11.7 "RDNA 4m": LLVM TargetParser gives it RDNA4's wmma-128b-insts and
    # swmmac-gfx1200-insts, so the gfx12 WMMA/SWMMAC builtins (same names, wave32 and wave64)
    # with gfx12's layouts (shared/reference/sparse.md §7)
    ("gfx1170", "gfx12", 0x1170, LDS_BYTES, None, {}),
    # GFX12.5 (LLVM TargetParser GK_GFX1250/GK_GFX1251); gfx1251 adds gfx1251-gemm-insts
    # (the f64 WMMA builtin; rocWMMA has no f64 fragments there)
    ("gfx1250", "gfx1250", 0x1250, GFX1250_LDS_BYTES, None, {}),
    ("gfx1251", "gfx1250", 0x1251, GFX1250_LDS_BYTES, None, dict(wmma_f64=True)),
]


def _make(name: str, family: str, arch_id: int, lds: int, model: str | None,
          own: dict) -> Arch:
    return Arch(name=name, family=family, arch_id=arch_id, lds_bytes=lds, silicon_model=model,
                **{**_FAMILY[family], **own})


ARCH_NAMES: tuple[str, ...] = tuple(r[0] for r in _ROWS)
DEFAULT_ARCH = "gfx942"  # the target of launches that name none (MI300)


_ARCHS: dict[str, Arch] = {row[0]: _make(*row) for row in _ROWS}


def get_arch(name: str | Arch) -> Arch:
    """Look up a target by gfx name ("gfx942") or product/generation alias ("MI300X", "RX 7900
    XTX", "CDNA3": `arch/aliases.py`); unknown names raise with the closest and valid names."""
    if isinstance(name, Arch):
        return name
    target = _ARCHS.get(normalize(name)) or _ARCHS.get(target_of(name) or "")
    if target is None:
        raise ArchError(unknown_target(name, ARCH_NAMES))
    return target


def targets_with(column: str) -> tuple[str, ...]:
    """Names of the targets whose capability `column` is true (or non-empty), in table order."""
    return tuple(n for n, a in _ARCHS.items() if getattr(a, column))
