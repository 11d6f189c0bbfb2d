"""rocwmma-notes formulas written out independently of the library, for the tests:
the §6.1 padding rule and the §2.4 / §2.6 register layouts (explicit loops on purpose)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from rocwmma_py import (
    bfloat8,
    bfloat8_fnuz,
    bfloat16,
    col_major,
    float8,
    float8_fnuz,
    float16,
    float32,
    float64,
    int8,
    int32,
    uint8,
    uint32,
    xfloat32,
)


def next_multiple(x: int, m: int) -> int:
    return -(-x // m) * m


def padded(m: int, n: int, k: int, nbytes: int, wave: int) -> tuple[int, int, int]:
    """§6.1 IOTile padding rule, written out."""
    mept = math.ceil(4 / nbytes)
    mepf = wave * mept
    min_k = max(mept, mepf // next_multiple(m, 16), mepf // next_multiple(n, 16))
    if (m * k) % mepf or (n * k) % mepf or (m * n) % mepf:
        return next_multiple(m, 16), next_multiple(n, 16), next_multiple(k, min_k)
    return m, n, k


def input_positions(which: str, block_dim: int, k_dim: int, wave: int, layout):
    """§2.4 interleaved A/B layout: DPT = BlockDim/16, KPT = BlockK*16/W; lane (h, c) owns
    BlockDim positions c*DPT + d and K positions h*KPT + k. AOS (e = k*DPT + d) for A col_major
    and B row_major, SOA (e = d*KPT + k) otherwise. Returns (row, col), each (elements, W)."""
    dpt, kpt = block_dim // 16, k_dim * 16 // wave
    rows, cols = np.zeros((2, dpt * kpt, wave), np.int64)
    for lane in range(wave):
        h, c = lane // 16, lane % 16
        aos = (which == "a") == (layout is col_major)  # A col_major / B row_major
        for d in range(dpt):
            for k in range(kpt):
                e = k * dpt + d if aos else d * kpt + k
                bd_pos, k_pos = c * dpt + d, h * kpt + k
                if which == "a":
                    rows[e, lane], cols[e, lane] = bd_pos, k_pos
                else:
                    rows[e, lane], cols[e, lane] = k_pos, bd_pos
    return rows, cols


def native_acc(family: str, f64: bool, h: int, c: int, r: int) -> tuple[int, int]:
    """§2.6 native 16x16 position of register r in lane (h, c)."""
    if family == "gfx9":
        return (h + 4 * r, c) if f64 else (4 * h + r, c)
    if family == "gfx11":
        return 2 * r + h, c
    return 8 * h + r, c  # gfx12


def acc_positions(m: int, n: int, wave: int, family: str, f64: bool = False):
    """§2.6 ACC_INT_A_MAJOR: e = (bm*BlocksN + bn)*R + r; row = i*BlocksM + bm,
    col = j*BlocksN + bn."""
    blocks_m, blocks_n, regs = m // 16, n // 16, 256 // wave
    rows, cols = np.zeros((2, blocks_m * blocks_n * regs, wave), np.int64)
    for lane in range(wave):
        for bm in range(blocks_m):
            for bn in range(blocks_n):
                for r in range(regs):
                    i, j = native_acc(family, f64, lane // 16, lane % 16, r)
                    e = (bm * blocks_n + bn) * regs + r
                    rows[e, lane], cols[e, lane] = i * blocks_m + bm, j * blocks_n + bn
    return rows, cols


# --- §2.1/§3/§8 facts: wave size and fragment data types per architecture ---------------

WAVE = {"gfx908": 64, "gfx90a": 64, "gfx942": 64, "gfx950": 64, "gfx1100": 32,
        "gfx1101": 32, "gfx1102": 32, "gfx1103": 32, "gfx1150": 32, "gfx1151": 32,
        "gfx1152": 32, "gfx1153": 32, "gfx1200": 32, "gfx1201": 32, "gfx1170": 32,
        "gfx1250": 32, "gfx1251": 32}  # fmt: skip
# gfx9 / gfx11 / gfx12 fragment layouts; gfx1170 (RDNA 4m) and gfx1250/1251 take rocWMMA's
# gfx12 ones (rocWMMA develop serves gfx1250 with its gfx12 code path)
FAMILY = {a: "gfx9" if WAVE[a] == 64 else "gfx11" if a < "gfx1170" else "gfx12" for a in WAVE}
TYPES = {
    "f16": (float16, 2, np.float16), "bf16": (bfloat16, 2, ml_dtypes.bfloat16),
    "f32": (float32, 4, np.float32), "f64": (float64, 8, np.float64),
    "i8": (int8, 1, np.int8), "u8": (uint8, 1, np.uint8), "i32": (int32, 4, np.int32),
    "u32": (uint32, 4, np.uint32), "f8": (float8, 1, ml_dtypes.float8_e4m3fn),
    "bf8": (bfloat8, 1, ml_dtypes.float8_e5m2),
    "f8_fnuz": (float8_fnuz, 1, ml_dtypes.float8_e4m3fnuz),
    "bf8_fnuz": (bfloat8_fnuz, 1, ml_dtypes.float8_e5m2fnuz), "xf32": (xfloat32, 4, np.float32),
}  # fmt: skip
COMMON_TYPES = ["f16", "bf16", "f32", "i8", "u8", "i32", "u32"]
ARCH_TYPES = {
    "gfx908": COMMON_TYPES, "gfx90a": COMMON_TYPES + ["f64"],
    "gfx942": COMMON_TYPES + ["f64", "xf32", "f8_fnuz", "bf8_fnuz"],
    "gfx950": COMMON_TYPES + ["f64", "f8", "bf8"],
    "gfx1100": COMMON_TYPES, "gfx1101": COMMON_TYPES, "gfx1102": COMMON_TYPES,
    "gfx1103": COMMON_TYPES, "gfx1150": COMMON_TYPES, "gfx1151": COMMON_TYPES,
    "gfx1152": COMMON_TYPES, "gfx1153": COMMON_TYPES,
    "gfx1200": COMMON_TYPES + ["f8", "bf8"], "gfx1201": COMMON_TYPES + ["f8", "bf8"],
    # gfx1170 (sparse.md §7: RDNA4's WMMA feature set) and gfx1250/1251 (rocWMMA develop's
    # gfx12 code path, rocwmma-notes §2.1): gfx12's fragment types
    "gfx1170": COMMON_TYPES + ["f8", "bf8"], "gfx1250": COMMON_TYPES + ["f8", "bf8"],
    "gfx1251": COMMON_TYPES + ["f8", "bf8"],
}  # fmt: skip
