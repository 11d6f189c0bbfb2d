"""rocWMMA's cross-lane layer (internal/cross_lane_ops.hpp, dpp*.hpp, swizzle*.hpp, permute*.hpp,
blend*.hpp): the op classes and their front-end drivers.

Template parameters become subscripts, as for `fragment`: `DppImpl.Ops.BCast16[2]` is the op
class, `Dpp.BCast16[2, 0x5, 0xF, True]` the driver with RowMask/BankMask/BoundCtrl, and
`Dpp.BCast16[2].exec(src, prev)` runs it. Each op carries rocWMMA's traits (`opId()`,
`opImpl()`, `groupSize()`, `elementIdx()`, `opDir()`, `opDist()`, `select0()` ...,
`opCtrl()`). As in rocWMMA, a driver reinterprets its input as 32-bit words per lane and
applies the op to every word; inputs may be per-lane values (`Lanes`), register vectors,
lanes-last arrays such as `frag.x`, or fragments (a new fragment of the same type comes back).
The backends are the amdgcn builtins: Dpp -> update_dpp, Swizzle -> ds_swizzle, Permute ->
ds_bpermute / ds_permute, Blend -> v_perm_b32 byte selects and per-thread selects.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..errors import CrossLaneError
from ..runtime import lane_ops
from ..runtime.intrinsics import threadIdx
from ..runtime.lanes import batch_data
from ..runtime.state import current_context_or_none
from .fragment import fragment

# --- CrossLaneOps::Properties -----------------------------------------------------------------

OP_ID_ROTATE, OP_ID_SHIFT, OP_ID_SHUFFLE, OP_ID_REVERSE, OP_ID_SWAP, OP_ID_BCAST = range(6)
OP_ID_FFT, OP_ID_BLOCK_BCAST, OP_ID_WFALL_BCAST, OP_ID_MOVE, OP_ID_GATHER = range(6, 11)
OP_ID_SCATTER = 0x0B
OP_ID_PERM_BYTE, OP_ID_BLEND = 0x40, 0x41
OP_GROUP_SIZE_1, OP_GROUP_SIZE_2, OP_GROUP_SIZE_4, OP_GROUP_SIZE_8 = 1, 2, 4, 8
OP_GROUP_SIZE_16, OP_GROUP_SIZE_32, OP_GROUP_SIZE_64 = 16, 32, 64
OP_GROUP_SIZE_WARP = "warp"  # Constants::AMDGCN_WAVE_SIZE: the target's wave size at use
OP_DIR_L, OP_DIR_R = 0, 1
OP_IMPL_DPP, OP_IMPL_SWIZZLE, OP_IMPL_PERMUTE = 0x30, 0x31, 0x32
OP_IMPL_BPERMUTE, OP_IMPL_VPERM, OP_IMPL_VBLEND = 0x33, 0x34, 0x35

Properties = SimpleNamespace(**{k: v for k, v in dict(globals()).items() if k.startswith("OP_")})
CrossLaneOps = SimpleNamespace(Properties=Properties, **vars(Properties))


def _wave() -> int:
    return lane_ops.wave_shape()[1]


class OpBase:
    """CrossLaneOps::OpBase: OP_ID, OP_IMPL, GROUP_SIZE (OP_GROUP_SIZE_WARP resolves to the
    running target's wave size)."""

    OP_ID: int
    OP_IMPL: int
    GROUP_SIZE: int | str

    @classmethod
    def opId(cls) -> int:  # noqa: N802 - rocWMMA spelling
        return cls.OP_ID

    @classmethod
    def opImpl(cls) -> int:  # noqa: N802
        return cls.OP_IMPL

    @classmethod
    def groupSize(cls) -> int:  # noqa: N802
        return _wave() if cls.GROUP_SIZE == OP_GROUP_SIZE_WARP else int(cls.GROUP_SIZE)


def _template(name: str, params: tuple[str, ...], make):
    """A class template: `T[p0, p1, ...]` -> the cached class `make(*params)` builds."""

    @functools.cache
    def build(args: tuple) -> type:
        cls = make(*args)
        cls.__name__ = cls.__qualname__ = f"{name}[{', '.join(map(repr, args))}]"
        return cls

    class Template:
        def __getitem__(self, args) -> type:
            args = args if isinstance(args, tuple) else (args,)
            if len(args) != len(params):
                raise CrossLaneError(f"{name}[{', '.join(params)}] takes {len(params)} "
                                     f"parameter(s), got {len(args)}")
            return build(tuple(operator.index(a) if not isinstance(a, type) else a
                               for a in args))

        def __repr__(self) -> str:
            return f"<rocWMMA template {name}[{', '.join(params)}]>"

    return Template()


def _op(base: type, name: str, **traits) -> type:
    return type(name, (base,), traits)


# --- per-lane words: rocWMMA's "vectorize to B32" -------------------------------------------

def _words(value: object) -> tuple[np.ndarray, Callable[[np.ndarray], Any]]:
    """`value` as (words, lanes) uint32 (each lane's bytes as 32-bit words) and a function
    giving a result back in the input's kind."""
    if isinstance(value, fragment):
        words, back = _words(batch_data(value))
        frag = value

        def rebuild_fragment(out: np.ndarray):
            new = type(frag)(frag)
            new.x = back(out)
            return new

        return words, rebuild_fragment
    v = lane_ops.view(value, "cross-lane op input")
    data = v.data
    lanes = data.shape[-2] * data.shape[-1]
    per_lane = np.ascontiguousarray(np.moveaxis(data.reshape(-1, lanes), 0, -1))  # (L, k)
    nbytes = per_lane.shape[1] * per_lane.dtype.itemsize
    if nbytes % 4:
        raise CrossLaneError(
            f"rocWMMA cross-lane ops move 32-bit words; {per_lane.shape[1]} x "
            f"{per_lane.dtype} per lane is {nbytes} bytes, not a multiple of 4"
        )
    dtype, shape = per_lane.dtype, data.shape

    def rebuild(out: np.ndarray):
        elems = np.ascontiguousarray(out.T).view(dtype)  # (L, k)
        return v.rebuild(np.moveaxis(elems, -1, 0).reshape(shape))

    return np.ascontiguousarray(per_lane.view(np.uint32).T), rebuild


def _prev_words(prev: object, like: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Driver's `prev`: same kind as src, or one value (scalar or per lane) paired with the
    words by index modulo its word count (rocWMMA's "scalar as prev")."""
    if not isinstance(prev, fragment) and np.ndim(prev) == 0:  # type: ignore[arg-type]
        prev = np.asarray(batch_data(prev), dtype=dtype)
    words, _ = _words(prev)
    reps = -(-like.shape[0] // words.shape[0])
    return np.tile(words, (reps, 1))[: like.shape[0]]


# --- Dpp ----------------------------------------------------------------------------------------

class _DppOp(OpBase):
    OP_IMPL = OP_IMPL_DPP
    CTRL: int

    @classmethod
    def opCtrl(cls) -> int:  # noqa: N802
        return cls.CTRL

    @classmethod
    def exec_words(cls, src: np.ndarray, prev: np.ndarray, row_mask: int, bank_mask: int,
                   bound_ctrl: bool) -> np.ndarray:
        return batch_data(lane_ops.update_dpp(prev, src, cls.opCtrl(), row_mask, bank_mask,
                                              bound_ctrl))


def _quad(s0: int, s1: int, s2: int, s3: int) -> int:
    return (s0 & 3) | (s1 & 3) << 2 | (s2 & 3) << 4 | (s3 & 3) << 6


def _rotate_selects(direction: int, dist: int, size: int) -> tuple[int, ...]:
    d = dist if direction == OP_DIR_L else size - dist
    if size == 4:
        return tuple((i + d) % 4 for i in range(4))
    s0, s1 = d % 2, (1 + d) % 2
    return s0, s1, 2 + s0, 2 + s1


def _trait(name: str) -> classmethod:
    """A trait's accessor (rocWMMA's `opDir()`, `elementIdx()`, ...): the class's `name`."""
    return classmethod(lambda c: getattr(c, name))


def _dpp(name, op_id, group, ctrl, **traits):
    return _op(_DppOp, name, OP_ID=op_id, GROUP_SIZE=group, CTRL=ctrl, **traits)


def _dpp_rotate(direction, dist, group, ctrl):
    return _dpp("Rotate", OP_ID_ROTATE, group, ctrl, OP_DIR=direction, OP_DIST=dist,
                opDir=_trait("OP_DIR"), opDist=_trait("OP_DIST"))


def _dpp_shift(direction, dist, group, ctrl):
    return _dpp("Shift", OP_ID_SHIFT, group, ctrl, OP_DIR=direction, OP_DIST=dist,
                opDir=_trait("OP_DIR"), opDist=_trait("OP_DIST"))


def _bcast(name, impl_base, group, ctrl_or_traits, element):
    return _op(impl_base, name, OP_ID=OP_ID_BCAST, GROUP_SIZE=group, ELEMENT_IDX=element,
               elementIdx=_trait("ELEMENT_IDX"), **ctrl_or_traits)


def _shuffle(base, group, ctrl, selects):
    traits = {f"SELECT_{i}": s for i, s in enumerate(selects)}
    traits.update({f"select{i}": classmethod(lambda c, i=i: getattr(c, f"SELECT_{i}"))
                   for i in range(len(selects))})
    return _op(base, "Shuffle", OP_ID=OP_ID_SHUFFLE, GROUP_SIZE=group, **ctrl, **traits)


DppImpl = SimpleNamespace(Ops=SimpleNamespace(
    BCast16=_template("DppImpl::Ops::BCast16", ("ElementIdx",),
                      lambda e: _bcast("BCast", _DppOp, 16, {"CTRL": 0x150 + e}, e)),
    BCast4=_template("DppImpl::Ops::BCast4", ("ElementIdx",),
                     lambda e: _bcast("BCast", _DppOp, 4, {"CTRL": _quad(e, e, e, e)}, e)),
    BCast2=_template("DppImpl::Ops::BCast2", ("ElementIdx",),
                     lambda e: _bcast("BCast", _DppOp, 2,
                                      {"CTRL": _quad(e, e, e + 2, e + 2)}, e)),
    BCast16x15=_dpp("WFallBCast", OP_ID_WFALL_BCAST, 16, 0x142),
    BCast32x31=_dpp("WFallBCast", OP_ID_WFALL_BCAST, 32, 0x143),
    MaskMove=_dpp("Move", OP_ID_MOVE, OP_GROUP_SIZE_WARP, 0xE4),
    Reverse16=_dpp("Reverse", OP_ID_REVERSE, 16, 0x140),
    Reverse8=_dpp("Reverse", OP_ID_REVERSE, 8, 0x141),
    Reverse4=_dpp("Reverse", OP_ID_REVERSE, 4, _quad(3, 2, 1, 0)),
    Reverse2=_dpp("Reverse", OP_ID_REVERSE, 2, _quad(1, 0, 3, 2)),
    RotateWaveR1=_dpp_rotate(OP_DIR_R, 1, OP_GROUP_SIZE_WARP, 0x13C),
    RotateWaveL1=_dpp_rotate(OP_DIR_L, 1, OP_GROUP_SIZE_WARP, 0x134),
    RotateR16=_template("DppImpl::Ops::RotateR16", ("RotateDistance",),
                        lambda d: _dpp_rotate(OP_DIR_R, d, 16, 0x120 | (d & 0xF))),
    RotateL4=_template("DppImpl::Ops::RotateL4", ("RotateDistance",),
                       lambda d: _dpp_rotate(OP_DIR_L, d, 4,
                                             _quad(*_rotate_selects(OP_DIR_L, d, 4)))),
    RotateR4=_template("DppImpl::Ops::RotateR4", ("RotateDistance",),
                       lambda d: _dpp_rotate(OP_DIR_R, d, 4,
                                             _quad(*_rotate_selects(OP_DIR_R, d, 4)))),
    RotateL2=_template("DppImpl::Ops::RotateL2", ("RotateDistance",),
                       lambda d: _dpp_rotate(OP_DIR_L, d, 2,
                                             _quad(*_rotate_selects(OP_DIR_L, d, 2)))),
    RotateR2=_template("DppImpl::Ops::RotateR2", ("RotateDistance",),
                       lambda d: _dpp_rotate(OP_DIR_R, d, 2,
                                             _quad(*_rotate_selects(OP_DIR_R, d, 2)))),
    ShiftWaveL1=_dpp_shift(OP_DIR_L, 1, OP_GROUP_SIZE_WARP, 0x130),
    ShiftWaveR1=_dpp_shift(OP_DIR_R, 1, OP_GROUP_SIZE_WARP, 0x138),
    ShiftL16=_template("DppImpl::Ops::ShiftL16", ("ShiftDistance",),
                       lambda d: _dpp_shift(OP_DIR_L, d, 16, 0x100 | (d & 0xF))),
    ShiftR16=_template("DppImpl::Ops::ShiftR16", ("ShiftDistance",),
                       lambda d: _dpp_shift(OP_DIR_R, d, 16, 0x110 | (d & 0xF))),
    Shuffle4=_template("DppImpl::Ops::Shuffle4", ("Select0", "Select1", "Select2", "Select3"),
                       lambda a, b, c, d: _shuffle(_DppOp, 4, {"CTRL": _quad(a, b, c, d)},
                                                   (a, b, c, d))),
    Shuffle2=_template("DppImpl::Ops::Shuffle2", ("Select0", "Select1"),
                       lambda a, b: _shuffle(_DppOp, 2, {"CTRL": _quad(a, b, a + 2, b + 2)},
                                             (a, b))),
    Swap2=_dpp("Swap", OP_ID_SWAP, 2, _quad(2, 3, 0, 1)),
    Zip4=_dpp("Zip", OP_ID_BLEND, 4, 0xE4),
    Zip8=_dpp("Zip", OP_ID_BLEND, 8, 0xE4),
    Zip16=_dpp("Zip", OP_ID_BLEND, 16, 0xE4),
    Zip32=_dpp("Zip", OP_ID_BLEND, 32, 0xE4),
))


class _DppDriver:
    """Dpp::Driver<DppOp, WriteRowMask, WriteBankMask, BoundCtrl>."""

    OP: Any  # the op class
    ROW_MASK: int
    BANK_MASK: int
    BOUND_CTRL: bool

    @classmethod
    def exec(cls, src0: object, src1: object = None):
        """Dpp result of src0, unwritten lanes/rows/banks taking `src1` ("prev": the same kind
        as src0, or a scalar / per-lane value; src0 itself when omitted)."""
        words, back = _words(src0)
        prev = words if src1 is None else _prev_words(src1, words, _dtype_of(src0))
        return back(cls.OP.exec_words(words, prev, cls.ROW_MASK, cls.BANK_MASK, cls.BOUND_CTRL))


def _dtype_of(value: object) -> np.dtype:
    if isinstance(value, fragment):
        return value.x.dtype
    return np.asarray(batch_data(value)).dtype


def _dpp_driver(op: type, row_mask: int = 0xF, bank_mask: int = 0xF,
                bound_ctrl: int = False) -> type:
    if not issubclass(op, _DppOp):
        raise CrossLaneError(f"Dpp::Driver needs a Dpp op, got {op.__name__}")
    return type(f"Dpp::Driver[{op.__name__}]", (_DppDriver,),
                {"OP": op, "ROW_MASK": row_mask, "BANK_MASK": bank_mask,
                 "BOUND_CTRL": bool(bound_ctrl)})


def _masked(op_template, *names):
    """Dpp::X<Params..., RowMask=0xF, BankMask=0xF, BoundCtrl=false>."""
    n = len(names)

    class Front:
        def __getitem__(self, args):
            args = args if isinstance(args, tuple) else (args,)
            op = op_template[args[:n]] if n else op_template
            return _driver_cached(op, *args[n:])

    return Front() if n else _masked_plain(op_template)


def _masked_plain(op: type):
    class Front:
        def __getitem__(self, args):
            return _driver_cached(op, *(args if isinstance(args, tuple) else (args,)))

        def exec(self, src0, src1=None):
            return _driver_cached(op).exec(src0, src1)

    return Front()


@functools.cache
def _driver_cached(op: type, *masks) -> type:
    return _dpp_driver(op, *masks)


_D = DppImpl.Ops
Dpp = SimpleNamespace(
    BCast16=_masked(_D.BCast16, "ElementIdx"),
    BCast4=_masked(_D.BCast4, "ElementIdx"),
    BCast2=_masked(_D.BCast2, "ElementIdx"),
    BCast16x15=_masked(_D.BCast16x15),
    BCast32x31=_masked(_D.BCast32x31),
    MaskMove=_masked(_D.MaskMove),
    Reverse16=_masked(_D.Reverse16),
    Reverse8=_masked(_D.Reverse8),
    Reverse4=_masked(_D.Reverse4),
    Reverse2=_masked(_D.Reverse2),
    RotateWaveR1=_masked(_D.RotateWaveR1),
    RotateWaveL1=_masked(_D.RotateWaveL1),
    RotateR16=_masked(_D.RotateR16, "RotateDistance"),
    RotateL4=_masked(_D.RotateL4, "RotateDistance"),
    RotateR4=_masked(_D.RotateR4, "RotateDistance"),
    RotateL2=_masked(_D.RotateL2, "RotateDistance"),
    RotateR2=_masked(_D.RotateR2, "RotateDistance"),
    ShiftWaveR1=_masked(_D.ShiftWaveR1),
    ShiftWaveL1=_masked(_D.ShiftWaveL1),
    ShiftR16=_masked(_D.ShiftR16, "ShiftDistance"),
    ShiftL16=_masked(_D.ShiftL16, "ShiftDistance"),
    Shuffle4=_masked(_D.Shuffle4, "Select0", "Select1", "Select2", "Select3"),
    Shuffle2=_masked(_D.Shuffle2, "Select0", "Select1"),
    Swap2=_masked(_D.Swap2),
    Zip4=_driver_cached(_D.Zip4, 0xF, 0x5, False),
    Zip8=_driver_cached(_D.Zip8, 0xF, 0x3, False),
    Zip16=_driver_cached(_D.Zip16, 0x5, 0xF, False),
    Zip32=_driver_cached(_D.Zip32, 0x3, 0xF, False),
)
Dpp.Nop = Dpp.MaskMove


class _DriverTemplate:
    """`X::Driver[Op]` (Dpp: `Dpp.Driver[Op, RowMask, BankMask, BoundCtrl]`)."""

    def __init__(self, make) -> None:
        self._make = make

    def __getitem__(self, args):
        return self._make(*(args if isinstance(args, tuple) else (args,)))


Dpp.Driver = _DriverTemplate(_driver_cached)

# --- Swizzle ------------------------------------------------------------------------------------


class _SwizzleOp(OpBase):
    OP_IMPL = OP_IMPL_SWIZZLE
    CTRL: int

    @classmethod
    def opCtrl(cls) -> int:  # noqa: N802
        return cls.CTRL

    @classmethod
    def exec_words(cls, src: np.ndarray) -> np.ndarray:
        return batch_data(lane_ops.ds_swizzle(src, cls.opCtrl()))


def _manual(xor_mask: int, or_mask: int, and_mask: int) -> int:
    return (xor_mask & 0x1F) << 10 | (or_mask & 0x1F) << 5 | (and_mask & 0x1F)


def _swz(name, op_id, group, ctrl, **traits):
    return _op(_SwizzleOp, name, OP_ID=op_id, GROUP_SIZE=group, CTRL=ctrl, **traits)


def _swz_rotate(direction, dist, group):
    ctrl = 0xC000 | (direction & 1) << 10 | (dist & 0x1F) << 5 | ((32 - group) & 0x1F)
    return _swz("Rotate", OP_ID_ROTATE, group, ctrl, OP_DIR=direction, OP_DIST=dist,
                opDir=_trait("OP_DIR"), opDist=_trait("OP_DIST"))


def _swz_family(prefix, make):
    return {f"{prefix}{g}": make(g) for g in (32, 16, 8, 4, 2)}


SwizzleImpl = SimpleNamespace(Ops=SimpleNamespace(
    **_swz_family("BCast", lambda g: _template(
        f"SwizzleImpl::Ops::BCast{g}", ("ElementIdx",),
        lambda e, g=g: _bcast("BCast", _SwizzleOp, g, {"CTRL": _manual(0, e, 0x20 - g)}, e))),
    **_swz_family("Reverse", lambda g: _swz("Reverse", OP_ID_REVERSE, g,
                                             _manual(g - 1, 0, 0x1F))),
    **_swz_family("RotateL", lambda g: _template(
        f"SwizzleImpl::Ops::RotateL{g}", ("RotateDistance",),
        lambda d, g=g: _swz_rotate(OP_DIR_L, d, g))),
    **_swz_family("RotateR", lambda g: _template(
        f"SwizzleImpl::Ops::RotateR{g}", ("RotateDistance",),
        lambda d, g=g: _swz_rotate(OP_DIR_R, d, g))),
    **{f"Swap{g}": _swz("Swap", OP_ID_SWAP, g, _manual(g, 0, 0x1F)) for g in (16, 8, 4, 2)},
    Shuffle4=_template("SwizzleImpl::Ops::Shuffle4", ("Select0", "Select1", "Select2",
                                                      "Select3"),
                       lambda a, b, c, d: _shuffle(_SwizzleOp, 4,
                                                   {"CTRL": 0x8000 | _quad(a, b, c, d)},
                                                   (a, b, c, d))),
    Shuffle2=_template("SwizzleImpl::Ops::Shuffle2", ("Select0", "Select1"),
                       lambda a, b: _shuffle(_SwizzleOp, 2,
                                             {"CTRL": 0x8000 | _quad(a, b, a + 2, b + 2)},
                                             (a, b))),
    Fft=_template("SwizzleImpl::Ops::Fft", ("SubGroupSize", "FftCtrl"),
                  lambda g, f: _swz("Fft", OP_ID_FFT, g, 0xE000 | (f & 0x1F), FFT_CTRL=f,
                                    fftCtrl=_trait("FFT_CTRL"))),
))


class _OneSourceDriver:
    """Swizzle::Driver<Op> / Permute::Driver<Op>: exec(src) applies Op to every 32-bit word."""

    OP: Any

    @classmethod
    def exec(cls, src: object):
        words, back = _words(src)
        return back(cls.OP.exec_words(words))


@functools.cache
def _one_source_driver(op: type) -> type:
    return type(f"Driver[{op.__name__}]", (_OneSourceDriver,), {"OP": op})


def _fronts(ops: SimpleNamespace) -> SimpleNamespace:
    """Front-end aliases: a template op becomes a template driver, a plain op a driver."""
    out: dict[str, Any] = {}
    for name, op in vars(ops).items():
        if isinstance(op, type):
            out[name] = _one_source_driver(op)
        else:
            out[name] = _DriverTemplate(lambda *a, op=op: _one_source_driver(op[a]))
    return SimpleNamespace(Driver=_DriverTemplate(_one_source_driver), **out)


Swizzle = _fronts(SwizzleImpl.Ops)

# --- Permute ------------------------------------------------------------------------------------


def _lane_ids() -> np.ndarray:
    """WaveSpace::localLaneId(): each lane's index in its wave, (n, W)."""
    n, w = lane_ops.wave_shape()
    return np.broadcast_to(np.arange(w), (n, w))


class _PermuteOp(OpBase):
    BACKWARD: bool  # ds_bpermute (gather) or ds_permute (scatter)
    threadCtrl: Callable[[np.ndarray], np.ndarray]  # noqa: N815 - byte address per lane id

    @classmethod
    def exec_words(cls, src: np.ndarray) -> np.ndarray:
        addr = (cls.threadCtrl(_lane_ids()) & 0xFFFFFFFF).reshape(-1)
        builtin = lane_ops.ds_bpermute if cls.BACKWARD else lane_ops.ds_permute
        return batch_data(builtin(addr, src))


def _log2(x: int) -> int:
    return x.bit_length() - 1


def _block_bcast(block, size):
    def ctrl(cls, t):
        return (block * size + t % size) << 2
    return _op(_PermuteOp, "BlockBCast", OP_ID=OP_ID_BLOCK_BCAST, GROUP_SIZE=size,
               OP_IMPL=OP_IMPL_BPERMUTE, BACKWARD=True, ELEMENT_IDX=block,
               elementIdx=_trait("ELEMENT_IDX"), threadCtrl=classmethod(ctrl))


def _interleave(op_id, group, vw, shift, backward):
    def ctrl(cls, t):
        g = cls.groupSize()
        mask0 = g - 1
        off0 = ((t << (_log2(g) - _log2(vw))) + shift) & mask0
        off1 = (t >> _log2(vw)) & ((1 << (_log2(g) - _log2(vw))) - 1)
        return (off0 + off1 + (t & ~mask0)) << 2
    name = "Gather" if backward else "Scatter"
    return _op(_PermuteOp, name, OP_ID=op_id, GROUP_SIZE=group, BACKWARD=backward,
               OP_IMPL=OP_IMPL_BPERMUTE if backward else OP_IMPL_PERMUTE, VW=vw, SHIFT=shift,
               vw=_trait("VW"), shift=_trait("SHIFT"),
               threadCtrl=classmethod(ctrl))


def _perm_rotate(direction, dist, group):
    def ctrl(cls, t):
        g = cls.groupSize()
        return (((t + dist) & (g - 1)) + (t & ~(g - 1))) << 2
    backward = direction == OP_DIR_L
    return _op(_PermuteOp, "Rotate", OP_ID=OP_ID_ROTATE, GROUP_SIZE=group, BACKWARD=backward,
               OP_IMPL=OP_IMPL_BPERMUTE if backward else OP_IMPL_PERMUTE, OP_DIR=direction,
               OP_DIST=dist, opDir=_trait("OP_DIR"),
               opDist=_trait("OP_DIST"), threadCtrl=classmethod(ctrl))


_SIZES = {"Wave": OP_GROUP_SIZE_WARP, "32": 32, "16": 16}
PermuteImpl = SimpleNamespace(
    OpsBase=SimpleNamespace(
        RotateL=_template("PermuteImpl::OpsBase::RotateL", ("RotateDist", "SubGroupSize"),
                          lambda d, g: _perm_rotate(OP_DIR_L, d, g)),
        RotateR=_template("PermuteImpl::OpsBase::RotateR", ("RotateDist", "SubGroupSize"),
                          lambda d, g: _perm_rotate(OP_DIR_R, d, g)),
    ),
    Ops=SimpleNamespace(
        **{f"BlockBCast{g}": _template(f"PermuteImpl::Ops::BlockBCast{g}", ("BlockIdx",),
                                       lambda b, g=g: _block_bcast(b, g))
           for g in (32, 16, 8, 4, 2)},
        **{f"Gather{s}": _template(f"PermuteImpl::Ops::Gather{s}", ("VW", "ElementShift"),
                                   lambda vw, sh, g=g: _interleave(OP_ID_GATHER, g, vw, sh, True))
           for s, g in _SIZES.items()},
        **{f"Scatter{s}": _template(f"PermuteImpl::Ops::Scatter{s}", ("VW", "ElementShift"),
                                    lambda vw, sh, g=g: _interleave(OP_ID_SCATTER, g, vw, sh,
                                                                    False))
           for s, g in _SIZES.items()},
        RotateWaveL=_template("PermuteImpl::Ops::RotateWaveL", ("Distance",),
                              lambda d: _perm_rotate(OP_DIR_L, d, OP_GROUP_SIZE_WARP)),
        RotateWaveR=_template("PermuteImpl::Ops::RotateWaveR", ("Distance",),
                              lambda d: _perm_rotate(OP_DIR_R, d, OP_GROUP_SIZE_WARP)),
    ),
)
Permute = _fronts(PermuteImpl.Ops)

# --- Blend --------------------------------------------------------------------------------------


class _PermByteOp(OpBase):
    OP_ID, OP_IMPL, GROUP_SIZE = OP_ID_PERM_BYTE, OP_IMPL_VPERM, OP_GROUP_SIZE_1
    SELECTS: tuple[int, int, int, int]

    @classmethod
    def opCtrl(cls) -> int:  # noqa: N802
        return sum((s & 0xFF) << (8 * i) for i, s in enumerate(cls.SELECTS))

    @classmethod
    def exec_words(cls, src0: np.ndarray, src1: np.ndarray) -> np.ndarray:
        """v_perm_b32(src1, src0, ctrl): byte i = byte SELECTS[i] of {src1:src0} (src0 the low
        word), as rocWMMA calls the builtin with the sources flipped."""
        pool = (src1.astype(np.uint64) << np.uint64(32)) | src0.astype(np.uint64)
        out = np.zeros(src0.shape, np.uint64)
        for i, s in enumerate(cls.SELECTS):
            if not 0 <= s <= 7:
                raise CrossLaneError(f"PermByte selects bytes 0-7, got {s}")
            out |= ((pool >> np.uint64(8 * s)) & np.uint64(0xFF)) << np.uint64(8 * i)
        return out.astype(np.uint32)


def _perm_byte(s0, s1, s2, s3):
    traits = {f"SELECT_{i}": s for i, s in enumerate((s0, s1, s2, s3))}
    traits.update({f"select{i}": classmethod(lambda c, i=i: getattr(c, f"SELECT_{i}"))
                   for i in range(4)})
    return _op(_PermByteOp, "PermByte", SELECTS=(s0, s1, s2, s3), **traits)


def _perm_word(s0, s1):
    return _perm_byte(s0 * 2, s0 * 2 + 1, s1 * 2, s1 * 2 + 1)


class _ZipOp(OpBase):
    OP_ID, OP_IMPL = OP_ID_BLEND, OP_IMPL_VBLEND

    @classmethod
    def exec_words(cls, src0: np.ndarray, src1: np.ndarray) -> np.ndarray:
        """Per thread: src1 where (threadIdx.x >> log2(GroupSize)) is odd, else src0 (outside
        a kernel threadIdx.x is the lane index)."""
        tid = (batch_data(threadIdx.x) if current_context_or_none() is not None
               else _lane_ids().reshape(-1))
        odd = ((tid >> _log2(cls.groupSize())) & 1).astype(bool)
        return np.where(odd, src1, src0)


_PB = _template("BlendImpl::Ops::PermByte", ("Select0", "Select1", "Select2", "Select3"),
                _perm_byte)
_PW = _template("BlendImpl::Ops::PermWord", ("Select0", "Select1"), _perm_word)
BlendImpl = SimpleNamespace(Ops=SimpleNamespace(
    PermByte=_PB, PermWord=_PW,
    **{f"Zip{g}": _op(_ZipOp, "Zip", GROUP_SIZE=g) for g in (1, 2, 4, 8, 16, 32)},
    ZipByte=_PB[0, 5, 2, 7], ZipWord=_PW[0, 3],
    UnpackByteLo=_PB[0, 4, 1, 5], UnpackByteHi=_PB[2, 6, 3, 7],
    UnpackWordLo=_PW[0, 2], UnpackWordHi=_PW[1, 3],
    UnpackByteLoHi=_PB[0, 6, 1, 7], UnpackByte3BCast=_PB[3, 7, 3, 7],
    ExtractByteEven=_PB[0, 2, 4, 6], ExtractByteOdd=_PB[1, 3, 5, 7],
    ExtractWordEven=_PW[0, 2], ExtractWordOdd=_PW[1, 3],
    ExtractByteEvenOdd=_PB[0, 2, 5, 7], ExtractByteOddEven=_PB[1, 3, 4, 6],
    ExtractWordEvenOdd=_PW[0, 3], ExtractWordOddEven=_PW[1, 2],
))


class _BlendDriver:
    """Blend::Driver<Op>: exec(src0, src1) applies Op to every pair of 32-bit words."""

    OP: Any

    @classmethod
    def exec(cls, src0: object, src1: object):
        words0, back = _words(src0)
        words1, _ = _words(src1)
        if words1.shape != words0.shape:
            raise CrossLaneError(f"Blend sources differ in size: {words0.shape[0]} and "
                                 f"{words1.shape[0]} words per lane")
        return back(cls.OP.exec_words(words0, words1))


@functools.cache
def _blend_driver(op: type) -> type:
    return type(f"Blend::Driver[{op.__name__}]", (_BlendDriver,), {"OP": op})


Blend = SimpleNamespace(Driver=_DriverTemplate(_blend_driver), **{
    name: (_blend_driver(op) if isinstance(op, type)
           else _DriverTemplate(lambda *a, op=op: _blend_driver(op[a])))
    for name, op in vars(BlendImpl.Ops).items()})

__all__ = ["Blend", "BlendImpl", "CrossLaneOps", "Dpp", "DppImpl", "OpBase", "Permute",
           "PermuteImpl", "Properties", "Swizzle", "SwizzleImpl"]
