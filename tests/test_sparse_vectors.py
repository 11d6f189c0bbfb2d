"""The 29 sparse test vectors of shared/reference/sparse-vectors (copied to tests/data): raw
registers in, D registers out, at the ISA level (the whole index word, the set chosen by
CBSZ/ABID or index_key) and through the builtins (the `int index` the builtin takes), plus
the compressed matrices against `rocwmma_py.sparse`.

Vectors marked speculative (out-of-order and duplicate indices) rest on the gather form
(sparse.md §2.5), which the emulator implements; gfx950 ones on its inferred layouts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rocwmma_py import amdgcn, sparse
from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.execute import execute
from rocwmma_py.runtime import use_arch

pytestmark = pytest.mark.smoke

DATA = Path(__file__).resolve().parent / "data" / "sparse-vectors"
META = json.loads((DATA / "vectors.json").read_text())["vectors"]
ARRAYS = np.load(DATA / "vectors.npz")
TARGET = {"gfx12": "gfx1201"}


def test_all_vectors_are_here():
    assert len(META) == 29
    assert {v["family"].split()[0] for v in META} == {"F1", "F2", "F3", "F4", "F5", "F6"}


def _words(v: dict, field: str) -> np.ndarray:
    return ARRAYS[f"{v['name']}/{field}"]


def _typed(words: np.ndarray, t) -> np.ndarray:
    """Words as the builtin's vector type: 16/32-bit floats by value, the rest as int words."""
    if T.is_float(t) and T.bits(t) in (16, 32):
        return words.view(T.storage_dtype(t))
    return words.view(np.int32)


def _case(v: dict):
    arch = TARGET.get(v["arch"], v["arch"])
    instr = get_arch(arch).instructions[v["builtin"]]
    operands = [_typed(_words(v, f), t) for f, t in
                (("a_regs", instr.a_type), ("b_regs", instr.b_type), ("c_regs", instr.c_type))]
    return arch, instr, operands


@pytest.mark.parametrize("v", META, ids=[v["name"] for v in META])
def test_isa_level(v):
    _, instr, (a, b, c) = _case(v)
    d = execute(instr, a, b, c, index=_words(v, "index_regs"), **v["modifiers"])
    np.testing.assert_array_equal(np.asarray(d).view(np.uint32), _words(v, "d_regs"))


@pytest.mark.parametrize("v", META, ids=[v["name"] for v in META])
def test_builtin(v):
    arch, instr, (a, b, c) = _case(v)
    mods = {k: x for k, x in v["modifiers"].items() if k != "index_key"}
    with use_arch(arch):
        d = getattr(amdgcn, v["builtin"])(a=a, b=b, c=c,
                                          index=_words(v, "builtin_index").view(np.int32), **mods)
    np.testing.assert_array_equal(np.asarray(d).view(np.uint32), _words(v, "d_regs"))


@pytest.mark.parametrize("v", [v for v in META if not v["speculative"]],
                         ids=[v["name"] for v in META if not v["speculative"]])
def test_compressed_matrices(v):
    """compress_4to2 of the dense A gives the vector's values and indices wherever the vector
    stores a group's pair in ascending order; decompressing gives the dense A back."""
    dense = np.asarray(ARRAYS[f"{v['name']}/A_dense"])
    packed = sparse.compress_4to2(dense)
    np.testing.assert_array_equal(packed.dense(), dense)
    want = sparse.Compressed(ARRAYS[f"{v['name']}/A_values"], ARRAYS[f"{v['name']}/A_index"])
    np.testing.assert_array_equal(want.dense(), dense)
    mine = packed.dense()
    np.testing.assert_array_equal(mine, sparse.decompress(want))


def test_worked_example_registers():
    """sparse.md §4: a 16x64 4:2 int8 matrix, its compressed form and every lane's registers
    for v_smfmac_i32_16x16x64_i8 (set 0), both ways."""
    doc = json.loads((DATA / "worked_example.json").read_text())
    dense = np.array(doc["A_dense_16x64"], np.int8)
    packed = sparse.compress_4to2(dense)
    np.testing.assert_array_equal(packed.values, doc["A_values_16x32"])
    np.testing.assert_array_equal(packed.indices, doc["A_index_16x32"])
    a, index = packed.registers("smfmac_i32_16x16x64_i8", arch="gfx942")
    want_a = np.array([[int(w, 16) for w in lane] for lane in doc["a_regs_hex"]], np.uint32)
    np.testing.assert_array_equal(a.view(np.uint32), want_a)
    np.testing.assert_array_equal(index.view(np.uint32),
                                  [int(w, 16) for w in doc["index_regs_hex"]])
    back = sparse.from_registers("smfmac_i32_16x16x64_i8", a, index, arch="gfx942")
    np.testing.assert_array_equal(back.dense(), dense)
