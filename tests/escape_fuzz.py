"""Random kernels that take per-lane and per-wave values out to plain Python and numpy.

The batched engine runs a kernel's Python once for many waves; the values a kernel holds
(lane vectors, pointer loads, `frag.x`, register vectors, builtin and intrinsic results,
packed half2 pairs, blockIdx and what is computed from it) must behave exactly as on the
per-wave engine under every way out of the emulator's types: `np.asarray`, numpy
functions of every kind, `len()`/`.shape` used to size scratch arrays, `int()`/`float()`/
`bool()`/`__index__`, iteration, `tolist`/`item`, `str`/`repr`/`format`/f-strings,
`isinstance`, `hash`, numpy scalar constructors, positional indexing.

`generate(seed)` writes the Python source of one kernel: a few *sources* (values of every
kind a kernel can hold), then numbered *slots*, each applying one or two random *escapes*
from `ESCAPES` to a source or an earlier result and storing the outcome per lane
(`out[slot * T + gid] = value`; arrays of any other shape, strings and other objects go
through `digest`, a crc32 of their type, dtype, shape and bytes; on one-wave blocks a
per-block copy of scalars goes to `blk[slot * G + bid]`). Nothing is caught in the kernel:
an exception must be the same (type and message) on every engine, and so must the memory
left behind. At most one escape that may raise is used, as the last slot, so that most
kernels run to the end.

About 30 % of kernels (`is_narrow(seed)`, drawn apart from the rest, so that the other
seeds' kernels are the whole-wave kernels they always were) launch one-wave blocks narrower
than the wave: (t, 1) with t half a wave (the CUDA warp on wave64), a quarter, or an odd
size, or a 2-D (tx, ty) of `NARROW_2D`; the lanes past the block's threads are off in EXEC
from the start. Per-lane values still have the wave's W lanes, and what the lanes past the
threads hold leaks out through every escape: it must be the same on every engine. Memory
is indexed by thread (`gid` < T, the launch's real thread count).

`run_case(case, mode)` executes the source in a fresh module namespace and launches it:
mode "wave" (the reference), "batch", or "workers" (batched, `use_workers(2)`, with the
worker module's size thresholds lowered so that these small grids really are spread).
`check(seed)` runs all three and returns a failure report (the kernel's numbered source,
the launch, the slots that differ with their first differing lanes, the exceptions) or "".

Everything is seeded: the same seed gives the same kernel, launch and inputs.
"""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

ARCHS = {"gfx942": 64, "gfx1100": 32, "gfx1201": 32}

NARROW_CHANCE = 0.3
NARROW_2D = [(8, 2), (16, 2), (4, 4), (7, 3), (5, 5), (15, 2), (16, 3), (20, 3)]
_NARROW_STREAM = 0x6E61  # the narrow draws' own stream: [seed, this] seeds it


def is_narrow(seed: int) -> bool:
    """Whether kernel `seed` launches blocks narrower than a wave (without generating it)."""
    return _narrow_block(seed, 64) is not None


def _narrow_block(seed: int, w: int) -> tuple[int, int] | None:
    """A one-wave block of fewer than `w` threads for about NARROW_CHANCE of the seeds:
    (t, 1) with t half a wave (twice as likely: the CUDA warp on wave64), a quarter, or
    1, 7, 20, w - 1; or a 2-D (tx, ty) of NARROW_2D with tx * ty < w."""
    rng = np.random.default_rng([seed, _NARROW_STREAM])
    if not rng.random() < NARROW_CHANCE:
        return None
    if rng.random() < 0.35:
        shapes = [s for s in NARROW_2D if s[0] * s[1] < w]
        return shapes[int(rng.integers(len(shapes)))]
    sizes = [w // 2, w // 2, w // 4, 1, 7, 20, w - 1]
    return int(sizes[int(rng.integers(len(sizes)))]), 1


# --- the module every kernel is compiled into ----------------------------------------------

PRELUDE = '''\
import array
import collections
import collections.abc
import copy
import ctypes
import decimal
import fractions
import functools
import itertools
import math
import numbers
import operator
import pickle
import random
import struct
import zlib

import ml_dtypes
import numpy as np

from rocwmma_py import accumulator, amdgcn, fill_fragment, float32, fragment, kernel
from rocwmma_py.runtime import *  # noqa: F403 - threadIdx, atomics, shuffles, half math, ...

FragAcc = fragment[accumulator, 16, 16, 16, float32]
Vec4 = vector_type(np.float32, 4)
H8 = vector_type(np.float16, 8)
H16 = vector_type(np.float16, 16)


def _describe(v):
    if isinstance(v, (tuple, list)):
        return type(v).__name__ + "(" + ",".join(_describe(t) for t in v) + ")"
    if isinstance(v, dict):
        return "dict(" + ",".join(_describe(k) + ":" + _describe(t) for k, t in v.items()) + ")"
    if isinstance(v, (set, frozenset)):
        return type(v).__name__ + "(" + ",".join(sorted(_describe(t) for t in v)) + ")"
    if v is None or isinstance(v, (str, bytes, bytearray, int, float, complex)):
        return type(v).__name__ + ":" + repr(v)
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        tag = "scalar" if isinstance(v, np.generic) else "array"
        if a.dtype.hasobject:
            return tag + repr(a.shape) + _describe(a.tolist())
        return tag + a.dtype.str + repr(a.shape) + _exact(a).hex()
    return type(v).__name__ + ":" + repr(v)


def _exact(a):
    """An array's values as bytes; long doubles (whose padding bytes are undefined) as
    double-double pairs."""
    if a.dtype.kind == "c" and a.dtype.itemsize > 16:
        return _exact(a.real) + _exact(a.imag)
    if a.dtype.kind == "f" and a.dtype.itemsize > 8:
        with np.errstate(all="ignore"):
            hi = a.astype(np.float64)
            lo = (a - hi).astype(np.float64)
        return hi.tobytes() + lo.tobytes()
    return np.ascontiguousarray(a).tobytes()


def digest(v):
    """A number for any value (crc32 of its type, dtype, shape and bytes)."""
    return zlib.crc32(_describe(v).encode("utf-8", "backslashreplace"))
'''


# --- values ----------------------------------------------------------------------------------

@dataclass
class Val:
    """What generate knows of a value, one wave's view: `kind` L (W,) per lane, S scalar,
    M (W, cols) rows are lanes, P (W, 2) a packed half pair, F (cols, W) lanes last, A any
    other array, O any other object; `num` i (signed int) u (unsigned) f (float) h (float16)
    b (bool) c (complex) x (long double) X (complex long double: both with undefined
    padding bytes) o (object) ? (unknown); `py` a Python scalar (int/float/bool);
    `uniform` the same in every lane of a wave."""

    name: str
    kind: str
    num: str = "f"
    py: bool = False
    uniform: bool = False
    cols: int = 0


NUMERIC = "iufhbx"


@dataclass(frozen=True)
class Escape:
    """One way out: `template` (with {x} the operand, {e} the result variable, {t} a
    temporary, {W} the wave size, {c} a small int, {m} a lane xor mask, {k} a column), the
    kinds it applies to (`on`: letters of Val.kind, U = uniform L, B = Python scalar, N =
    numpy scalar), the numbers it takes (`num`: "*" any, "n" numeric, "i" int, "f" float,
    "r" any but long doubles, whose raw bytes are not values),
    its result (`res`, see `_result`), whether it may raise for such operands, its group."""

    on: str
    num: str
    res: str
    template: str
    risky: bool = False
    group: str = ""


def _kind_ok(on: str, v: Val) -> bool:
    for letter in on:
        if letter == v.kind and letter != "S":
            return True
        if letter == "M" and v.kind == "P":
            return True
        if letter == "U" and v.kind == "L" and v.uniform:
            return True
        if letter == "S" and v.kind == "S":
            return True
        if letter == "B" and v.kind == "S" and v.py:
            return True
        if letter == "N" and v.kind == "S" and not v.py:
            return True
    return False


def _num_ok(num: str, v: Val) -> bool:
    if num == "*":
        return True
    if num == "n":
        return v.num in NUMERIC
    if num == "i":
        return v.num in "iu"
    if num == "f":
        return v.num in "fhx"
    if num == "r":
        return v.num not in "xX"
    if num == "h":
        return v.num == "h"
    return False


def applies(esc: Escape, v: Val) -> bool:
    return _kind_ok(esc.on, v) and _num_ok(esc.num, v)


def _result(res: str, v: Val, name: str) -> Val:
    """The result's Val. `res`: "=" same as the operand; "=g" same, Python scalars become
    numpy; "=<num>" same kind with that num; "el" an element (L -> S, F -> L, else A); else a
    kind letter, then a num letter or "=" (the operand's), then "p" for a Python scalar;
    a trailing digit is the column count of M/F/P."""
    if res == "=":
        return Val(name, v.kind, v.num, v.py, v.uniform, v.cols)
    if res == "=g":
        return Val(name, v.kind, v.num, False, v.uniform, v.cols)
    if res.startswith("="):
        return Val(name, v.kind, res[1], False, v.uniform, v.cols)
    if res == "el":
        kind = {"L": "S", "F": "L"}.get(v.kind, "A")
        return Val(name, kind, v.num, False, kind == "S", v.cols)
    kind = res[0]
    num = res[1] if len(res) > 1 and res[1] not in "p0123456789" else "="
    num = v.num if num == "=" else num
    py = "p" in res[1:]
    cols = int(res[-1]) if res[-1].isdigit() else (v.cols if kind in "MFP" else 0)
    if kind == "P":
        cols = 2
    return Val(name, kind, num, py, kind == "S", cols)


def _esc(group: str, rows: list[tuple]) -> list[Escape]:
    out = []
    for row in rows:
        on, num, res, template, *risky = row
        out.append(Escape(on, num, res, template, bool(risky and risky[0]), group))
    return out


ARRAYS = "LMFA"

ESCAPES: list[Escape] = []

ESCAPES += _esc("convert", [
    ("LMFAS", "*", "=g", "np.asarray({x})"),
    ("LMFAS", "*", "=g", "np.array({x})"),
    ("LMFA", "n", "=f", "np.array({x}, dtype=np.float64)"),
    ("LMFA", "*", "=", "np.asarray({x}).copy()"),
    ("LMFA", "*", "=", "np.ascontiguousarray({x})"),
    ("LMFA", "*", "=", "{x}.view(np.ndarray)"),
    ("LMFA", "*", "=", "np.asanyarray({x})"),
    ("LMFA", "*", "=", "np.require({x}, requirements='C')"),
    ("LMFAS", "*", "=", "copy.deepcopy({x})"),
    ("LMFAS", "*", "=", "copy.copy({x})"),
    ("LMFAS", "*", "=", "pickle.loads(pickle.dumps({x}))"),
    ("LMFA", "n", "=f", "{x}.astype(np.float64)"),
    ("LMFAS", "*", "A", "np.array([{x}, {x}])"),
    ("LMFAS", "*", "A", "np.atleast_1d({x})"),
    ("L", "n", "Lf", "np.fromiter({x}, np.float64)"),
    ("L", "*", "=", "np.array(list({x}))"),
    ("L", "*", "=", "np.array({x}.tolist())"),
    ("L", "r", "=", "np.frombuffer({x}.tobytes(), {x}.dtype)"),
    ("MFA", "r", "A", "np.frombuffer({x}.tobytes(), {x}.dtype)"),
    ("LMFA", "r", "O", "{x}.tobytes()"),
    ("LMFA", "r", "O", "bytes(memoryview(np.ascontiguousarray({x})))"),
    ("LMFAN", "*", "O", "{x}.tolist()"),
    ("LN", "*", "S=p", "{x}.item(0)"),
    ("U", "*", "S=p", "{x}.item()"),
    ("L", "*", "S=p", "{x}.item()", True),
    ("LMFA", "*", "=", "{x}[...]"),
    ("LMFA", "*", "=", "{x}.copy()"),
    ("LMFA", "*", "A", "np.array({x}, ndmin=3)"),
    ("LMFA", "*", "O", "np.asarray({x}).dtype.str"),
])

ESCAPES += _esc("shape", [
    ("LMFA", "*", "Sip", "len({x})"),
    ("S", "*", "Sip", "len({x})", True),
    ("LMFA", "*", "O", "{x}.shape"),
    ("LMFA", "*", "Sip", "{x}.shape[0]"),
    ("MF", "*", "Sip", "{x}.shape[1] * 100 + {x}.shape[0]"),
    ("LMFA", "*", "Sip", "{x}.size"),
    ("LMFAS", "*", "Sip", "np.size({x})"),
    ("LMFAS", "*", "O", "np.shape({x})"),
    ("LMFAS", "*", "Sip", "np.ndim({x})"),
    ("LMFA", "*", "Sip", "{x}.nbytes"),
    ("LMFA", "*", "O", "{x}.strides"),
    ("LMFA", "*", "O", "{x}.T.shape"),
    ("LMFA", "*", "Sip", "len({x}.T)"),
    ("LMFA", "*", "Sbp", "{x}.flags.c_contiguous"),
    ("LMFA", "*", "O", "{x}.__array_interface__['shape']"),
    ("LMFA", "*", "Sip", "{x}.ndim"),
    ("LMFA", "*", "Sip", "sum(1 for _ in {x})"),
    ("S", "*", "Sip", "np.asarray({x}).size"),
    ("LMFA", "*", "O", "np.zeros({x}.shape).shape"),
    ("LMFA", "*", "Sip", "np.empty_like({x}).size"),
    ("L", "*", "Sip", "len(range(len({x})))"),
    ("L", "*", "Sip", "len(np.arange({x}.size)[::2])"),
])

# Per-lane scratch arrays sized by .shape / len() / .size, written and read by lane.
ESCAPES += _esc("scratch", [
    ("L", "n", "Lf", "{t} = np.zeros({x}.shape, np.float32)\n{t}[lane] = {x}\n"
                     "{e} = {t}[lane ^ {m}]"),
    ("L", "n", "Lf", "{t} = np.zeros(len({x}), np.float64)\n{t}[lane] = {x}\n"
                     "{e} = {t}[(lane + {c}) % {W}]"),
    ("L", "n", "Lf", "{t} = np.zeros({x}.size)\n{t}[lane] = {x}\n{e} = {t}[::-1]"),
    ("L", "n", "L=", "{t} = np.zeros_like({x})\n{t}[lane] = {x}\n{e} = {t}[lane ^ {m}]"),
    ("L", "*", "L=", "{t} = np.empty({x}.shape, {x}.dtype)\n{t}[:] = {x}\n"
                     "{e} = {t}[lane ^ {m}]"),
    ("L", "n", "Lf", "{t} = np.full(len({x}), -1.0)\n{t}[lane ^ {m}] = {x}\n{e} = {t}"),
    ("L", "n", "Lf", "{t} = np.zeros((2, len({x})))\n{t}[1, lane] = {x}\n"
                     "{e} = {t}[1][lane ^ {m}] + {t}[0]"),
    ("L", "*", "Sip", "{t} = [0.0] * len({x})\n{e} = len({t})"),
    ("L", "n", "Lf", "{t} = np.zeros({x}.shape)\n{t} += {x}\n{e} = {t}"),
    ("L", "n", "Lf", "{t} = np.zeros({x}.shape)\nnp.add({x}, 1, out={t})\n{e} = {t}"),
    ("L", "n", "Lf", "{t} = np.zeros({x}.shape)\nnp.copyto({t}, {x})\n{e} = {t}[lane ^ {m}]"),
    ("L", "n", "Lf", "{t} = np.zeros(len({x}) + 1)\n{t}[:-1] = {x}\n{e} = {t}[1:]"),
    ("L", "n", "Sf", "{t} = np.zeros({x}.shape)\n{t}[lane] = {x}\n{e} = {t}.sum()"),
    ("L", "n", "A", "{t} = np.zeros({x}.shape, bool)\n{t}[lane] = {x} > 0\n"
                    "{e} = {t}.nonzero()[0]"),
    ("M", "n", "Lf", "{t} = np.zeros({x}.shape, np.float32)\n{t}[lane] = {x}\n"
                     "{e} = {t}[lane ^ {m}, {k}]"),
    ("F", "n", "Lf", "{t} = np.zeros({x}.shape)\n{t}[:, lane] = {x}\n{e} = {t}[{k}][lane ^ {m}]"),
    ("L", "n", "Lf", "{t} = np.ones({x}.shape[0])\n{t}[lane % 2 == 0] = 0\n{e} = {t} * {x}"),
    ("L", "n", "L=", "{t} = np.arange(len({x}))\n{e} = {t}[lane ^ {m}] + {x}"),
    ("L", "n", "L=", "{t} = np.asarray({x})\n{t}[0] = 9\n{e} = {x}"),
    ("L", "n", "L=", "{t} = {x}.copy()\n{t}.sort()\n{e} = {t}"),
    ("L", "*", "L=", "{t} = list({x})\n{t}.reverse()\n{e} = np.array({t})"),
    ("L", "n", "L=", "{t} = np.array({x})\n{t}[::2] = 0\n{e} = {t}"),
    ("L", "n", "Lf", "{t} = np.zeros({x}.shape)\n{t}[lane] = {x}\n{t}[lane] += 1\n"
                     "{e} = {t}[lane ^ {m}]"),
    ("MF", "n", "Lf", "{t} = np.zeros({x}.shape, np.float64)\n{t}[...] = {x}\n"
                      "{e} = {t}.reshape(-1)[lane]"),
    ("P", "*", "Lh", "{t} = np.zeros({x}.shape, np.float16)\n{t}[lane] = {x}\n"
                     "{e} = {t}[lane ^ {m}, 1]"),
])

ESCAPES += _esc("python", [
    ("US", "n", "Sip", "int({x})"),
    ("L", "n", "Sip", "int({x})", True),
    ("US", "n", "Sfp", "float({x})"),
    ("L", "n", "Sfp", "float({x})", True),
    ("US", "*", "Sbp", "bool({x})"),
    ("LMFA", "*", "Sbp", "bool({x})", True),
    ("US", "i", "Sip", "operator.index({x})"),
    ("L", "i", "Sip", "operator.index({x})", True),
    ("US", "i", "Sip", "[10, 20, 30, 40][{x} % 4]"),
    ("US", "i", "O", "'abcdefgh'[{x} % 8]"),
    ("US", "i", "Sip", "len(range({x} % 7))"),
    ("US", "n", "Sfp", "complex({x}).real"),
    ("US", "n", "Sip", "round({x})"),
    ("US", "n", "Sip", "math.floor({x})"),
    ("US", "n", "Sbp", "math.isfinite({x})"),
    ("S", "n", "S=", "abs({x})"),
    ("S", "n", "O", "divmod({x}, 3)"),
    ("S", "n", "S=", "max({x}, 2)"),
    ("S", "n", "S=", "min({x}, 1)"),
    ("S", "n", "S=", "pow({x}, 2)"),
    ("S", "i", "S=", "{x} - {c}"),
    ("S", "n", "S=", "{x} * 0.1"),
    ("S", "n", "S=", "{x} / {c}"),
    ("S", "i", "S=", "{x} // {c}"),
    ("S", "i", "S=", "-{x} ** 3"),
    ("S", "i", "S=", "~{x} << {c}"),
    ("B", "i", "Sip", "{x}.bit_length()"),
    ("B", "i", "O", "{x}.to_bytes(8, 'little', signed=True)"),
    ("B", "n", "S=p", "{x}.real"),
    ("B", "n", "S=p", "{x}.conjugate()"),
    ("B", "i", "Sip", "{x}.numerator + {x}.denominator"),
    ("B", "f", "O", "{x}.hex()"),
    ("B", "f", "Sbp", "{x}.is_integer()"),
    ("B", "n", "O", "{x}.as_integer_ratio()"),
    ("B", "i", "Sip", "int.__add__({x}, 1)"),
    ("B", "f", "Sfp", "float.__mul__({x}, 2.0)"),
    ("B", "n", "O", "str(decimal.Decimal({x}) / 7)"),
    ("US", "i", "Sip", "math.gcd({x}, 6)"),
    ("US", "i", "Sip", "math.factorial(abs({x}) % 6)"),
    ("US", "i", "Sip", "sum(range({x} % 9))"),
    ("US", "i", "Sip", "len([0] * ({x} % 5))"),
    ("US", "i", "O", "'ab' * ({x} % 3)"),
    ("US", "i", "O", "bin({x})"),
    ("US", "i", "O", "hex({x})"),
    ("US", "i", "O", "oct({x})"),
    ("US", "i", "O", "chr(65 + {x} % 26)"),
    ("US", "i", "O", "bytes({x} % 5)"),
    ("US", "i", "O", "list(range({x} % 4, 6))"),
    ("US", "i", "O", "list(range(10))[{x} % 10:]"),
    ("US", "i", "A", "np.arange(10)[{x} % 10:]"),
    ("US", "i", "Si", "np.arange(10)[{x} % 10]"),
    ("US", "i", "A", "np.arange({x} % 7)"),
    ("US", "i", "A", "np.zeros({x} % 4 + 1)"),
    ("US", "n", "A", "np.full(3, {x})"),
    ("US", "n", "A", "np.linspace(0, {x}, 5)"),
    ("US", "i", "A", "np.eye({x} % 3 + 1)"),
    ("US", "n", "A", "np.array([{x}, 1, 2])"),
    ("US", "n", "A", "np.repeat({x}, 3)"),
    ("US", "i", "Si", "np.random.default_rng(abs({x})).integers(1000)"),
    ("US", "i", "Sfp", "random.Random(int(abs({x}))).random()"),
    ("US", "i", "Sfp", "random.Random({x}).random()"),
    ("US", "i", "Sfp", "float(fractions.Fraction({x}, 3))"),
    ("US", "i", "O", "struct.pack('<q', {x})"),
    ("US", "i", "O", "array.array('q', [{x}])"),
    ("US", "i", "Sip", "ctypes.c_int8({x}).value"),
    ("US", "i", "Sip", "int.from_bytes(bytes([{x} % 256]), 'little')"),
    ("US", "i", "O", "dict.fromkeys(range({x} % 5))"),
    ("US", "n", "Sfp", "math.sqrt(abs({x}))"),
    ("US", "n", "Sfp", "math.log1p(abs({x}))"),
    ("US", "i", "Sip", "math.comb(abs({x}) % 10 + 2, 2)"),
    ("US", "i", "O", "slice({x}, None).indices(10)"),
    ("US", "i", "O", "(1, 2) * ({x} % 3)"),
    ("US", "i", "O", "bytearray({x} % 4)"),
    ("US", "n", "Sip", "len(str({x}))"),
    ("US", "i", "Sip", "int(str({x}) + '7')"),
    ("US", "n", "O", "'x' + str({x})"),
    ("S", "i", "Sip", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10][{x}]", True),
    ("S", "i", "O", "'abcdefghij'[{x}]", True),
    ("S", "i", "Sip", "len([0] * ({x} % 1000 - 3))"),
    ("S", "i", "Sip", "len(bytes({x} % 4099 - 3))", True),
    ("S", "i", "Sip", "math.factorial({x} % 23 - 2)", True),
    ("S", "n", "Sfp", "math.sqrt({x})", True),
])

ESCAPES += _esc("iterate", [
    ("LMFA", "*", "O", "list({x})"),
    ("LMFA", "*", "O", "tuple({x})"),
    ("LMFA", "*", "O", "[t for t in {x}]"),
    ("L", "n", "S=", "sum({x})"),
    ("L", "n", "S=", "max({x})"),
    ("L", "n", "S=", "min({x})"),
    ("L", "n", "O", "sorted({x})"),
    ("L", "*", "Sbp", "any({x})"),
    ("L", "*", "Sbp", "all({x})"),
    ("LMFA", "*", "el", "next(iter({x}))"),
    ("L", "*", "O", "list(enumerate({x}))[-1]"),
    ("L", "*", "O", "list(zip({x}, {x}))[:3]"),
    ("L", "n", "Sbp", "{c} in {x}"),
    ("L", "*", "O", "list(reversed({x}))"),
    ("L", "*", "O", "dict(enumerate({x}.tolist()))"),
    ("L", "n", "O", "set({x}.tolist())"),
    ("L", "n", "O", "collections.Counter({x}.tolist())"),
    ("L", "n", "O", "list(itertools.accumulate({x}))"),
    ("L", "*", "O", "list(itertools.islice({x}, 3))"),
    ("L", "n", "O", "list(map(float, {x}))"),
    ("LMFA", "*", "Sip", "{e} = 0\nfor {t} in {x}:\n    {e} = {e} + 1"),
    ("L", "n", "S=", "{e} = 0\nfor {t} in {x}:\n    {e} = {e} + {t}"),
    ("L", "*", "Sip", "{t}, *{t}r = {x}\n{e} = len({t}r)"),
    ("L", "n", "S=", "{t}0, {t}1 = {x}[:2]\n{e} = {t}0 + {t}1"),
    ("L", "n", "S=", "{e} = -1\nfor {t}, {t}v in enumerate({x}):\n    if {t} == {c}:\n"
                     "        {e} = {t}v\n        break"),
    ("S", "*", "O", "list({x})", True),
    ("MF", "n", "O", "[r.sum() for r in {x}]"),
    ("M", "*", "O", "[tuple(r) for r in {x}][:2]"),
    ("F", "*", "O", "[r.max() for r in {x}]"),
])

ESCAPES += _esc("format", [
    ("LMFAS", "*", "O", "str({x})"),
    ("LMFAS", "*", "O", "repr({x})"),
    ("LMFAS", "*", "O", "f'{{{x}}}'"),
    ("LMFAS", "*", "O", "f'{{{x}!r}}'"),
    ("LMFAS", "*", "O", "format({x})"),
    ("S", "i", "O", "format({x}, '03d')"),
    ("S", "n", "O", "format({x}, '.3f')"),
    ("S", "n", "O", "format({x}, '>8')"),
    ("S", "i", "O", "'%d' % {x}"),
    ("S", "n", "O", "'%.2f' % {x}"),
    ("LMFAS", "*", "O", "'%s' % ({x},)"),
    ("LMFAS", "*", "O", "'{{}}'.format({x})"),
    ("LMFAS", "*", "O", "'{{!r:>10}}'.format({x})"),
    ("LMFA", "*", "O", "np.array2string({x})"),
    ("LMFA", "*", "O", "np.array_repr({x})"),
    ("LMFA", "*", "O", "np.array_str({x}, precision=2)"),
    ("LMFA", "*", "O", "np.array2string({x}, separator=',', threshold=5)"),
    ("S", "f", "O", "np.format_float_positional({x})"),
    ("S", "f", "O", "np.format_float_scientific({x}, precision=3)"),
    ("S", "i", "O", "np.base_repr({x}, 3)"),
    ("S", "i", "O", "np.binary_repr({x}, 8)"),
    ("LMFAN", "*", "O", "str({x}.dtype)"),
    ("B", "*", "O", "str({x}.dtype)", True),
    ("S", "i", "O", "f'{{{x}:03d}}'"),
    ("S", "n", "O", "f'{{{x}:.2e}}'"),
    ("S", "i", "O", "f'{{{x}:#x}}'"),
    ("S", "i", "Sip", "int(str({x}))"),
    ("S", "i", "Sip", "int(f'{{{x}}}')"),
    ("S", "i", "Sip", "int(format({x}, '03d'))"),
    ("S", "n", "Sip", "len(repr({x}))"),
    ("LMFA", "*", "Sip", "len(str({x}))"),
    ("S", "n", "Sfp", "float(str({x}))"),
    ("LMFA", "*", "O", "str({x}.tolist())"),
])

ESCAPES += _esc("isinstance", [
    ("LMFAS", "*", "Sbp", "isinstance({x}, int)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, float)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, bool)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, np.ndarray)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, np.generic)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, np.integer)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, np.floating)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, numbers.Number)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, numbers.Integral)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, (list, tuple))"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, collections.abc.Sized)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, collections.abc.Iterable)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, collections.abc.Hashable)"),
    ("LMFAS", "*", "Sbp", "np.isscalar({x})"),
    ("LMFAS", "*", "Sbp", "hasattr({x}, 'shape')"),
    ("LMFAS", "*", "Sbp", "hasattr({x}, '__len__')"),
    # not type({x}) is int: Python lets no object answer type() (the kernels guide's one
    # exception to the engine's contract)
    ("LMFAS", "*", "Sbp", "issubclass(type({x}), np.ndarray)"),
    ("LMFAS", "*", "Sbp", "isinstance({x}, type(1))"),
])

ESCAPES += _esc("hash", [
    ("S", "i", "Sip", "hash({x})"),
    ("LMFA", "*", "Sip", "hash({x})", True),
    ("S", "i", "Sip", "len({{{x}: 1, 0: 2}})"),
    ("S", "i", "Sbp", "{x} in {{0, 1, 2}}"),
    ("S", "i", "Sbp", "{x} in [0, 1, 2]"),
    ("S", "i", "Sip", "[0, 1, 2].index({x} % 3)"),
    ("S", "i", "O", "collections.Counter([{x}, {x}, 1])"),
    ("S", "i", "S=", "functools.reduce(operator.add, [{x}, 1, 2])"),
    ("S", "i", "O", "{{{x}: 'a'}}.get(1, 'z')"),
    ("S", "i", "O", "{t} = {{}}\n{t}[{x}] = {t}.get({x}, 0) + 1\n{e} = sorted({t}.items())"),
    ("S", "i", "Sip", "{t} = set()\n{t}.add({x})\n{t}.add(1)\n{e} = len({t})"),
    ("S", "i", "Sip", "functools.lru_cache(maxsize=4)(lambda t: t * 2)({x})"),
])

SCALAR_TYPES = ["np.int8", "np.int16", "np.int32", "np.int64", "np.uint8", "np.uint16",
                "np.uint32", "np.uint64", "np.intp", "np.uintp", "np.byte", "np.ubyte",
                "np.short", "np.ushort", "np.intc", "np.uintc", "np.longlong",
                "np.ulonglong", "np.long", "np.ulong", "np.float16", "np.float32",
                "np.float64", "np.longdouble", "np.half", "np.single", "np.double",
                "ml_dtypes.bfloat16", "np.complex64", "np.complex128", "np.clongdouble",
                "np.bool_"]


def _scalar_num(t: str) -> str:
    if t == "np.clongdouble":
        return "X"
    if t == "np.longdouble":
        return "x"
    if "complex" in t:
        return "c"
    if "bool" in t:
        return "b"
    if "float" in t or t in ("np.longdouble", "np.half", "np.single", "np.double"):
        return "f"
    return "u" if "np.u" in t else "i"


_SCALAR_FORMS = [  # (template, result num: "T" the type's, or a letter; risky, int types only)
    ("{T}({x})", "T", False, False),
    ("{T}({x}) - {c}", "T", False, False),
    ("{T}({x}) + {c}", "T", False, False),
    ("{T}({x}) * 50", "T", False, False),
    ("{T}({x}) / 3", "f", False, False),
    ("{T}({x}) // 2", "T", False, False),
    ("{T}({x}) % 3", "T", False, False),
    ("{T}({x}) ** 2", "T", False, False),
    ("{c} - {T}({x})", "T", False, False),
    ("-{T}({x})", "T", False, False),
    ("abs({T}({x}) - 100)", "T", False, False),
    ("{T}({x}) - {T}(100)", "T", False, False),
    ("{T}(1.1) ** {x}", "T", False, False),
    ("{T}({x}) ** 0.5", "f", False, False),
    ("{T}({x}) << {c}", "T", False, True),
    ("{T}({x}) >> 1", "T", False, True),
    ("{T}({x}) ^ 5", "T", False, True),
    ("{T}({x}).item()", "T", False, False),
    ("{T}({x}).tobytes()", "O", False, False),
    ("str({T}({x}))", "O", False, False),
    ("repr({T}({x}))", "O", False, False),
    ("{T}({x} - 3)", "T", True, False),
    ("{T}({x} * 100)", "T", True, False),
]


def _scalar_escapes() -> list[Escape]:
    out = []
    for t in SCALAR_TYPES:
        tnum = _scalar_num(t)
        for form, num, risky, ints_only in _SCALAR_FORMS:
            if ints_only and tnum not in "iu" or "tobytes" in form and tnum in "xX":
                continue
            # (a long double or complex scalar stays one through "/ 3" and "** 0.5")
            rnum = tnum if num == "T" or num == "f" and tnum in "cxX" else num
            template = form.replace("{T}", t)
            if num == "O":
                out.append(Escape("S", "n", "O", template, risky, "scalar"))
                out.append(Escape("L", "n", "O", template, risky, "scalar"))
                continue
            out.append(Escape("S", "n", "S" + rnum, template, risky, "scalar"))
            # numpy scalar types applied to arrays cast them (np.int8(array) is an array)
            out.append(Escape("LMF", "n", "=" + rnum, template, risky, "scalar"))
    return out


ESCAPES += _scalar_escapes()

ESCAPES += _esc("elementwise", [
    ("L", "n", "Lf", "np.sin({x})"),
    ("L", "n", "Lf", "np.exp(np.minimum({x}, 10))"),
    ("L", "n", "Lf", "np.sqrt(np.abs({x}))"),
    ("L", "n", "L=", "np.floor({x})"),
    ("L", "n", "L=", "np.add({x}, 1)"),
    ("L", "n", "L=", "np.maximum({x}, 0)"),
    ("L", "n", "L=", "np.where({x} > 0, {x}, -{x})"),
    ("L", "n", "L=", "np.clip({x}, -1, 1)"),
    ("L", "n", "Lb", "np.isnan({x})"),
    ("L", "n", "L=", "np.sign({x})"),
    ("L", "n", "Lf", "np.heaviside({x}, 0.5)"),
    ("L", "n", "Lf", "np.interp({x}, [0, 1], [1, 2])"),
    ("L", "n", "L=", "np.polyval([1, 2, 3], {x})"),
    ("L", "n", "L=", "np.round({x}, 1)"),
    ("L", "n", "L=", "np.nan_to_num({x})"),
    ("L", "n", "Li", "np.digitize({x}, [0, 1])"),
    ("L", "n", "Lb", "np.isin({x}, [0, 1])"),
    ("L", "n", "L=", "np.vectorize(lambda t: t * 2)({x})"),
    ("L", "n", "Lf", "np.frompyfunc(abs, 1, 1)({x}).astype(np.float64)"),
    ("L", "n", "L=", "np.fmod({x}, 3)"),
    ("L", "n", "Lf", "np.hypot({x}, 1)"),
    ("L", "n", "Lf", "np.arctan2({x}, 1)"),
    ("L", "n", "L=", "np.select([{x} > 0], [{x}], 7)"),
    ("L", "n", "L=", "np.piecewise({x}, [{x} < 0], [-1, 1])"),
    ("L", "n", "Lf", "np.frexp({x})[0]"),
    ("L", "n", "L=", "np.modf({x})[1]"),
    ("L", "n", "L=", "np.divmod({x}, 3)[0]"),
    ("L", "n", "L=", "np.sum([{x}, {x}], axis=0)"),
    ("L", "n", "L=", "np.mean(np.stack([{x}, {x}]), axis=0)"),
    ("L", "n", "Lb", "np.isclose({x}, 0)"),
    ("L", "i", "L=", "np.bitwise_xor({x}, 5)"),
    ("L", "i", "L=", "np.left_shift({x}, 2)"),
    ("L", "i", "Lu", "np.bitwise_count(np.abs({x}))"),
    ("L", "i", "L=", "np.gcd({x}, 6)"),
    ("L", "i", "L=", "np.invert({x})"),
    ("L", "n", "L=", "{x} * {c} - 1"),
    ("L", "n", "L=", "np.sin({x}) * 0 + {x}"),
    ("MF", "n", "=f", "np.sqrt(np.abs({x}))"),
    ("MF", "n", "=", "np.maximum({x}, 1)"),
])

ESCAPES += _esc("reduce", [
    ("L", "n", "S=", "np.sum({x})"),
    ("L", "n", "S=", "np.prod({x})"),
    ("L", "n", "S=", "np.max({x})"),
    ("L", "n", "S=", "np.min({x})"),
    ("L", "n", "Sf", "np.mean({x})"),
    ("L", "n", "Sf", "np.std({x})"),
    ("L", "n", "Sf", "np.var({x})"),
    ("L", "n", "Sf", "np.median({x})"),
    ("L", "n", "S=", "np.ptp({x})"),
    ("L", "*", "Sb", "np.any({x})"),
    ("L", "*", "Sb", "np.all({x})"),
    ("L", "n", "Si", "np.argmax({x})"),
    ("L", "n", "Si", "np.argmin({x})"),
    ("L", "*", "Sip", "np.count_nonzero({x})"),
    ("L", "n", "Sf", "np.average({x}, weights=np.arange(len({x})) + 1)"),
    ("L", "n", "Sf", "np.percentile({x}, 30)"),
    ("L", "n", "Sf", "np.quantile({x}, 0.7)"),
    ("L", "n", "S=", "np.nansum({x})"),
    ("L", "n", "Sf", "np.linalg.norm({x})"),
    ("L", "n", "S=", "np.dot({x}, {x})"),
    ("L", "n", "S=", "np.vdot({x}, {x})"),
    ("L", "n", "S=", "np.inner({x}, {x})"),
    ("L", "n", "S=", "np.einsum('i,i->', {x}, {x})"),
    ("L", "n", "S=", "np.einsum('i->', {x})"),
    ("L", "n", "S=", "{x} @ {x}"),
    ("L", "n", "S=", "np.matmul({x}, {x})"),
    ("L", "n", "S=", "np.tensordot({x}, {x}, 1)"),
    ("L", "n", "S=", "np.trace(np.outer({x}, {x}))"),
    ("L", "n", "S=", "np.sum({x}, where={x} > 0)"),
    ("L", "n", "S=", "np.add.reduce({x})"),
    ("L", "n", "S=", "np.maximum.reduce({x})"),
    ("L", "n", "Sb", "np.logical_and.reduce({x} > 0)"),
    ("L", "n", "Sf", "np.trapezoid({x})"),
    ("L", "n", "Sbp", "np.allclose({x}, {x}[::-1])"),
    ("L", "n", "Sbp", "np.array_equal({x}, np.sort({x}))"),
    ("L", "n", "S=", "{x}.sum()"),
    ("L", "n", "S=", "{x}.max()"),
    ("L", "n", "Sf", "{x}.mean()"),
    ("L", "n", "Si", "{x}.argmax()"),
    ("L", "n", "S=", "{x}.cumsum()[-1]"),
    ("L", "n", "Sf", "np.linalg.norm({x}, ord=1)"),
    ("L", "n", "S=", "np.correlate({x}, {x})[0]"),
    ("L", "n", "Si", "np.searchsorted(np.sort({x}), 0)"),
    ("L", "n", "Si", "np.unique({x}).size"),
    ("L", "n", "Sip", "len(set({x}.tolist()))"),
    ("L", "n", "Sf", "np.cov({x})"),
    ("MFA", "n", "S=", "{x}.sum()"),
    ("MFA", "n", "S=", "np.max({x})"),
    ("MFA", "n", "Sf", "np.linalg.norm({x})"),
])

ESCAPES += _esc("scan", [
    ("L", "n", "L=", "np.cumsum({x})"),
    ("L", "n", "L=", "np.cumprod(np.sign({x}))"),
    ("L", "n", "L=", "np.maximum.accumulate({x})"),
    ("L", "n", "L=", "np.add.accumulate({x})"),
    ("L", "n", "L=", "np.cumulative_sum({x})"),
    ("L", "n", "A=", "np.diff({x})"),
    ("L", "n", "Lf", "np.gradient({x})"),
    ("L", "n", "A=", "np.ediff1d({x})"),
    ("L", "n", "L=", "np.nancumsum({x})"),
    ("L", "n", "L=", "{x}.cumsum()"),
])

ESCAPES += _esc("sort", [
    ("L", "n", "L=", "np.sort({x})"),
    ("L", "n", "Li", "np.argsort({x}, kind='stable')"),
    ("L", "n", "L=", "np.partition({x}, 3)"),
    ("L", "n", "Li", "np.lexsort(({x}, lane))"),
    ("L", "n", "Li", "np.searchsorted(np.sort({x}), {x})"),
    ("L", "n", "L=", "np.sort({x})[::-1]"),
    ("L", "n", "Li", "{x}.argsort(kind='stable')"),
    ("L", "n", "L=", "np.take_along_axis({x}, np.argsort({x}, kind='stable'), 0)"),
    ("L", "n", "L=", "sorted({x})[0] + {x}"),
])

ESCAPES += _esc("set", [
    ("L", "n", "A=", "np.unique({x})"),
    ("L", "n", "O", "np.unique({x}, return_counts=True)"),
    ("L", "n", "O", "np.unique({x}, return_index=True, return_inverse=True)"),
    ("L", "n", "A=", "np.unique_values({x})"),
    ("L", "n", "O", "np.unique_counts({x})"),
    ("L", "n", "A", "np.union1d({x}, [0])"),
    ("L", "n", "A=", "np.intersect1d({x}, -{x})"),
    ("L", "n", "A=", "np.setdiff1d({x}, [0, 1])"),
    ("L", "n", "A", "np.setxor1d({x}, [0])"),
    ("L", "n", "Lb", "np.isin({x}, {x}[::2])"),
    ("L", "n", "Ai", "np.bincount(np.abs({x}).astype(np.int64) % 8)"),
    ("L", "n", "O", "np.histogram({x}, bins=4)"),
    ("L", "n", "Ai", "np.histogram({x}, bins=[-10, 0, 10])[0]"),
    ("L", "n", "O", "np.nonzero({x})"),
    ("L", "n", "Ai", "np.flatnonzero({x} > 0)"),
    ("L", "n", "Ai", "np.argwhere({x} > 0)"),
    ("L", "n", "A=", "np.extract({x} > 0, {x})"),
    ("L", "n", "A=", "np.compress({x} > 0, {x})"),
    ("L", "n", "A=", "{x}[{x} > 0]"),
])

ESCAPES += _esc("linalg", [
    ("L", "n", "A=", "np.outer({x}, {x})"),
    ("L", "n", "A=", "np.kron({x}[:2], {x}[:3])"),
    ("L", "n", "Af", "np.linalg.norm({x}.reshape(-1, 2), axis=1)"),
    ("L", "n", "A", "np.convolve({x}, [1, -1])"),
    ("L", "n", "A", "np.correlate({x}, [1, 2])"),
    ("L", "n", "A=", "np.cross({x}[:3], {x}[1:4])"),
    ("L", "n", "Sip", "int(np.linalg.matrix_rank(np.outer({x}, {x})))"),
    ("L", "n", "A=", "np.diag({x})"),
    ("L", "n", "A=", "np.vander({x}[:3])"),
    ("L", "n", "Sf", "np.linalg.det(np.outer({x}[:2], {x}[:2]) + np.eye(2))"),
    ("L", "n", "Lf", "np.fft.fft({x}).real"),
    ("L", "n", "Af", "np.fft.rfft({x}).real"),
    ("L", "n", "A=", "np.einsum('i,j->ij', {x}[:2], {x}[:2])"),
    ("L", "n", "L=", "np.einsum('i->i', {x})"),
    ("L", "n", "L=", "np.einsum('i,i->i', {x}, {x})"),
    ("M", "n", "L=", "{x} @ np.ones({x}.shape[1], {x}.dtype)"),
    ("M", "n", "L=", "np.einsum('ij->i', {x})"),
    ("M", "n", "L=", "np.einsum('ij,ij->i', {x}, {x})"),
    ("M", "n", "A=", "np.einsum('ij->j', {x})"),
    ("M", "n", "L=", "np.dot({x}, np.arange({x}.shape[1]))"),
    ("M", "n", "A=", "np.dot({x}.T, {x})"),
    ("M", "n", "A=", "{x}.T @ {x}"),
    ("M", "n", "A=", "np.tensordot({x}, {x}, axes=([0], [0]))"),
    ("M", "n", "A=", "np.einsum('ij,ik->jk', {x}, {x})"),
    ("F", "n", "L=", "np.einsum('ij->j', {x})"),
    ("F", "n", "A=", "np.einsum('ij->i', {x})"),
    ("F", "n", "L=", "np.dot(np.arange({x}.shape[0]), {x})"),
    ("F", "n", "A=", "{x} @ {x}.T"),
])

ESCAPES += _esc("reshape", [
    ("L", "*", "A=", "np.reshape({x}, (-1, 2))"),
    ("L", "*", "L=", "np.ravel({x})"),
    ("L", "*", "L=", "np.flip({x})"),
    ("L", "*", "L=", "np.roll({x}, 1)"),
    ("L", "*", "A=", "np.concatenate([{x}, {x}])"),
    ("L", "*", "F=2", "np.stack([{x}, {x}])"),
    ("L", "*", "A=", "np.hstack([{x}, {x}])"),
    ("L", "*", "F=2", "np.vstack([{x}, {x}])"),
    ("L", "*", "M=2", "np.column_stack([{x}, {x}])"),
    ("L", "*", "A=", "np.tile({x}, 2)"),
    ("L", "*", "A=", "np.repeat({x}, 2)"),
    ("L", "n", "A=", "np.pad({x}, 1)"),
    ("L", "*", "O", "np.split({x}, 2)"),
    ("L", "*", "O", "np.array_split({x}, 3)"),
    ("L", "*", "F=1", "np.expand_dims({x}, 0)"),
    ("L", "*", "F=1", "np.atleast_2d({x})"),
    ("L", "*", "L=", "np.squeeze(np.atleast_2d({x}))"),
    ("L", "*", "M=2", "np.transpose(np.vstack([{x}, {x}]))"),
    ("L", "*", "M=1", "np.swapaxes(np.atleast_2d({x}), 0, 1)"),
    ("L", "*", "M=1", "np.moveaxis(np.atleast_2d({x}), 0, -1)"),
    ("L", "*", "F=3", "np.broadcast_to({x}, (3, len({x})))"),
    ("L", "*", "A=", "np.take({x}, [0, 1, 2])"),
    ("L", "*", "L=", "np.take({x}, lane ^ {m})"),
    ("L", "*", "A=", "np.delete({x}, 0)"),
    ("L", "n", "A=", "np.insert({x}, 0, 5)"),
    ("L", "n", "A", "np.append({x}, 1)"),
    ("L", "*", "A=", "np.resize({x}, 5)"),
    ("L", "n", "A=", "np.trim_zeros({x})"),
    ("L", "*", "A=", "{x}[::2]"),
    ("L", "*", "A=", "{x}[1:]"),
    ("L", "*", "S=", "{x}[-1]"),
    ("L", "*", "S=", "{x}[0]"),
    ("L", "*", "S=", "{x}[{c}]"),
    ("L", "*", "A=", "{x}[:3]"),
    ("L", "*", "L=", "{x}[lane]"),
    ("L", "*", "L=", "{x}[lane ^ {m}]"),
    ("L", "*", "L=", "{x}[{W} - 1 - lane]"),
    ("L", "*", "A=", "{x}[[0, 1]]"),
    ("L", "*", "A=", "{x}[np.array([3, 1])]"),
    ("L", "*", "M=1", "{x}[..., None]"),
    ("L", "*", "F=1", "{x}[None]"),
    ("L", "*", "A=", "{x}.reshape(2, -1)[1]"),
    ("L", "*", "A=", "np.block([{x}, {x}])"),
    ("L", "*", "O", "np.meshgrid({x}[:3], {x}[:2])"),
    ("L", "*", "L=", "np.broadcast_arrays({x}, 1)[1]"),
    ("L", "*", "A=", "np.rot90(np.atleast_2d({x}))"),
    ("L", "n", "A=", "np.tril(np.outer({x}[:3], {x}[:3]))"),
    ("L", "*", "L=", "np.flipud({x})"),
    ("L", "n", "L=", "np.sort(np.stack([{x}, -{x}]), axis=0)[0]"),
    ("L", "n", "L=", "np.stack([{x}, {x}], axis=-1).sum(axis=-1)"),
    ("L", "n", "L=", "np.concatenate([{x}[None], {x}[None]]).max(axis=0)"),
    ("L", "*", "L=", "{x}.reshape(-1)"),
    ("L", "*", "L=", "{x}.flatten()"),
    ("L", "*", "L=", "{x}.ravel()[lane ^ {m}]"),
    ("L", "*", "A=", "{x}.repeat(2)[::2]"),
    ("LMFA", "*", "A=", "np.asarray({x})[::2]"),
])

# Per-lane matrices: (W, k) rows are lanes (register vectors, vector loads, builtin
# results, packed pairs), (k, W) lanes last (frag.x).
ESCAPES += _esc("matrix", [
    ("M", "*", "L=", "{x}[:, {k}]"),
    ("M", "*", "A=", "{x}[0]"),
    ("M", "*", "S=", "{x}[0, {k}]"),
    ("M", "*", "S=", "{x}[-1, {k}]"),
    ("M", "*", "L=", "{x}[lane, {k}]"),
    ("M", "*", "L=", "{x}[lane ^ {m}, {k}]"),
    ("M", "n", "L=", "{x}.sum(axis=1)"),
    ("M", "n", "A=", "{x}.sum(axis=0)"),
    ("M", "*", "F=", "{x}.T"),
    ("M", "*", "L=", "{x}.T[{k}]"),
    ("M", "n", "L=", "np.sort({x}, axis=1)[:, 0]"),
    ("M", "n", "A=", "np.max({x}, axis=0)"),
    ("M", "*", "A=", "{x}.reshape(-1)"),
    ("M", "*", "L=", "{x}.ravel()[lane]"),
    ("M", "n", "Lf", "np.linalg.norm({x}, axis=1)"),
    ("M", "*", "M=", "{x}[:, ::-1]"),
    ("M", "*", "A=", "{x}[::2]"),
    ("M", "*", "L=", "{x}[..., {k}]"),
    ("M", "*", "L=", "np.split({x}, {x}.shape[1], axis=1)[0][:, 0]"),
    ("M", "n", "L=", "{x}.max(axis=-1)"),
    ("M", "n", "M=", "np.diff({x}, axis=1)"),
    ("M", "n", "A=", "np.diff({x}, axis=0)"),
    ("M", "n", "M=", "np.cumsum({x}, axis=1)"),
    ("M", "n", "M=", "np.cumsum({x}, axis=0)"),
    ("M", "n", "M=", "np.sort({x}, axis=0)"),
    ("M", "n", "Ai", "np.argmax({x}, axis=0)"),
    ("M", "n", "Lf", "{x}.mean(axis=1)"),
    ("M", "n", "A=", "np.unique({x}, axis=0)"),
    ("M", "*", "O", "{x}.tolist()[0]"),
    ("M", "n", "O", "list(map(float, {x}[:, 0]))"),
    ("M", "*", "L=", "{x}[lane, lane % {x}.shape[1]]"),
    ("M", "*", "L=", "np.asarray({x})[:, 0]"),
    ("M", "*", "S=", "np.asarray({x})[0, 0]"),
    ("M", "*", "F=", "np.moveaxis({x}, 0, 1)"),
    ("M", "*", "M=2", "np.stack([{x}[:, 0], {x}[:, -1]], axis=1)"),
    ("M", "*", "M=", "np.concatenate([{x}, {x}], axis=1)"),
    ("M", "*", "A=", "np.concatenate([{x}, {x}], axis=0)"),
    ("M", "n", "Ff", "{x}.astype(np.float64).T.copy()"),
    ("F", "*", "L=", "{x}[{k}]"),
    ("F", "*", "A=", "{x}[:, 0]"),
    ("F", "*", "S=", "{x}[{k}, 0]"),
    ("F", "*", "L=", "{x}[{k}][lane ^ {m}]"),
    ("F", "*", "L=", "{x}[{k}, lane]"),
    ("F", "n", "L=", "{x}.sum(axis=0)"),
    ("F", "n", "A=", "{x}.sum(axis=1)"),
    ("F", "*", "M=", "{x}.T"),
    ("F", "*", "L=", "{x}.T[lane, {k}]"),
    ("F", "n", "L=", "np.cumsum({x}, axis=0)[-1]"),
    ("F", "n", "A=", "np.cumsum({x})"),
    ("F", "n", "Li", "np.argmax({x}, axis=0)"),
    ("F", "n", "A=", "{x}.max(axis=1)"),
    ("F", "*", "A=", "{x}.reshape(-1)"),
    ("F", "*", "A=", "{x}[:, ::2]"),
    ("F", "*", "F=", "{x}[::-1]"),
    ("F", "n", "F=", "np.sort({x}, axis=1)"),
    ("F", "n", "Lf", "np.mean({x}, axis=0)"),
    ("F", "*", "O", "{x}[{k}].tolist()"),
    ("F", "*", "F=", "{x}[..., lane ^ {m}]"),
    ("F", "*", "L=", "{x}[:, lane ^ {m}][{k}]"),
    ("F", "*", "S=", "{x}[0][0]"),
    ("F", "*", "M=", "np.asarray({x}).T"),
])

# Packed half2 pairs (plain (W, 2) arrays from half_math): positions, halves, intrinsics.
ESCAPES += _esc("pair", [
    ("P", "*", "S=", "{x}[0, 0]"),
    ("P", "*", "L=", "{x}[:, 0]"),
    ("P", "*", "L=", "{x}[lane, 1]"),
    ("P", "*", "L=", "{x}[lane ^ {m}, 0]"),
    ("P", "*", "S=", "{x}[-1, 1]"),
    ("P", "*", "A=", "{x}[0]"),
    ("P", "*", "S=", "{x}[{c}][1]"),
    ("P", "*", "P=", "{x}[:, ::-1]"),
    ("P", "*", "L=", "{x}.T[1]"),
    ("P", "*", "L=", "{x}.reshape(-1)[lane]"),
    ("P", "*", "L=", "{x}.reshape(-1)[2 * lane + 1]"),
    ("P", "h", "Lh", "__low2half({x})"),
    ("P", "h", "Lf", "__high2float({x})"),
    ("P", "h", "Lf", "__low2float({x})"),
    ("P", "h", "P=", "__hadd2({x}, {x})"),
    ("P", "h", "P=", "__hmul2({x}, {x})"),
    ("P", "h", "P=", "h2exp({x})"),
    ("P", "h", "P=", "__lowhigh2highlow({x})"),
    ("P", "h", "P=", "__hneg2({x})"),
    ("P", "h", "P=", "h2sqrt(__habs2({x}))"),
    ("P", "h", "P=", "__hmax2({x}, __hneg2({x}))"),
    ("P", "h", "Lu", "__heq2_mask({x}, {x})"),
    ("P", "h", "Lb", "__hbeq2({x}, {x})"),
    ("P", "h", "P=", "__hisnan2({x})"),
    ("P", "h", "Mf2", "__half22float2({x})"),
    ("P", "h", "Lu", "{x}.view(np.uint32)[:, 0]"),
    ("P", "h", "Mu2", "{x}.view(np.uint16)"),
    ("P", "h", "P=", "__low2half2({x})"),
    ("P", "h", "P=", "__lows2half2({x}, {x})"),
    ("P", "h", "P=", "__hfma2({x}, {x}, {x})"),
    ("P", "h", "S=", "__low2half({x})[0]"),
    ("P", "h", "S=", "__hadd2({x}, {x})[0, 1]"),
    ("P", "*", "S=", "{x}.sum()"),
    ("P", "*", "Sip", "len({x})"),
    ("P", "*", "S=", "np.asarray({x})[0, 0]"),
])


# --- sources: every kind of value a kernel holds ----------------------------------------------

def _sources(g: _Gen) -> list:
    """(weight, function) pairs; each function emits statements and returns a Val."""
    return [
        (2, g.src_lanes), (2, g.src_loads), (1, g.src_frag), (1, g.src_regs),
        (1, g.src_vector_load), (1, g.src_builtin), (1, g.src_crosslane),
        (1, g.src_intrinsic), (2, g.src_pair), (1, g.src_atomic), (3, g.src_block),
        (1, g.src_uniform), (1, g.src_lds), (1, g.src_numpy),
    ]


@dataclass
class Case:
    """One generated kernel and its launch."""

    seed: int
    source: str
    arch: str
    grid: tuple[int, int]
    block: tuple[int, int]
    batch_lanes: int | None
    slots: int
    inputs: dict
    slot_lines: dict = field(default_factory=dict)  # slot -> first source line (1-based)

    @property
    def wave(self) -> int:
        return ARCHS[self.arch]

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1]

    @property
    def block_threads(self) -> int:
        return self.block[0] * self.block[1]

    @property
    def narrow(self) -> bool:
        """One partial wave per block: fewer threads than the wave size."""
        return self.block_threads < self.wave

    @property
    def waves_per_block(self) -> int:
        return -(-self.block_threads // self.wave)

    @property
    def threads(self) -> int:
        return self.blocks * self.block_threads

    def launch_text(self) -> str:
        waves = (f"1 wave of {self.wave} with {self.block_threads} threads" if self.narrow
                 else f"{self.waves_per_block} waves of {self.wave}")
        return (f"fuzz[{self.grid}, {self.block}, 0, {self.arch!r}] ({self.blocks} blocks x "
                f"{waves}; batch lanes {self.batch_lanes or 'default'})")


class _Gen:
    def __init__(self, rng: np.random.Generator, arch: str, grid, block) -> None:
        self.rng = rng
        self.arch = arch
        self.W = ARCHS[arch]
        self.grid, self.block = grid, block
        self.G = grid[0] * grid[1]
        self.bs = block[0] * block[1]  # threads of a block: T counts threads, not lanes
        self.T = self.G * self.bs
        self.wpb = -(-self.bs // self.W)
        self.narrow = self.bs < self.W
        self.lines: list[str] = []
        self.n = 0
        self.sites = 0  # atomic counters used

    # helpers
    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def emit(self, *lines: str) -> None:
        for line in lines:
            self.lines.extend("    " + part for part in line.split("\n"))

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    # sources
    def src_lanes(self) -> Val:
        options = [("threadIdx.x", "i", False), ("lane", "i", False), ("gid", "i", False),
                   ("lane_id() * 2 - 7", "i", False), ("__lane_id()", "i", False),
                   ("threadIdx.x % 5 - 2", "i", False)]
        if self.narrow:  # tid is the lane in every thread, not in the lanes past them
            options += [("tid - lane", "i", True), ("(tid - lane) * 3 + bid", "i", True),
                        ("np.where(lane < blockDim.x * blockDim.y, gid, -1)", "i", False),
                        ("(lane >= blockDim.x * blockDim.y) + 0", "i", True)]
        expr, num, uniform = self.pick(options)
        v = self.fresh()
        self.emit(f"{v} = {expr}")
        return Val(v, "L", num, uniform=uniform)

    def src_loads(self) -> Val:
        expr, num = self.pick([("src[gid]", "f"), ("isrc[gid]", "i"), ("hsrc[gid]", "h"),
                               ("src[(gid + 1) % T]", "f"), ("(src + 1)[gid]", "f"),
                               ("isrc.cast(np.uint32)[gid]", "u"),
                               ("src[gid] * (bid + 1)", "f")])
        v = self.fresh()
        self.emit(f"{v} = {expr}")
        return Val(v, "L", num)

    def src_frag(self) -> Val:
        f, v = self.fresh("f"), self.fresh()
        rows = 256 // self.W
        e = int(self.rng.integers(rows))
        self.emit(f"{f} = FragAcc()", f"fill_fragment({f}, np.float32(0.5))",
                  f"{f}.x[{e}] = {f}.x[{e}] + src[gid] * (bid + 1)")
        if self.chance(0.5):
            self.emit(f"{v} = {f}.x")
            return Val(v, "F", "f", cols=rows)
        self.emit(f"{v} = {f}.x[{e}]")
        return Val(v, "L", "f")

    def src_regs(self) -> Val:
        r, v = self.fresh("r"), self.fresh()
        self.emit(f"{r} = Vec4(src[gid] + lane)",
                  f"{r}[{int(self.rng.integers(4))}] = src[gid] * 3")
        if self.chance(0.6):
            self.emit(f"{v} = {r}.regs")
            return Val(v, "M", "f", cols=4)
        self.emit(f"{v} = {r}.regs[:, {int(self.rng.integers(4))}]")
        return Val(v, "L", "f")

    def src_vector_load(self) -> Val:
        v = self.fresh()
        self.emit(f"{v} = (src + (gid & ~1)).load(2)")
        return Val(v, "M", "f", cols=2)

    def src_builtin(self) -> Val:
        v = self.fresh()
        if self.arch == "gfx942":
            self.emit(f"{v} = amdgcn.mfma_f32_16x16x4f32(src[gid] * 0.5, src[(gid + 1) % T] + bid, "
                      "np.zeros((64, 4), np.float32), 0, 0, 0)")
            return Val(v, "M", "f", cols=4)
        if self.arch == "gfx1100":
            self.emit(f"{v} = amdgcn.wmma_f32_16x16x16_f16_w32(H16(hsrc[gid]).regs, "
                      "H16(hsrc[(gid + 3) % T]).regs, np.zeros((32, 8), np.float32))")
        else:
            self.emit(f"{v} = amdgcn.wmma_f32_16x16x16_f16_w32_gfx12(H8(hsrc[gid]).regs, "
                      "H8(hsrc[(gid + 3) % T]).regs, np.zeros((32, 8), np.float32))")
        return Val(v, "M", "f", cols=8)

    def src_crosslane(self) -> Val:
        v = self.fresh()
        expr, num, uniform = self.pick([
            ("__shfl_xor(src[gid], 1)", "f", False),
            ("__shfl_down(isrc[gid], 2)", "i", False),
            ("__shfl(src[gid], 0)", "f", True),
            ("__ballot(src[gid] > 0)", "u", True),
            ("__popcll(__ballot(isrc[gid] > 0))", "i", True),
            ("amdgcn.readfirstlane(isrc[gid])", "i", True),
            ("__activemask()", "u", True),
        ] + ([  # lanes past the threads as sources: 0 (DS_BPERMUTE), read anyway (readlane)
            (f"__shfl(src[gid], {self.bs})", "f", True),
            (f"__shfl_down(src[gid], {max(1, self.bs // 2)})", "f", False),
            (f"amdgcn.readlane(isrc[gid], {self.W - 1})", "i", True),
        ] if self.narrow else []))
        self.emit(f"{v} = {expr}")
        return Val(v, "L", num, uniform=uniform)

    def src_intrinsic(self) -> Val:
        v = self.fresh()
        expr, num = self.pick([("__hadd(hsrc[gid], hsrc[gid])", "h"),
                               ("hexp(hsrc[gid] * np.float16(0.25))", "h"),
                               ("__expf(src[gid])", "f"), ("__fmaf_rn(src[gid], 2, 1)", "f"),
                               ("__float2half(src[gid])", "h"), ("hsqrt(__habs(hsrc[gid]))", "h"),
                               ("__half2float(hsrc[gid])", "f"), ("__saturatef(src[gid])", "f")])
        self.emit(f"{v} = {expr}")
        return Val(v, "L", num)

    def src_pair(self) -> Val:
        v = self.fresh()
        self.emit(f"{v} = " + self.pick([
            "__hadd2(__halves2half2(hsrc[gid], hsrc[(gid + 1) % T]), "
            "__floats2half2_rn(src[gid], 1.0))",
            "h2exp(__floats2half2_rn(src[gid] * 0.25, 0.5))",
            "__floats2half2_rn(src[gid], bid)",
            "__hmul2(__half2half2(hsrc[gid]), __floats2half2_rn(2.0, -1.0))",
            "__hfma2(__halves2half2(hsrc[gid], hsrc[gid]), __float2half2_rn(0.5), "
            "__floats2half2_rn(1.0, bid))",
            "__lowhigh2highlow(__halves2half2(hsrc[gid], __float2half(src[gid])))",
            "h2sqrt(__habs2(__halves2half2(hsrc[gid], hsrc[gid])))",
        ]))
        return Val(v, "P", "h", cols=2)

    def src_atomic(self) -> Val:
        site = self.sites
        self.sites += 1
        v = self.fresh()
        if self.chance(0.5):
            self.emit(f"{v} = atomicAdd(cnt + ({site * self.G} + bid), 1)")
            return Val(v, "L", "i")
        self.emit(f"{v} = atomicAdd(fcnt + ({site * self.G} + bid), src[gid] * 1000)")
        return Val(v, "L", "f")

    def src_block(self) -> Val:
        v = self.fresh()
        expr, num = self.pick([
            ("blockIdx.x", "i"), ("bid", "i"), ("blockIdx.x * 3 + 1", "i"), ("bid - 2", "i"),
            ("bid / 3", "f"), ("(bid + 1) * 0.5", "f"), ("bid % 2 == 0", "b"),
            ("gridDim.x - blockIdx.x", "i"), ("bid // 2", "i"), ("-bid", "i"),
            ("bid ** 2", "i"), ("bid * 1000003", "i"), ("bid + 2 ** 62", "i"),
            ("True + bid", "i"), ("abs(bid - 3)", "i"), ("max(bid, 2)", "i"),
            ("int(blockIdx.x)", "i"), ("bid & 1", "i"), ("blockIdx.y", "i"),
            ("blockIdx.y * 10 + blockIdx.x", "i"), ("bid * 0.1", "f"), ("bid > 2", "b"),
        ])
        self.emit(f"{v} = {expr}")
        return Val(v, "S", num, py=True, uniform=True)

    def src_uniform(self) -> Val:
        v = self.fresh()
        if self.chance(0.5) or self.block[1] == 1 or self.narrow:  # threadIdx.y: wave rows
            expr, num, kind = self.pick([
                (f"threadIdx.x // {self.W}", "i", "L"), ("lane * 0 + bid", "i", "L"),
                ("src[bid]", "f", "S"), ("isrc[bid % 7]", "i", "S"),
                ("hsrc[bid]", "h", "S"), (f"(threadIdx.x // {self.W}) * 0.5", "f", "L")])
        else:
            expr, num, kind = ("threadIdx.y", "i", "L")
        self.emit(f"{v} = {expr}")
        return Val(v, kind, num, uniform=True)

    def src_lds(self) -> Val:
        s, v = self.fresh("s"), self.fresh()
        bs = self.bs
        shift = bs // 2 + 1 if self.narrow else self.W  # another thread: of the wave, or not
        self.emit(f"{s} = shared_array(np.float32, {bs})", f"{s}[tid] = src[gid]",
                  "synchronize_workgroup()", f"{v} = {s}[(tid + {shift}) % {bs}]",
                  "synchronize_workgroup()")
        return Val(v, "L", "f")

    def src_numpy(self) -> Val:
        v = self.fresh()
        expr, num = self.pick([("np.sin(src[gid])", "f"), ("src[gid] * bid", "f"),
                               ("np.where(lane % 2 == 0, src[gid], isrc[gid])", "f"),
                               ("select(lane > 3, src[gid], 0.0)", "f"),
                               ("(isrc[gid] > 0) & (lane % 3 == 0)", "b"),
                               ("np.float16(0.5) * (bid + 1) + hsrc[gid]", "h")])
        self.emit(f"{v} = {expr}")
        return Val(v, "L", num)

    # escapes
    def apply(self, v: Val, esc: Escape) -> Val:
        e = self.fresh("e")
        t = self.fresh("t")
        subs = {"x": v.name, "e": e, "t": t, "W": str(self.W),
                "c": str(int(self.rng.integers(1, 6))),
                "m": str(self.pick([1, 2, self.W // 2])),
                "k": str(int(self.rng.integers(max(1, v.cols))))}
        text = esc.template.format(**subs)
        if "{e}" in esc.template:
            self.emit(text)
        else:
            self.emit(f"{e} = {text}")
        return _result(esc.res, v, e)

    def store(self, slot: int, v: Val) -> None:
        value = v.name
        if v.kind in "MFPAO" or v.num in "o?" or (v.kind == "L" and self.chance(0.15)):
            value = f"digest({v.name})"
        elif v.num in "cX":
            value = f"np.real({v.name})"
        self.emit(f"out[{slot} * T + gid] = {value}")
        if self.wpb == 1 and v.kind == "S" and value == v.name and self.chance(0.3):
            self.emit(f"blk[{slot} * G + bid] = {value}")


_GROUPS = sorted({e.group for e in ESCAPES})


def _pick_escape(g: _Gen, v: Val, allow_risky: bool) -> Escape | None:
    groups = [grp for grp in _GROUPS
              if any(e.group == grp and applies(e, v) and (allow_risky or not e.risky)
                     for e in ESCAPES)]
    if not groups:
        return None
    grp = g.pick(groups)
    options = [e for e in ESCAPES
               if e.group == grp and applies(e, v) and (allow_risky or not e.risky)]
    return g.pick(options)


def generate(seed: int) -> Case:
    """A random kernel (source, launch and inputs) from `seed`."""
    rng = np.random.default_rng(seed)
    arch = str(rng.choice(list(ARCHS)))
    w = ARCHS[arch]
    wpb = int(rng.choice([1, 1, 2, 3, 4]))
    if wpb > 1 and rng.random() < 0.3:
        block = (w, wpb)
    else:
        block = (w * wpb, 1)
    blocks = int(rng.integers(3, 10))
    if rng.random() < 0.25 and blocks in (4, 6, 8, 9):
        gy = 2 if blocks != 9 else 3
        grid = (blocks // gy, gy)
    else:
        grid = (blocks, 1)
    narrow = _narrow_block(seed, w)
    if narrow is not None:
        block = narrow
    g = _Gen(rng, arch, grid, block)
    batch_lanes = None if rng.random() < 0.7 else 2 * g.wpb * w  # lanes: a block has waves
    g.emit(f"T, G, W = {g.T}, {g.G}, {w}",
           "lane = lane_id()",
           "tid = threadIdx.y * blockDim.x + threadIdx.x" if block[1] > 1 else
           "tid = threadIdx.x",
           "bid = blockIdx.y * gridDim.x + blockIdx.x" if grid[1] > 1 else "bid = blockIdx.x",
           "gid = bid * (blockDim.x * blockDim.y) + tid")
    sources = _sources(g)
    weights = np.array([s[0] for s in sources], float)
    pool: list[Val] = []
    for _ in range(int(rng.integers(2, 5))):
        fn = sources[int(rng.choice(len(sources), p=weights / weights.sum()))][1]
        pool.append(fn())
    slots = int(rng.integers(4, 10))
    slot_lines = {}
    used = 0
    for slot in range(slots):
        v = g.pick(pool)
        last = slot == slots - 1
        esc = _pick_escape(g, v, allow_risky=last and g.chance(0.5))
        if esc is None:
            continue
        slot_lines[slot] = len(g.lines) + 1
        result = g.apply(v, esc)
        if result.kind != "O" and g.chance(0.3):
            second = _pick_escape(g, result, allow_risky=False)
            if second is not None:
                result = g.apply(result, second)
        g.store(slot, result)
        used = slot + 1
        if result.kind in "LSMFPA" and result.num != "o":
            pool.append(result)
    header = PRELUDE + "\n\n@kernel\ndef fuzz(src, isrc, hsrc, out, blk, cnt, fcnt):\n"
    offset = header.count("\n")
    slot_lines = {s: line + offset for s, line in slot_lines.items()}
    source = header + "\n".join(g.lines) + "\n"
    t = g.T
    src = rng.integers(-32, 33, t + 8).astype(np.float32) * np.float32(0.25)
    isrc = rng.integers(-20, 21, t + 8).astype(np.int32)
    if rng.random() < 0.15:  # special values in a few lanes
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 1e30, 65504.0, 1e-40], np.float32)
        where = rng.choice(t, size=min(4, t), replace=False)  # 1-thread blocks: T >= 3
        src[where] = rng.choice(specials, size=where.size)
        isrc[where[:2]] = rng.choice(np.array([2**31 - 1, -2**31, 0], np.int64), 2)
    with np.errstate(over="ignore"):
        hsrc = src.astype(np.float16)
    inputs = {
        "src": src,
        "isrc": isrc,
        "hsrc": hsrc,
        "out": np.zeros(max(used, 1) * t, np.float64),
        "blk": np.zeros(max(used, 1) * g.G, np.float64),
        "cnt": np.zeros(max(g.sites, 1) * g.G, np.int32),
        "fcnt": np.zeros(max(g.sites, 1) * g.G, np.float32),
    }
    return Case(seed, source, arch, grid, block, batch_lanes, used, inputs, slot_lines)


# --- running and comparing ------------------------------------------------------------------

@dataclass
class Outcome:
    """What a launch left behind: every buffer and the exception (type, message)."""

    buffers: dict
    error: tuple | None
    stats: object = None


@contextmanager
def _env(name: str, value: str | None):
    old = os.environ.get(name)
    if value is not None:
        os.environ[name] = value
    try:
        yield
    finally:
        if value is not None:
            if old is None:
                del os.environ[name]
            else:
                os.environ[name] = old


@contextmanager
def spread_small_grids():
    """Let `use_workers(n)` really spread these small grids over worker processes (the
    worker module keeps launches under 16 blocks or 0.5 s in the launching process)."""
    from rocwmma_py.runtime import workers

    saved = workers.MIN_PARALLEL_S, workers.MIN_BLOCKS, workers.PAYOFF
    workers.MIN_PARALLEL_S, workers.MIN_BLOCKS, workers.PAYOFF = 0.0, 2, float("inf")
    try:
        yield
    finally:
        workers.MIN_PARALLEL_S, workers.MIN_BLOCKS, workers.PAYOFF = saved


MODES = ("wave", "batch", "workers")


def compile_case(case: Case) -> dict:
    namespace: dict = {"__name__": f"escape_fuzz_case_{case.seed}"}
    exec(compile(case.source, f"<escape kernel {case.seed}>", "exec"), namespace)  # noqa: S102
    return namespace


def run_case(case: Case, mode: str) -> Outcome:
    """Launch `case` with fresh copies of its inputs: mode "wave" (per-wave engine, the
    reference), "batch" (batched engine) or "workers" (batched, use_workers(2), spread)."""
    from rocwmma_py.runtime import last_launch_stats, use_engine, use_workers

    namespace = compile_case(case)
    buffers = {k: v.copy() for k, v in case.inputs.items()}
    error = None
    lanes = None if case.batch_lanes is None else str(case.batch_lanes)
    spread = spread_small_grids() if mode == "workers" else _null()
    with (use_engine("wave" if mode == "wave" else "batch"),
          use_workers(2 if mode == "workers" else 1), spread,
          _env("ROCWMMA_PY_BATCH_LANES", lanes), warnings.catch_warnings(),
          np.errstate(all="ignore")):
        warnings.simplefilter("ignore")
        try:
            namespace["fuzz"][case.grid, case.block, 0, case.arch](
                buffers["src"], buffers["isrc"], buffers["hsrc"], buffers["out"],
                buffers["blk"], buffers["cnt"], buffers["fcnt"])
        except Exception as err:  # noqa: BLE001 - compared between engines
            error = (type(err), str(err))
    return Outcome(buffers, error, last_launch_stats())


@contextmanager
def _null():
    yield


def _numbered(source: str, first: int) -> str:
    lines = source.splitlines()
    return "\n".join(f"{i:4d}  {line}" for i, line in enumerate(lines, 1) if i >= first)


def _error_text(error: tuple | None) -> str:
    if error is None:
        return "no exception"
    text = error[1] if len(error[1]) < 600 else error[1][:600] + "..."
    return f"{error[0].__module__}.{error[0].__qualname__}: {text}"


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind in "fc" else a


def compare(case: Case, ref: Outcome, got: Outcome, label: str) -> list[str]:
    """Differences between the reference and `got`, as readable lines ([] if none)."""
    problems = []
    if ref.error != got.error:
        problems.append(f"{label}: exception differs\n    per-wave: {_error_text(ref.error)}\n"
                        f"    {label}: {_error_text(got.error)}")
    for name, expected in ref.buffers.items():
        actual = got.buffers[name]
        if expected.tobytes() == actual.tobytes():
            continue
        differ = np.flatnonzero(_bits(expected) != _bits(actual))
        if differ.size == 0:  # NaN with the same bits compare unequal: cannot happen here
            differ = np.arange(1)
        nan_only = (expected.dtype.kind == "f"
                    and np.array_equal(expected, actual, equal_nan=True))
        stride = case.threads if name == "out" else case.blocks if name == "blk" else 0
        if stride:
            slots = sorted({int(i) // stride for i in differ})
            where = ", ".join(f"slot {s} (line {case.slot_lines.get(s, '?')})" for s in slots)
        else:
            where = f"elements {differ[:8].tolist()}"
        first = differ[:4]
        shown = "; ".join(f"[{i}] per-wave {expected[i]!r} vs {actual[i]!r}" for i in first)
        note = " (NaN payloads only)" if nan_only else ""
        problems.append(f"{label}: buffer {name} differs{note} in {where}: {differ.size} "
                        f"elements, e.g. {shown}")
    return problems


def check(seed: int, modes: tuple[str, ...] = ("batch", "workers")) -> str:
    """Run kernel `seed` per wave and in `modes`; a failure report, or "" if all agree."""
    case = generate(seed)
    ref = run_case(case, "wave")
    problems = []
    for mode in modes:
        problems += compare(case, ref, run_case(case, mode), mode)
    if not problems:
        return ""
    first_line = case.source.count("\n", 0, case.source.index("@kernel")) + 1
    return (f"escape kernel seed {seed}: {case.launch_text()}\n"
            + "\n".join(problems) + "\n" + _numbered(case.source, first_line))


if __name__ == "__main__":  # python tests/escape_fuzz.py SEED [SEED...]: print reports
    import sys

    for arg in sys.argv[1:]:
        report = check(int(arg))
        print(report or f"seed {arg}: all engines agree")
