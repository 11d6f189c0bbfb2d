"""`mma_sync` on the emulated matrix cores: instruction selection and chaining (§3.1).

A wave-tile fragment (FragM/N multiples of 16) is computed as interleaved 16x16 MMA blocks;
along K the largest supported instruction K <= BlockK is chained (smaller fragments are
zero-padded up to the smallest instruction), and `arch/chain.py` runs that K-chain under
the numerics model of the target, for the whole tile of every wave at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial

from .. import types as T
from ..arch import ARCH_NAMES, Arch, get_arch
from ..arch.chain import run_chain
from ..arch.instructions import Instruction
from ..arch.models import numerics_model
from ..arch.numerics import accumulator_values, decode
from ..runtime import current_arch
from .errors import FragmentError
from .fragment import check_arch, check_filled, check_whole_waves, fragment
from .tags import accumulator, matrix_a, matrix_b


@dataclass(frozen=True, eq=False)
class MmaPlan:
    """What one mma_sync does for a (arch, A, B, C/D) fragment-class combination."""

    instruction: Instruction
    clamp: bool
    round_to_acc: bool  # gfx9 16-bit accumulators: f32 MFMA result rounded after each one


def _instr_types(arch: Arch, ta, tb, tc):
    """Instruction operand types (and signedness) that implement fragment types ta/tb -> tc."""
    signed = ta is not T.uint8
    a = T.int8 if ta is T.uint8 else ta
    b = T.int8 if tb is T.uint8 else tb
    c = tc
    if arch.acc16_in_f32 and T.bits(tc) == 16:
        c = T.float32  # MFMA accumulates in 32 bits only (§3.4)
    return a, b, c, signed


def _candidates(arch: Arch, ta, tb, tc, unsigned: str) -> list[Instruction]:
    """The arch's dense 16x16 single-block instructions for fragment types ta/tb -> tc, by
    K (rocWMMA has no sparse fragments)."""
    if (ta is T.uint8) != (tb is T.uint8):
        return []
    a, b, c, signed = _instr_types(arch, ta, tb, tc)
    return sorted(
        (i for i in arch.instructions.values()
         if i.m == i.n == 16 and i.blocks == 1 and i.wave == arch.wave_size and not i.sparse
         and (i.a_type, i.b_type, i.c_type) == (a, b, c) and i.d_type is None
         and (signed or (i.sign_flags and getattr(arch, unsigned)))),
        key=lambda i: i.k,
    )


def select_instruction(arch: Arch, ta, tb, tc, block_k: int,
                       unsigned: str = "rocwmma_unsigned_i8") -> Instruction:
    """Largest 16x16 instruction K <= BlockK for these types; else the smallest (padded).

    uint8 inputs run on an iu8 instruction's sign flags where the `Arch` column named by
    `unsigned` says so: rocWMMA's `rocwmma_unsigned_i8` (gfx12 only; gfx11's iu8 has the
    same flags, which the wmma facade uses: `wmma_unsigned_i8`).
    """
    found = _candidates(arch, ta, tb, tc, unsigned)
    if not found:
        names = "/".join(T.short_name(t) for t in (ta, tb, tc))
        others = [n for n in ARCH_NAMES
                  if _candidates(get_arch(n), ta, tb, tc, unsigned)]
        where = f"; it runs on {', '.join(others)}" if others else "; no target has it"
        raise FragmentError(f"mma_sync: {names} (A/B/accumulator) is not supported on "
                            f"{arch.name}{where}")
    fitting = [i for i in found if i.k <= block_k]
    return fitting[-1] if fitting else found[0]


@cache
def plan(arch: Arch, fa: type[fragment], fb: type[fragment], fc: type[fragment],
         fd: type[fragment], unsigned: str = "rocwmma_unsigned_i8") -> MmaPlan:
    """Validate a mma_sync(d, a, b, c) combination (§1.3) and plan it."""
    roles = ((fa, matrix_a, "a"), (fb, matrix_b, "b"), (fc, accumulator, "c"),
             (fd, accumulator, "d"))
    for cls, matrix, name in roles:
        if cls.matrix is not matrix:
            raise FragmentError(f"mma_sync: {name} must be a {matrix.__name__} fragment; "
                                f"got {cls.__name__}")
        if cls.scheduler.cooperative:
            raise FragmentError(f"mma_sync does not support cooperative fragments ({name}: "
                                f"{cls.__name__})")
    dims = {(c.frag_m, c.frag_n, c.frag_k) for c, _, _ in roles}
    if len(dims) != 1:
        raise FragmentError(f"mma_sync: fragments must share FragM/N/K; got {sorted(dims)}")
    if T.bits(fa.data_type) != T.bits(fb.data_type):
        raise FragmentError("mma_sync: A and B data types must have the same size")
    if fc.data_type is not fd.data_type:
        raise FragmentError("mma_sync: C and D must have the same data type")
    geom = fa.traits(arch).geometry
    if geom.block_m % 16 or geom.block_n % 16:
        raise FragmentError(f"mma_sync: BlockM x BlockN = {geom.block_m}x{geom.block_n} is not a "
                            "multiple of the 16x16 MMA block")
    if geom.block_k & (geom.block_k - 1):
        raise FragmentError(f"mma_sync: the padded FragK ({geom.block_k}) must be a power of two")
    instr = select_instruction(arch, fa.data_type, fb.data_type, fc.data_type, geom.block_k,
                               unsigned)
    return MmaPlan(
        instruction=instr,
        clamp=arch.int8_clamp and fa.data_type is T.int8,
        round_to_acc=instr.c_type is not fc.data_type,
    )


def mma(d: fragment, a: fragment, b: fragment, c: fragment, *, clamp: bool | None = None,
        unsigned: str = "rocwmma_unsigned_i8") -> None:
    """D = A*B + C, instruction by instruction, as the target arch computes it under the
    numerics model that applies (`numerics_model`), for every wave of the batch at once.

    `clamp` overrides rocWMMA's int32 saturation choice (CUDA's satf); `unsigned`: see
    `select_instruction`.
    """
    arch = current_arch()
    for frag in (a, b, c, d):
        check_arch(frag, arch, "mma_sync")
    check_whole_waves("mma_sync")
    for frag, role in ((a, "a"), (b, "b"), (c, "c")):
        check_filled(frag, role, "mma_sync")
    p = plan(arch, type(a), type(b), type(c), type(d), unsigned)
    clamp = p.clamp if clamp is None else clamp
    a_mat = a.values(partial(decode, t=a.data_type))
    b_mat = b.values(partial(decode, t=b.data_type))
    frag_type = c.data_type
    acc = c.values(partial(accumulator_values, t=frag_type))
    d.set_values(*run_chain(numerics_model(arch), p.instruction, a_mat, b_mat, acc, frag_type,
                            round_to_acc=p.round_to_acc, wave=arch.wave_size, clamp=clamp,
                            known=c.collapse(), shared=(a.shared(), b.shared())))
