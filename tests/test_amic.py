"""Every dense AMIC dump, every variant: the emulator's layouts and its arithmetic agree with
the calculator's placement of every element of A, B, C and D."""

from __future__ import annotations

import numpy as np
import pytest
from amic import TARGET, dense_files, entries, load

from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.execute import execute

pytestmark = pytest.mark.smoke

FILES = dense_files()


def _instruction(doc: dict, wave: int):
    arch = get_arch(TARGET[doc["arch"]])
    name = doc["instruction"]
    found = [i for i in arch.instructions.values() if i.isa == name and i.wave == wave]
    assert len(found) == 1, f"{name} (wave {wave}) on {arch.name}: {[i.builtin for i in found]}"
    return found[0]


def _cases():
    for path in FILES:
        doc = load(path)
        for v, variant in enumerate(doc["variants"]):
            yield pytest.param(path, v, id=f"{path.stem}-w{variant['wave']}-{v}")


def test_every_dense_dump_is_covered():
    assert len(FILES) == 70  # 88 dumps minus the 18 sparse ones
    for path in FILES:
        doc = load(path)
        for variant in doc["variants"]:
            _instruction(doc, variant["wave"])


def _placed(entries_):
    return {tuple(e[:7]) for e in entries_.tolist()}


@pytest.mark.parametrize("path,v", list(_cases()))
def test_layout_matches_calculator(path, v):
    doc = load(path)
    variant = doc["variants"][v]
    instr = _instruction(doc, variant["wave"])
    mods = variant["modifiers"]
    for name, matrix in variant["matrices"].items():
        if name == "A":
            lay = instr.a_layout
        elif name == "B":
            lay = instr.b_layout
        else:
            lay = instr.c_layout(mods.get("opsel", 0))
        if mods and name in "AB" and instr.family == "gfx9":
            continue  # CBSZ/ABID/BLGP change what is read, checked by the execution test
        assert lay.locations() == _placed(entries(matrix)), f"{instr.builtin} {name}"


# --- execution: place values where the calculator says, run, read D where it says ----------


def _write(buf: np.ndarray, ent: np.ndarray, values: np.ndarray, t) -> None:
    """Store element values at the calculator's (lane, vgpr, bit_lo) locations."""
    bits = T.bits(t)
    pattern = np.asarray(T.convert(values, t)).view(f"u{max(bits, 8) // 8}").astype(np.uint64)
    lane, byte = ent[:, 3], ent[:, 4] * 4 + ent[:, 5] // 8
    if bits == 4:
        shift = (ent[:, 5] % 8).astype(np.uint64)
        np.bitwise_or.at(buf, (lane, byte), ((pattern & 0xF) << shift).astype(np.uint8))
        return
    for t_byte in range(bits // 8):
        buf[lane, byte + t_byte] = (pattern >> (8 * t_byte)) & 0xFF


def _read(buf: np.ndarray, ent: np.ndarray, t) -> np.ndarray:
    bits = T.bits(t)
    lane, byte = ent[:, 3], ent[:, 4] * 4 + ent[:, 5] // 8
    if bits == 4:
        nibble = (buf[lane, byte] >> (ent[:, 5] % 8).astype(np.uint8)) & 0xF
        return T.unpack(nibble.astype(np.uint32)[:, None], t)[:, 0]  # low nibble = element 0
    word = np.zeros(len(ent), np.uint64)
    for t_byte in range(bits // 8):
        word |= buf[lane, byte + t_byte].astype(np.uint64) << (8 * t_byte)
    return word.astype(f"u{bits // 8}").view(T.storage_dtype(t))


def _matrix(rng, shape, t):
    lo = -3 if T.is_signed(t) else 0
    return rng.integers(lo, 4, size=shape).astype(np.float64)


@pytest.mark.parametrize("path,v", list(_cases()))
def test_execution_reads_and_writes_where_calculator_says(path, v):
    doc = load(path)
    variant = doc["variants"][v]
    base = next(x for x in doc["variants"] if x["wave"] == variant["wave"] and not x["modifiers"])
    instr = _instruction(doc, variant["wave"])
    mods = dict(variant["modifiers"])
    mats = {**base["matrices"], **variant["matrices"]}
    rng = np.random.default_rng(v)
    shapes = {"A": (instr.blocks, instr.m, instr.k), "B": (instr.blocks, instr.k, instr.n),
              "C": (instr.blocks, instr.m, instr.n)}
    types = {"A": instr.a_type, "B": instr.b_type, "C": instr.c_type}
    regs, used = {}, {}
    for x in "ABC":
        ent = entries(mats[x])
        buf = np.zeros((instr.wave, mats[x]["num_vgprs"] * 4), np.uint8)
        _write(buf, ent, _matrix(rng, shapes[x], types[x])[ent[:, 0], ent[:, 1], ent[:, 2]],
               types[x])
        # What the calculator says the instruction uses: the value at each element's location
        # (under CBSZ/ABID/BLGP several elements share a location; the last write stands).
        eff = np.zeros(shapes[x])
        eff[ent[:, 0], ent[:, 1], ent[:, 2]] = _read(buf, ent, types[x])
        if ent.shape[1] > 7:
            eff[ent[:, 0], ent[:, 1], ent[:, 2]] *= np.where(ent[:, 7] == 1, -1, 1)
        regs[x], used[x] = buf, eff
    if instr.blgp == "neg":
        # CDNA3 f64 reuses BLGP as NEG[A, B, C]; the calculator dumps only B (bit 1). Bits 0
        # and 2 follow LLVM's encoding of `neg:[1,0,0]` as blgp=1 (MC tests for gfx940).
        used["A"] *= -1 if mods.get("blgp", 0) & 1 else 1
        used["C"] *= -1 if mods.get("blgp", 0) & 4 else 1
    opsel = mods.pop("opsel", 0)
    d = execute(instr, regs["A"], regs["B"], regs["C"], opsel=1 if opsel else 0, **mods)
    assert d.dtype == np.uint8 and d.shape == regs["C"].shape

    expected = np.einsum("bmk,bkn->bmn", used["A"], used["B"]) + used["C"]
    d_ent = entries(mats["D"])
    got = _read(d, d_ent, instr.c_type).astype(np.float64)
    np.testing.assert_array_equal(got, expected[d_ent[:, 0], d_ent[:, 1], d_ent[:, 2]])
