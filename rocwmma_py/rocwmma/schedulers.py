"""Fragment schedulers (rocWMMA 2.x `fragment_scheduler`, rocwmma-notes §1.4): which waves of a
workgroup cooperate on a fragment, and which share of it each one holds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .errors import FragmentError


@dataclass(frozen=True)
class Scheduler:
    """A scheduler class instance: `kind` plus the thread-block template arguments."""

    kind: str  # default, row_major_2d, col_major_2d, row_slice_2d, col_slice_2d, single
    tbx: int = 0
    tby: int = 0
    wave_idx: int = 0

    @property
    def cooperative(self) -> bool:
        return self.kind not in ("default", "single")

    def waves(self, wave_size: int) -> tuple[int, int]:
        """(WX, WY): waves per block along x and y for these template arguments."""
        if self.tbx % wave_size or self.tbx == 0 or self.tby == 0:
            raise FragmentError(
                f"{self}: TBlockX={self.tbx} must be a positive multiple of the wave size "
                f"{wave_size} and TBlockY={self.tby} positive"
            )
        return self.tbx // wave_size, self.tby

    def check_block(self, wave_size: int, block_dim) -> None:
        """Refuse a launch block whose wave grid differs from the template's: rocWMMA would
        silently leave shares unloaded (or load some twice)."""
        if self.kind == "default":
            return
        wx, wy = self.waves(wave_size)
        if self.kind == "single" and self.wave_idx >= wx * wy:
            raise FragmentError(
                f"{self}: WaveIdx={self.wave_idx} names no wave of a {wx}x{wy}-wave block "
                f"({self.tbx}, {self.tby}) threads; WaveIdx must be < {wx * wy}"
            )
        bx, by = block_dim.x / wave_size, block_dim.y
        if (bx, by, block_dim.z) != (wx, wy, 1):
            raise FragmentError(
                f"{self} expects a block of {wx}x{wy} waves ({self.tbx}, {self.tby}) threads, "
                f"but the kernel was launched with block ({block_dim.x}, {block_dim.y}, "
                f"{block_dim.z}) = {bx:g}x{by} waves of {wave_size} lanes"
                + (f" x {block_dim.z} in z" if block_dim.z != 1 else "")
                + "; launch with the scheduler's TBlockX/TBlockY or change the template arguments"
            )

    def wave_count(self, wave_size: int) -> int:
        """How many waves share one fragment (its registers are split that many ways)."""
        if not self.cooperative:
            return 1
        wx, wy = self.waves(wave_size)
        return {"row_major_2d": wx * wy, "col_major_2d": wx * wy,
                "row_slice_2d": wy, "col_slice_2d": wx}[self.kind]

    def wave_index(self, wave_size: int, wave_x, wave_y):
        """The calling wave's share index; >= wave_count means it sits this fragment out.
        wave_x/wave_y may be ints or arrays (one entry per wave of a batch)."""
        if self.kind == "default":
            return 0
        wx, wy = self.waves(wave_size)
        if self.kind == "single":
            index = np.asarray(wave_x * wy + wave_y - self.wave_idx)
            wrapped = np.where(index >= 0, index, 1 << 32)  # unsigned wrap in rocWMMA
            return wrapped if wrapped.ndim else int(wrapped)
        return {"row_major_2d": wave_x * wy + wave_y, "col_major_2d": wave_y * wx + wave_x,
                "row_slice_2d": wave_y, "col_slice_2d": wave_x}[self.kind]

    def __str__(self) -> str:
        if self.kind == "default":
            return "default_schedule"
        args = f"{self.tbx}, {self.tby}" + (f", {self.wave_idx}" if self.kind == "single" else "")
        name = self.kind if self.kind == "single" else "coop_" + self.kind
        return f"{name}[{args}]"


_ARG_NAMES = ("TBlockX", "TBlockY", "WaveIdx")


class _Template:
    """`name[TBlockX, TBlockY]` spelling of a scheduler template."""

    def __init__(self, kind: str, arity: tuple[int, ...]) -> None:
        self.kind, self.arity = kind, arity

    @cache  # noqa: B019 - a handful of module-level instances
    def __getitem__(self, args) -> Scheduler:
        args = args if isinstance(args, tuple) else (args,)
        if len(args) not in self.arity or not all(_is_count(a) for a in args):
            raise FragmentError(
                f"{self!r}[{', '.join(map(repr, args))}]: takes "
                f"{' or '.join(map(str, self.arity))} non-negative integers "
                f"[{', '.join(_ARG_NAMES[:max(self.arity)])}]"
            )
        return Scheduler(self.kind, *(int(a) for a in args))

    def __repr__(self) -> str:
        prefix = "" if self.kind == "single" else "coop_"
        return f"fragment_scheduler.{prefix}{self.kind}"


def _is_count(value) -> bool:
    """A template argument that is an integer >= 0 (not a bool or a float like 64.9)."""
    return bool(isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
                and value >= 0)


class fragment_scheduler:  # noqa: N801 - rocWMMA namespace
    """`default_schedule`, `coop_row_major_2d[TBX, TBY]`, `coop_col_major_2d`,
    `coop_row_slice_2d`, `coop_col_slice_2d`, `single[TBX, TBY, WaveIdx=0]`."""

    default_schedule = Scheduler("default")
    coop_row_major_2d = _Template("row_major_2d", (2,))
    coop_col_major_2d = _Template("col_major_2d", (2,))
    coop_row_slice_2d = _Template("row_slice_2d", (2,))
    coop_col_slice_2d = _Template("col_slice_2d", (2,))
    single = _Template("single", (2, 3))
