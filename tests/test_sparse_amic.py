"""Every sparse AMIC dump (14 gfx942 SMFMAC, 11 gfx12 SWMMAC, both wave sizes, every index
set): the emulator's layouts and its arithmetic against the calculator's placement of A, B,
K (the index register) and D.

The calculator lists A by dense (i, k): the 2w-bit slot that holds the two stored values of
k's group of four, the first one in the low w bits; K by dense (i, k): the 4-bit nibble of
that group's two indices, the first one in the low 2 bits (sparse.md §2.2, §2.3). The
execution test writes registers from the dump alone, runs the instruction and reads D back
from the dump's D locations.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from amic import AMIC_DIR, TARGET, entries, load

from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.execute import execute

pytestmark = pytest.mark.smoke

FILES = sorted(p for p in AMIC_DIR.glob("*__*.json") if load(p)["meta"]["sparse"])


def _instruction(doc: dict, wave: int):
    arch = get_arch(TARGET[doc["arch"]])
    found = [i for i in arch.instructions.values()
             if i.isa == doc["instruction"] and i.wave == wave]
    assert len(found) == 1, (doc["instruction"], wave, [i.builtin for i in found])
    assert found[0].sparse
    return found[0]


def _variants():
    for path in FILES:
        for v, variant in enumerate(load(path)["variants"]):
            yield pytest.param(path, v, id=f"{path.stem}-w{variant['wave']}-{v}")


def _index_set(mods: dict) -> int:
    """The set a variant shows: RDNA4's OPSEL, or CDNA3's ABID when CBSZ is 0."""
    if "opsel" in mods:
        return mods["opsel"]
    return mods.get("abid", 0) if mods.get("cbsz", 0) == 0 else 0


def _set_kwargs(instr, index_set: int) -> dict:
    return dict(cbsz=0, abid=index_set) if instr.family == "gfx9" else dict(index_key=index_set)


def test_every_sparse_dump_is_covered():
    assert len(FILES) == 25
    seen = {(load(p)["arch"], load(p)["instruction"]) for p in FILES}
    assert sum(a == "CDNA3" for a, _ in seen) == 14 and sum(a == "RDNA4" for a, _ in seen) == 11
    for path in FILES:
        doc = load(path)
        sets = {}
        for variant in doc["variants"]:
            sets.setdefault(variant["wave"], set()).add(_index_set(variant["modifiers"]))
            assert {"K"} <= set(variant["matrices"])
        for wave, found in sets.items():  # the dumps hold every index set of the instruction
            assert found == set(range(_instruction(doc, wave).index_sets)), (path.stem, wave)


def _stored_slot(instr, i: np.ndarray, k: np.ndarray):
    """(lane, element) of the first stored value of dense (i, k)'s group, from our layout;
    the second must sit in the next element of the same lane."""
    lay = instr.a_layout
    where = {}
    lane, slot = lay.written
    for ln, sl in zip(lane.tolist(), slot.tolist(), strict=True):
        where[(int(lay.row[ln, sl]), int(lay.col[ln, sl]))] = (ln, sl)
    first = [where[(r, 2 * (c // 4))] for r, c in zip(i.tolist(), k.tolist(), strict=True)]
    second = [where[(r, 2 * (c // 4) + 1)] for r, c in zip(i.tolist(), k.tolist(), strict=True)]
    first_a = np.array(first)
    assert np.array_equal(np.array(second), first_a + [0, 1])
    return first_a[:, 0], first_a[:, 1]


@pytest.mark.parametrize("path,v", list(_variants()))
def test_layout_matches_calculator(path, v):
    doc = load(path)
    variant = doc["variants"][v]
    instr = _instruction(doc, variant["wave"])
    index_set = _index_set(variant["modifiers"])
    w = T.bits(instr.a_type)
    for name, matrix in variant["matrices"].items():
        e = entries(matrix)
        got = {tuple(x[:7]) for x in e.tolist()}
        if name == "B":
            assert instr.b_layout.locations() == got
        elif name == "D":
            assert instr.c_layout().locations() == got
        else:  # A and K by dense (i, k), both located through the compressed A layout
            lane, elem = _stored_slot(instr, e[:, 1], e[:, 2])
            if name == "A":
                bit, width = elem * w, 2 * w
            else:
                bit, width = 2 * elem + 2 * instr.a_layout.slots * index_set, 4
            want = np.stack([e[:, 0], e[:, 1], e[:, 2], lane, bit // 32, bit % 32,
                             bit % 32 + width - 1], axis=1)
            assert {tuple(x) for x in want.tolist()} == got, name


# --- execution: registers written from the dump alone -----------------------------------------


def _bits_of(values: np.ndarray, t) -> np.ndarray:
    """The w-bit encodings of small integer values in type t."""
    w = T.bits(t)
    if T.is_float(t):
        raw = values.astype(T.storage_dtype(t)).view(f"u{w // 8}")
        return raw.astype(np.uint64)
    return (values.astype(np.int64) & ((1 << w) - 1)).astype(np.uint64)


def _put(words: np.ndarray, lane, vgpr, lo, bits: np.ndarray) -> None:
    np.bitwise_or.at(words, (lane, vgpr), bits << lo.astype(np.uint64))


def _operand(words: np.ndarray, t) -> np.ndarray:
    """uint32 words as the element view the instruction reads (16-/32-bit floats by value)."""
    w32 = words.astype(np.uint32)
    if T.is_float(t) and T.bits(t) in (16, 32):
        return w32.view(T.storage_dtype(t))
    return w32.view(np.int32)


@pytest.mark.parametrize("path,v", list(_variants()))
def test_execution_reads_the_calculators_registers(path, v):
    doc = load(path)
    variant = doc["variants"][v]
    instr = _instruction(doc, variant["wave"])
    base = next(x for x in doc["variants"] if x["wave"] == variant["wave"] and not x["modifiers"])
    mats = {**base["matrices"], **variant["matrices"]}
    index_set = _index_set(variant["modifiers"])
    rng = np.random.default_rng(zlib.crc32(f"{path.stem}{v}".encode()))
    m, n, k = instr.m, instr.n, instr.k
    lanes = instr.wave
    values = rng.integers(-3, 4, (m, k // 2))
    idx = rng.integers(0, 4, (m, k // 2))  # duplicates and any order: the gather form
    b = rng.integers(-3, 4, (k, n))
    c = rng.integers(-9, 10, (m, n))

    def words_for(name: str):
        return np.zeros((lanes, mats[name]["num_vgprs"]), np.uint64)

    a_words, b_words, c_words = words_for("A"), words_for("B"), words_for("D")
    index_words = np.zeros((lanes, 1), np.uint64)
    # a foreign pattern in every other set: reading the wrong set changes D
    for other in range(instr.index_sets):
        if other != index_set:
            index_words |= np.uint64(rng.integers(0, 2**32)) & np.uint64(
                ((1 << 2 * instr.a_layout.slots) - 1) << 2 * instr.a_layout.slots * other)
    w = T.bits(instr.a_type)
    ea = entries(mats["A"])
    g = ea[:, 2] // 4
    pair = _bits_of(values[ea[:, 1], 2 * g], instr.a_type) | (
        _bits_of(values[ea[:, 1], 2 * g + 1], instr.a_type) << np.uint64(w))
    a_dedup = np.unique(np.stack([ea[:, 3], ea[:, 4], ea[:, 5], ea[:, 1], g], 1), axis=0,
                        return_index=True)[1]
    _put(a_words, ea[a_dedup, 3], ea[a_dedup, 4], ea[a_dedup, 5], pair[a_dedup])
    ek = entries(mats["K"])
    gk = ek[:, 2] // 4
    nibble = (idx[ek[:, 1], 2 * gk] | idx[ek[:, 1], 2 * gk + 1] << 2).astype(np.uint64)
    k_dedup = np.unique(np.stack([ek[:, 3], ek[:, 5], ek[:, 1], gk], 1), axis=0,
                        return_index=True)[1]
    _put(index_words, ek[k_dedup, 3], ek[k_dedup, 4], ek[k_dedup, 5], nibble[k_dedup])
    eb = entries(mats["B"])
    _put(b_words, eb[:, 3], eb[:, 4], eb[:, 5], _bits_of(b[eb[:, 1], eb[:, 2]], instr.b_type))
    ed = entries(mats["D"])
    _put(c_words, ed[:, 3], ed[:, 4], ed[:, 5], _bits_of(c[ed[:, 1], ed[:, 2]], instr.c_type))

    a_type = instr.a_type
    d = execute(instr, _operand(a_words, a_type), _operand(b_words, instr.b_type),
                _operand(c_words, instr.c_type), index=index_words[:, 0].astype(np.uint32),
                **_set_kwargs(instr, index_set))
    rows = 4 * (np.arange(k // 2) // 2) + idx  # the gather form, sparse.md §2.1
    want = c + np.einsum("ik,ikj->ij", values, b[rows])
    d_words = np.asarray(d).view(np.uint32).astype(np.uint64)
    wd = T.bits(instr.c_type)
    got_bits = (d_words[ed[:, 3], ed[:, 4]] >> ed[:, 5].astype(np.uint64)) & np.uint64(
        (1 << wd) - 1)
    want_bits = _bits_of(want[ed[:, 1], ed[:, 2]], instr.c_type)
    np.testing.assert_array_equal(got_bits, want_bits)
