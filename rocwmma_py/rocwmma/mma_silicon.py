"""`mma_sync` under a silicon numerics model: the K chain instruction by instruction, each
instruction seeing its K values in the order of its own registers.

The exact model sums a set; the silicon's result depends on the order and grouping of K inside
an instruction (groups of consecutive K positions, fp8's even/odd halves, FMA order), so each
chained instruction gets a dense (..., M, K_instr) operand whose column p holds the fragment K
value that rocWMMA places at instruction K position p: lane group h feeds the instruction's
positions col[16h, t] (the A layout) with its kb-th chunk of K values, h*KPT + kb*chunk + t.
A fragment K smaller than the instruction's is zero-padded in every lane's registers (§3.1),
so the missing positions of each lane group hold zeros.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import types as T
from ..arch.instructions import Instruction
from ..arch.models import collapsed_chain, compute
from ..arch.numerics import accumulator_values


@cache
def instruction_k_orders(instr: Instruction, block_k: int, wave: int) -> tuple[np.ndarray, ...]:
    """For each chained instruction, the fragment K index at each of its K positions
    (block_k, one past the fragment's K, where the registers hold padding zeros)."""
    groups = wave // 16
    kpt, ikpt = block_k // groups, instr.k // groups
    chunk = min(kpt, ikpt)
    h = np.arange(groups)[:, None]
    t = np.arange(chunk)[None, :]
    positions = instr.a_layout.col[h * 16, t]  # instruction K index of (lane group, slot)
    orders = []
    for kb in range(max(1, block_k // instr.k)):
        order = np.full(instr.k, block_k)
        order[positions] = h * kpt + kb * chunk + t
        orders.append(order)
    return tuple(orders)


def silicon_chain(model: str, instr: Instruction, a: np.ndarray, b: np.ndarray, acc: np.ndarray,
                  frag_type, round_to_acc: bool, wave: int) -> np.ndarray:
    """D = A*B + C of one mma_sync as values of `frag_type`: a (..., M, BlockK),
    b (..., BlockK, N), acc (..., M, N) decoded; every instruction rounds (and a 16-bit
    accumulator is rounded back after each)."""
    block_k = a.shape[-1]
    orders = instruction_k_orders(instr, block_k, wave)
    whole = collapsed_chain(model, instr, a, b, acc, frag_type)
    if whole is not None:  # provably what the chain gives: one exact sum
        return accumulator_values(T.convert(whole, frag_type) if round_to_acc else whole,
                                  frag_type)
    if block_k < instr.k:  # the padding zeros get an index of their own
        a = np.concatenate([a, np.zeros((*a.shape[:-1], 1))], axis=-1)
        b = np.concatenate([b, np.zeros((*b.shape[:-2], 1, b.shape[-1]))], axis=-2)
    for order in orders:
        step = compute(model, instr, a[..., order], b[..., order, :], acc)
        if round_to_acc:
            step = T.convert(step, frag_type)
        acc = accumulator_values(step, frag_type)
    return acc
