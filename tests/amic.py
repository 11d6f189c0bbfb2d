"""The AMD Matrix Instruction Calculator dumps (tests/data/amic, copied from
shared/reference/amic with its README), the independent oracle for every register layout."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

AMIC_DIR = Path(__file__).resolve().parent / "data" / "amic"
# The calculator's generation -> the gfx target whose table we check it against.
TARGET = {"CDNA1": "gfx908", "CDNA2": "gfx90a", "CDNA3": "gfx942", "RDNA3": "gfx1100",
          "RDNA4": "gfx1200"}


def dense_files() -> list[Path]:
    """Every dense (non-sparse) instruction dump."""
    files = sorted(p for p in AMIC_DIR.glob("*__*.json"))
    return [p for p in files if not load(p)["meta"]["sparse"]]


@cache
def load(path: Path) -> dict:
    return json.loads(path.read_text())


def entries(matrix: dict) -> np.ndarray:
    """(n, 7+) int array: block, row, col, lane, vgpr, bit_lo, bit_hi[, neg, abs]."""
    return np.asarray(matrix["entries"], dtype=np.int64)
