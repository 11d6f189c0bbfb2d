"""One `mma_sync`: its K-chain of matrix instructions under any numerics model.

A fragment's K (BlockK) is covered by BlockK / K_instr chained instructions, each rounding
its result (a 16-bit accumulator is rounded back after each one as well). Instruction kb
sees, at its K position p, the fragment K value rocWMMA's registers put there: lane group h
feeds the positions col[16h, t] of the instruction's A layout with its kb-th chunk of K values,
h*KPT + kb*chunk + t. A fragment K smaller than the instruction's is zero-padded in every
lane's registers (§3.1). Models that sum a set (the exact one) ignore that order; the silicon
ones depend on it (groups, fp8 halves, FMA order). Where `models.collapsed_chain` proves the
chain equals one exact sum, it is computed as one.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import types as T
from .instructions import Instruction
from .models import EXACT, Collapsed, arithmetic, collapsed_chain
from .numerics import Shared, accumulator_values, facts_of


@cache
def k_orders(instr: Instruction, block_k: int, wave: int) -> tuple[np.ndarray, ...]:
    """For each chained instruction, the fragment K index at each of its K positions
    (block_k, one past the fragment's K, where the registers hold padding zeros)."""
    groups = wave // 16
    kpt, ikpt = block_k // groups, instr.k // groups
    chunk = min(kpt, ikpt)
    h = np.arange(groups)[:, None]
    t = np.arange(chunk)[None, :]
    if instr.a_layout.copies.shape[0] > 1:  # gfx11: every lane group holds all of K, and
        positions = h * ikpt + t  # lane group h's chunk fills the h-th part of it
    else:  # the instruction K index of (lane group, slot)
        positions = instr.a_layout.col[h * 16, t]
    orders = []
    for kb in range(max(1, block_k // instr.k)):
        order = np.full(instr.k, block_k)
        order[positions] = h * kpt + kb * chunk + t
        orders.append(order)
    return tuple(orders)


@cache
def _k_sets(instr: Instruction, block_k: int, wave: int) -> tuple[slice | np.ndarray, ...]:
    """The fragment K indices each chained instruction sums, ascending, padding left out
    (for models that sum a set): all of K as one slice when one instruction covers it."""
    orders = k_orders(instr, block_k, wave)
    if len(orders) == 1:
        return (slice(None),)
    return tuple(np.sort(order[order < block_k]) for order in orders)


@cache
def _steps(instr: Instruction, block_k: int, wave: int, order_free: bool
           ) -> tuple[slice | np.ndarray, ...]:
    """What `run_chain` indexes K with per instruction: `_k_sets` for models that sum a set,
    else `k_orders`, where an order is K itself as a slice (a view, not a copy)."""
    if order_free:
        return _k_sets(instr, block_k, wave)
    identity = np.arange(block_k)
    return tuple(slice(None) if np.array_equal(order, identity) else order
                 for order in k_orders(instr, block_k, wave))


def run_chain(model: str, instr: Instruction, a: np.ndarray, b: np.ndarray, acc: np.ndarray,
              frag_type, *, round_to_acc: bool, wave: int, clamp: bool = False,
              known: Collapsed | None = None,
              shared: tuple[Shared | None, Shared | None] = (None, None)
              ) -> tuple[np.ndarray, Collapsed | None]:
    """D = A*B + C of one mma_sync as values of `frag_type` (`accumulator_values`):
    a (..., M, BlockK), b (..., BlockK, N), acc (..., M, N) decoded, for every wave of the
    batch at once; with the collapse that gave it (for the next step's `known`: the one
    that gave acc), or None. `shared`: the distinct tiles of a and b, where known (one
    exact sum reads each once)."""
    arith = arithmetic(model, instr, clamp)
    block_k = a.shape[-1]
    steps = _steps(instr, block_k, wave, arith.order_free)
    if len(steps) > 1 or model != EXACT:  # one exact sum, where provably the same
        whole = collapsed_chain(arith, instr, a, b, acc, frag_type, clamp, known, shared)
        if whole is not None:
            d = _rounded(whole.d, frag_type, round_to_acc)
            return d, None if round_to_acc else whole._replace(d=d)
    if not arith.order_free and block_k < instr.k:  # the padding zeros get an index
        a = np.concatenate([a, np.zeros((*a.shape[:-1], 1))], axis=-1)
        b = np.concatenate([b, np.zeros((*b.shape[:-2], 1, b.shape[-1]))], axis=-2)
    for ks in steps:
        a_k, b_k, facts = _step_operands(a, b, ks, shared)
        acc = _rounded(arith.compute(a_k, b_k, acc, **({"shared": facts} if arith.shares else {})),
                       frag_type, round_to_acc)
    return acc, None


def _step_operands(a: np.ndarray, b: np.ndarray, ks: slice | np.ndarray,
                   shared: tuple[Shared | None, Shared | None]
                   ) -> tuple[np.ndarray, np.ndarray, tuple[Shared | None, Shared | None]]:
    """a[..., ks], b[..., ks, :] (a and b themselves where ks is all of K) and their
    `Shared` facts, taken from those of a and b (None where they are not facts of a, b)."""
    whole = isinstance(ks, slice) and ks == slice(None)

    def k_of(x: np.ndarray, axis: int) -> np.ndarray:
        return x if whole else x[..., ks] if axis == -1 else x[..., ks, :]

    parts = (k_of(a, -1), k_of(b, -2))
    own = (facts_of(a, shared[0]), facts_of(b, shared[1]))
    facts = tuple(f if f is None or part is x else Shared(part, k_of(f.distinct, axis), f.at)
                  for f, x, part, axis in zip(own, (a, b), parts, (-1, -2), strict=True))
    return parts[0], parts[1], facts  # type: ignore[return-value]  # (a pair)


def _rounded(d: np.ndarray, frag_type, round_to_acc: bool) -> np.ndarray:
    """An instruction's D as the fragment's accumulator values (rounded to a 16-bit
    fragment type when the instruction accumulates in 32 bits)."""
    return accumulator_values(T.convert(d, frag_type) if round_to_acc else d, frag_type)
