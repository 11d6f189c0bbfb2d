"""`rocwmma_py.sparse` on the host: compress_4to2 / decompress and Compressed.registers /
from_registers, for every sparse builtin on every target that has it.

Oracles: the dense matrix itself (round trips), the 4:2 form's own rules (two distinct,
ascending indices per group; free slots hold 0), the index-word bit layout of sparse.md §2.2
(bits 2e + 2S*set, other sets 0), and the refusal messages naming the offending place.
"""

from __future__ import annotations

import re
import zlib

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sparse_helpers import SPARSE, random_42

from rocwmma_py import types as T
from rocwmma_py.amdgcn import instruction
from rocwmma_py.errors import SparsityError
from rocwmma_py.sparse import Compressed, compress_4to2, decompress, from_registers

pytestmark = pytest.mark.smoke

DTYPES = [np.float16, np.float32, np.int8, ml_dtypes.bfloat16]


@st.composite
def sparse_matrices(draw):
    lead = draw(st.lists(st.integers(1, 3), max_size=2))
    shape = (*lead, draw(st.integers(1, 5)), 4 * draw(st.integers(1, 5)))
    dtype = draw(st.sampled_from(DTYPES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return random_42(rng, shape, dtype)


@settings(max_examples=60, deadline=None)
@given(sparse_matrices())
def test_compress_decompress_round_trip(dense):
    """decompress(compress_4to2(A)) == A bit for bit, for (..., M, 4g) of f16/f32/i8/bf16;
    each group's indices are distinct and ascending, values sit at their index, free slots 0."""
    packed = compress_4to2(dense)
    k = dense.shape[-1]
    assert packed.values.shape == packed.indices.shape == (*dense.shape[:-1], k // 2)
    assert packed.values.dtype == dense.dtype and packed.indices.dtype == np.uint8
    assert packed.dense_shape == dense.shape
    back = decompress(packed)
    assert back.dtype == dense.dtype
    assert back.tobytes() == dense.tobytes()
    pairs = packed.indices.reshape(*dense.shape[:-1], -1, 2)
    assert (pairs[..., 0] < pairs[..., 1]).all() and pairs.max(initial=0) <= 3
    groups = dense.reshape(*dense.shape[:-1], -1, 4)
    at = np.take_along_axis(groups, pairs.astype(np.intp), axis=-1)
    assert at.tobytes() == packed.values.reshape(pairs.shape).tobytes()
    # every non-zero is stored: as many stored non-zeros as the dense matrix has
    assert np.count_nonzero(packed.values) == np.count_nonzero(dense)


def test_lone_and_empty_groups_take_the_lowest_free_positions():
    """One non-zero at 3 -> indices (0, 3), values (0, v); none -> (0, 1); at 0 -> (0, 1)."""
    dense = np.array([[0, 0, 0, 5, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 2, 0]], np.int8)
    packed = compress_4to2(dense)
    assert packed.indices.tolist() == [[0, 3, 0, 1, 0, 1, 0, 2]]
    assert packed.values.tolist() == [[0, 5, 0, 0, 7, 0, 0, 2]]


@pytest.mark.parametrize("dense, where", [
    (np.array([[1, 2, 0, 0, 1, 0, 0, 0], [0, 1, 2, 3, 4, 5, 6, 0]], np.float32),
     "row 1, group 0 (columns 0-3) holds 3 non-zeros [0.0, 1.0, 2.0, 3.0]"),
    (np.array([[1, 2, 0, 0, 1, 2, 3, 4], [1, 2, 3, 0, 0, 0, 0, 0]], np.int8),
     "row 0, group 1 (columns 4-7) holds 4 non-zeros [1, 2, 3, 4]"),
    (np.array([[[0] * 8, [0] * 8], [[0] * 8, [0, 0, 0, 0, 9, 0, 9, 9]]], np.int8),
     "row 1 of matrix (1,), group 1 (columns 4-7) holds 3 non-zeros"),
    (np.array([[np.nan, 1, 2, 0]], np.float16),
     "row 0, group 0 (columns 0-3) holds 3 non-zeros"),
], ids=["3-nonzeros", "first-in-row-order", "batched", "nan-counts"])
def test_non_4to2_matrix_is_refused_naming_the_first_group(dense, where):
    """The message names the first offending (matrix, row, group) in row-major order, its
    columns and its values; NaN counts as a non-zero."""
    with pytest.raises(SparsityError, match=re.escape(where)) as err:
        compress_4to2(dense)
    assert "at most 2 of every 4 may be non-zero" in str(err.value)


@pytest.mark.parametrize("shape", [(4, 6), (2, 2, 3), (8,)])
def test_k_not_a_multiple_of_4_or_not_a_matrix_is_refused(shape):
    with pytest.raises(SparsityError, match=re.escape(f"got shape {shape}")):
        compress_4to2(np.zeros(shape, np.float32))


def test_decompress_refuses_duplicate_and_out_of_range_indices():
    """Two values claiming one position (row 1, group 1) and indices > 3 are refused."""
    values = np.ones((2, 4), np.float32)
    dup = np.array([[0, 1, 2, 3], [0, 1, 2, 2]], np.uint8)
    with pytest.raises(SparsityError, match=r"row 1, group 1: both stored values claim "
                                            r"position 2"):
        decompress(Compressed(values, dup))
    with pytest.raises(SparsityError, match=r"indices must be 0\.\.3; got values from 0 to 4"):
        decompress(Compressed(values, np.array([[0, 1, 2, 4], [0, 1, 2, 3]], np.uint8)))


def _random_compressed(rng, instr) -> Compressed:
    dt = T.storage_dtype(instr.a_type)
    low, high = (-7, 7) if T.bits(instr.a_type) == 4 else (-100, 100)
    kw = dict(low=low, high=high) if dt.kind in "iu" or T.bits(instr.a_type) == 4 else {}
    return compress_4to2(random_42(rng, (instr.m, instr.k), dt, **kw))


SPARSE_IDS = [f"{a}-{n}" for a, n in SPARSE]


@pytest.mark.parametrize("arch, name", SPARSE, ids=SPARSE_IDS)
def test_registers_round_trip_every_index_set(arch, name):
    """registers -> from_registers gives the compressed A back in every index set; the index
    words hold bits only in that set's field (2S bits at 2S*set), and reading another set
    gives all-zero indices."""
    instr = instruction(name, arch)
    rng = np.random.default_rng([zlib.crc32(name.encode()), instr.wave])
    packed = _random_compressed(rng, instr)
    slots = instr.a_layout.slots
    assert instr.index_sets == max(1, 32 // (2 * slots))  # 64 values: one 64-bit set
    for s in range(instr.index_sets):
        a, index = packed.registers(name, arch, index_set=s)
        assert a.shape == (instr.a_layout.lanes, slots) and index.dtype == np.int32
        words = index.view(np.uint32).reshape(instr.a_layout.lanes, -1)
        bits = [int(w) for w in words[:, 0]]
        if words.shape[1] == 2:  # gfx1250 8-bit: a v2i32, low word first
            bits = [lo | int(hi) << 32 for lo, hi in zip(bits, words[:, 1], strict=True)]
        field = ((1 << (2 * slots)) - 1) << (2 * slots * s)
        assert not any(b & ~field for b in bits)
        back = from_registers(name, a, index, arch=arch, index_set=s)
        assert back.values.tobytes() == packed.values.tobytes()
        np.testing.assert_array_equal(back.indices, packed.indices)
        np.testing.assert_array_equal(back.dense(), packed.dense())
        for other in set(range(instr.index_sets)) - {s}:
            assert not from_registers(name, a, index, arch=arch, index_set=other).indices.any()


@pytest.mark.parametrize("arch, name", SPARSE, ids=SPARSE_IDS)
def test_registers_refuse_bad_index_set_and_shape(arch, name):
    """index_set outside 0..sets-1 and a matrix that is not (M, K/2) raise SparsityError
    naming the allowed range / the expected shape."""
    instr = instruction(name, arch)
    packed = _random_compressed(np.random.default_rng(1), instr)
    allowed = f"(allowed: 0..{instr.index_sets - 1})"
    for bad in (-1, instr.index_sets):
        with pytest.raises(SparsityError, match=re.escape(f"index_set={bad} is not allowed "
                                                          f"{allowed}")):
            packed.registers(name, arch, index_set=bad)
        with pytest.raises(SparsityError, match=re.escape(allowed)):
            from_registers(name, *packed.registers(name, arch), arch=arch, index_set=bad)
    wrong = Compressed(packed.values[:, :-2], packed.indices[:, :-2])
    with pytest.raises(SparsityError, match=re.escape(
            f"must be {instr.m} x {instr.a_k} (M x K/2); got shape {wrong.values.shape}")):
        wrong.registers(name, arch)


@pytest.mark.parametrize("arch, name", [("gfx942", "mfma_f32_16x16x16f16"),
                                        ("gfx1201", "wmma_f32_16x16x16_f16_w32_gfx12")])
def test_dense_builtin_is_refused(arch, name):
    packed = compress_4to2(np.zeros((16, 16), np.float16))
    with pytest.raises(SparsityError, match=re.escape(f"{name} is a dense instruction")):
        packed.registers(name, arch)
    with pytest.raises(SparsityError, match="is a dense instruction"):
        from_registers(name, np.zeros((64, 4), np.float16), np.zeros(64, np.int32), arch=arch)
