"""4:2 structured sparsity on the host: compress a pruned matrix for the sparse matrix
instructions (`amdgcn.smfmac_*`, `amdgcn.swmmac_*`), place it in their registers, and back.

A 4:2 sparse row keeps at most 2 non-zeros in every group of 4 consecutive columns. Its
compressed form stores 2 values per group (`values`, K/2 columns) and where each sat
(`indices`, 0..3). A group with fewer than 2 non-zeros stores zeros at the lowest free
positions, so the two indices of a group are distinct and ascending: the form every sparse
instruction reads the same on every target (hardware multiplies every stored value, zero
or not, so what fills a free slot must be 0).

    packed = compress_4to2(a)                       # a: (M, K) with 4:2 rows
    a_regs, index = packed.registers("smfmac_f32_16x16x32_f16", arch="gfx942")
    d = amdgcn.smfmac_f32_16x16x32_f16(a_regs, b_regs, c, index, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import types as T
from .amdgcn import instruction
from .arch import Arch, get_arch
from .arch.instructions import Instruction
from .errors import SparsityError
from .runtime import current_arch

GROUP = 4  # dense columns per group
KEPT = 2  # stored values per group


@dataclass(frozen=True)
class Compressed:
    """A 4:2 sparse matrix: `values` (..., M, K/2) in the dense matrix's dtype and `indices`
    (..., M, K/2) uint8, the position (0..3) of each stored value inside its group of four."""

    values: np.ndarray
    indices: np.ndarray

    @property
    def dense_shape(self) -> tuple[int, ...]:
        return (*self.values.shape[:-1], self.values.shape[-1] * GROUP // KEPT)

    def dense(self) -> np.ndarray:
        """The dense matrix again (`decompress`)."""
        return decompress(self)

    def registers(self, builtin: str, arch: str | Arch | None = None,
                  index_set: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(a, index) as the sparse builtin takes them: A's stored values as (lanes, S)
        elements of the instruction's A type, and one int32 index word per lane (two, as
        (lanes, 2), where 2 bits per stored value need 64: gfx1250 8-bit) with the
        indices in set `index_set` (bits 2e + 2*S*set of each lane, other sets 0).

        The matrix must be the instruction's compressed A: (M, K/2)."""
        instr = _sparse_instruction(builtin, arch)
        _check_set(instr, index_set)
        lay = instr.a_layout
        want = (instr.m, instr.a_k)
        if self.values.shape != want:
            raise SparsityError(f"{builtin}: the compressed A must be {want[0]} x {want[1]} "
                                f"(M x K/2); got shape {self.values.shape}")
        lane, slot = lay.written
        rows, cols = lay.row[lane, slot], lay.col[lane, slot]
        a = np.zeros((lay.lanes, lay.slots), T.storage_dtype(instr.a_type))
        a[lane, slot] = T.convert(self.values[rows, cols], instr.a_type)
        fields = self.indices[rows, cols].astype(np.uint64) << (
            2 * slot + 2 * lay.slots * index_set).astype(np.uint64)
        words = np.zeros(lay.lanes, np.uint64)
        np.bitwise_or.at(words, lane, fields)
        if instr.index_words == 2:  # gfx1250 8-bit: a v2i32 per lane, low word first
            return a, words.view(np.int32).reshape(lay.lanes, 2)
        return a, words.astype(np.uint32).view(np.int32)


def compress_4to2(dense: Any) -> Compressed:
    """The compressed form of a matrix whose rows are 4:2 sparse (last axis: K, a multiple
    of 4). Refuses a matrix with 3 or 4 non-zeros in a group, naming the first such group.
    NaN counts as non-zero; zeros of either sign may be dropped."""
    a = np.asarray(dense)
    if a.ndim < 2 or a.shape[-1] % GROUP:
        raise SparsityError(f"compress_4to2: need a matrix (..., M, K) with K a multiple of "
                            f"{GROUP}; got shape {a.shape}")
    groups = a.reshape(*a.shape[:-1], -1, GROUP)
    nonzero = groups != 0
    count = nonzero.sum(axis=-1)
    if (count > KEPT).any():
        where = tuple(int(x[0]) for x in np.nonzero(count > KEPT))
        *lead, row, group = where
        cols = np.arange(GROUP * group, GROUP * group + GROUP)
        at = f"row {row}" + (f" of matrix {tuple(lead)}" if lead else "")
        raise SparsityError(
            f"compress_4to2: the matrix is not 4:2 sparse: {at}, group {group} (columns "
            f"{cols[0]}-{cols[-1]}) holds {int(count[where])} non-zeros "
            f"{groups[where].tolist()}; at most {KEPT} of every {GROUP} may be non-zero"
        )
    position = np.arange(GROUP)
    # non-zeros first, then the lowest free positions; each group's pair in ascending order
    keep = np.sort(np.argsort(np.where(nonzero, position, position + GROUP), axis=-1,
                              kind="stable")[..., :KEPT], axis=-1)
    values = np.take_along_axis(groups, keep, axis=-1)
    values = np.where(np.take_along_axis(nonzero, keep, axis=-1), values, np.zeros_like(values))
    shape = (*a.shape[:-1], a.shape[-1] // GROUP * KEPT)
    return Compressed(values.reshape(shape), keep.astype(np.uint8).reshape(shape))


def decompress(packed: Compressed) -> np.ndarray:
    """The dense matrix of a compressed one. Refuses indices outside 0..3 and a group whose
    two values claim the same position (which a dense matrix cannot hold)."""
    values, indices = np.asarray(packed.values), np.asarray(packed.indices)
    if values.shape != indices.shape or values.ndim < 2 or values.shape[-1] % KEPT:
        raise SparsityError(f"decompress: values and indices must both be (..., M, K/2) with "
                            f"K/2 even; got {values.shape} and {indices.shape}")
    if indices.size and (indices.min() < 0 or indices.max() >= GROUP):
        raise SparsityError(f"decompress: indices must be 0..{GROUP - 1}; got values from "
                            f"{indices.min()} to {indices.max()}")
    pairs = indices.reshape(*indices.shape[:-1], -1, KEPT).astype(np.intp)
    same = pairs[..., 0] == pairs[..., 1]
    if same.any():
        *lead, row, group = (int(x[0]) for x in np.nonzero(same))
        raise SparsityError(f"decompress: row {row}, group {group}: both stored values claim "
                            f"position {pairs[(*lead, row, group, 0)]}; a dense matrix holds "
                            "one value per position")
    groups = np.zeros((*pairs.shape[:-1], GROUP), values.dtype)
    np.put_along_axis(groups, pairs, values.reshape(pairs.shape), axis=-1)
    return groups.reshape(*values.shape[:-1], -1)


def from_registers(builtin: str, a: Any, index: Any, arch: str | Arch | None = None,
                   index_set: int = 0) -> Compressed:
    """The compressed A a sparse builtin reads from `a` and `index` (index set `index_set`):
    the inverse of `Compressed.registers`, e.g. to look at registers a kernel built."""
    instr = _sparse_instruction(builtin, arch)
    _check_set(instr, index_set)
    lay = instr.a_layout
    el = T.as_elements(np.asarray(a).reshape(lay.lanes, -1), instr.a_type, lay.slots)
    parts = (np.asarray(index).reshape(lay.lanes, -1).astype(np.int64) & 0xFFFFFFFF).astype(
        np.uint64)
    words = parts[:, 0] if parts.shape[1] == 1 else parts[:, 0] | parts[:, 1] << np.uint64(32)
    lane, slot = lay.written
    rows, cols = lay.row[lane, slot], lay.col[lane, slot]
    values = np.zeros((instr.m, instr.a_k), el.dtype)
    indices = np.zeros((instr.m, instr.a_k), np.uint8)
    values[rows, cols] = el[lane, slot]
    shift = (2 * slot + 2 * lay.slots * index_set).astype(np.uint64)
    indices[rows, cols] = (words[lane] >> shift) & np.uint64(3)
    return Compressed(values, indices)


def _sparse_instruction(builtin: str, arch: str | Arch | None) -> Instruction:
    instr = instruction(builtin, get_arch(arch) if arch is not None else current_arch())
    if not instr.sparse:
        raise SparsityError(f"{builtin} is a dense instruction; the sparse ones are "
                            "smfmac_* (gfx942, gfx950) and swmmac_* (gfx1200, gfx1201, "
                            "gfx1170, gfx1250, gfx1251)")
    return instr


def _check_set(instr: Instruction, index_set: int) -> None:
    if index_set not in range(instr.index_sets):
        raise SparsityError(f"{instr.builtin}: index_set={index_set!r} is not allowed "
                            f"(allowed: 0..{instr.index_sets - 1})")


__all__ = ["Compressed", "compress_4to2", "decompress", "from_registers"]
