"""The silicon numerics against MMA-Sim's outputs: every stored vector, bit for bit.

tests/data/silicon-vectors/ (copied from shared/reference/silicon-vectors, see its README)
holds inputs and the outputs of Microsoft's MMA-Sim, a model validated bit for bit against
MI100/MI200/MI300, for every MFMA it covers on gfx908, gfx90a and gfx942 and seven data sets.
Each call's A, B and C go into the wave's registers through the instruction's own operand
layouts; the public builtin under `use_numerics("silicon")` must give back the stored D
(NaN matches any NaN, everything else bit for bit, -0 and +0 differ).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import amdgcn, numerics_model, use_arch, use_numerics

DATA = Path(__file__).parent / "data" / "silicon-vectors"
ARCHS = ("gfx908", "gfx90a", "gfx942")
VIEW = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "xf32": np.float32,
        "f64": np.float64, "fp8": ml_dtypes.float8_e4m3fnuz, "bf8": ml_dtypes.float8_e5m2fnuz}


@cache
def archive(arch: str):
    z = np.load(DATA / f"{arch}.npz")
    return z, json.loads(str(z["index"]))


def cases():
    for arch in ARCHS:
        _, meta = archive(arch)
        for ins in meta["instructions"]:
            for ds in meta["datasets"]:
                yield pytest.param(arch, ins["isa"], ds, id=f"{arch}-{ins['isa']}-{ds}")


def registers(layout, matrix: np.ndarray) -> np.ndarray:
    """(lanes, slots) registers holding matrix[block, row, col] where the layout says."""
    used = layout.block >= 0
    regs = np.zeros(layout.block.shape, matrix.dtype)
    regs[used] = matrix[layout.block[used], layout.row[used], layout.col[used]]
    return regs


def silicon_d(arch: str, ins: dict, a, b, c) -> np.ndarray:
    """D of every call through the public builtin, shaped like the stored D."""
    builtin = getattr(amdgcn, ins["builtin"])
    instr = amdgcn.instruction(ins["builtin"], arch)
    lay = instr.c_layout(0)
    out = np.empty_like(c)
    for call in range(a.shape[0]):
        d_regs = builtin(registers(instr.a_layout, a[call]), registers(instr.b_layout, b[call]),
                         registers(lay, c[call]), 0, 0, 0)
        out[call][lay.block, lay.row, lay.col] = d_regs
    return out


@pytest.mark.parametrize("arch, isa, dataset", list(cases()))
def test_vector(arch, isa, dataset):
    z, meta = archive(arch)
    ins = next(i for i in meta["instructions"] if i["isa"] == isa)
    get = lambda x, t: z[f"{isa}__{dataset}__{x}"].view(VIEW[ins[t]])  # noqa: E731
    a, b, c, d = get("A", "a_type"), get("B", "b_type"), get("C", "c_type"), get("D", "c_type")
    with use_numerics("silicon"), use_arch(arch):
        assert numerics_model(arch) == meta["cdna"].lower()
        mine = silicon_d(arch, ins, a, b, c)
    uint = np.uint32 if d.dtype == np.float32 else np.uint64
    same = (mine.view(uint) == d.view(uint)) | (np.isnan(mine) & np.isnan(d))
    bad = np.argwhere(~same)
    assert not bad.size, (f"{bad.shape[0]} of {d.size} outputs differ, first at "
                          f"{tuple(bad[0])}: {mine[tuple(bad[0])]!r} vs {d[tuple(bad[0])]!r}")
