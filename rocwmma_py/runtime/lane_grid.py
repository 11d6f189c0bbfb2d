"""Per-lane ints known by their form, each wave's shift plus one pattern of lanes, built into
an array only when something looks at them.

A kernel's addresses are mostly thread-linear: `x[row * ncols + col + threadIdx.x]`. Kept as
(shifts per wave, pattern per lane), their index arithmetic costs a per-wave add instead of a
pass over every lane, and a load or a store at them is a strided view of memory (no index
array, no gather, bounds and repeats from the ends; `Pointer._grid_view`).

Sound by construction: `GridLanes` uses its form only while its array has never been built.
The first look at the array (any operation but the few below, `batch_data`, a load's general
path) builds it and drops the form for good, so values that were ever exposed, and may have
been changed in place since, are never read by their form again. The form's own arrays are
never handed out. Every result is the int64 arithmetic of the built array, bit for bit
(wrap-around included: + - * of int64 are a ring; // and % by a positive int keep the form
only where each wave's lanes share one quotient, which makes a wave index a per-wave value
that loads read without building it, `wave_values`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .lanes import LANE_TYPES, Lanes

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1  # (uniform.py's bounds too)
# a sequence's even step (`even_step`): the int, None where it has none, False not looked for
Step = int | None | bool


def even_step(x: np.ndarray) -> int | None:
    """s where int64 x == x[0] + s * arange(x.size) exactly (no wrap between the ends), else
    None."""
    if x.size < 2:
        return 0
    first, second, last = int(x[0]), int(x[1]), int(x[-1])
    step = second - first
    if last != first + step * (x.size - 1) or not I64_MIN <= step <= I64_MAX:
        return None
    if x.size > 2 and not (x[2:] - x[1:-1] == step).all():
        return None
    return step


class LaneGrid:
    """lanes = (shifts[:, None] + pattern).reshape(-1), int64: `shifts` (waves,), `pattern`
    (width,); their even steps (`even_step`) are found once, when asked. Never changed."""

    __slots__ = ("shifts", "pattern", "_steps")

    def __init__(self, shifts: np.ndarray, pattern: np.ndarray, shift_step: Step = False,
                 pattern_step: Step = False) -> None:
        self.shifts, self.pattern = shifts, pattern
        self._steps: list[Step] = [shift_step, pattern_step]

    @classmethod
    def of_rows(cls, rows: np.ndarray, repeats: int) -> LaneGrid | None:
        """The grid of `repeats` copies of `rows` (waves, width) int64 (a batch's blocks of
        one block's thread indices), or None where a wave is not the first one shifted."""
        shift = rows[:, :1] - rows[:1, :1]
        if not (rows - rows[:1] == shift).all():
            return None
        shifts, pattern = np.tile(shift.reshape(-1), repeats), rows[0].copy()
        return cls(shifts, pattern, even_step(shifts), even_step(pattern))

    def values(self) -> np.ndarray:
        return np.add(self.shifts[:, None], self.pattern).reshape(-1)

    def steps(self) -> tuple[int | None, int | None]:
        """(shift step, pattern step), None where it does not step evenly. A step carried
        over from an operand's (`times`, `negated`) holds modulo 2**64: it is kept only where
        the ends agree with it exactly, so no element wrapped."""
        for i, x in enumerate((self.shifts, self.pattern)):
            step = self._steps[i]
            if step is False:
                step = even_step(x)
            elif step is not None and int(x[-1]) != int(x[0]) + step * (x.size - 1):
                step = None
            self._steps[i] = step
        return self._steps[0], self._steps[1]

    def shifted(self, shifts: np.ndarray, step: Step = False) -> LaneGrid:
        """Every wave's lanes plus its value of `shifts` (waves or 1,) int64, whose even step
        is `step`."""
        return LaneGrid(shifts + self.shifts, self.pattern, _sum(self._steps[0], step),
                        self._steps[1])

    def plus(self, other: LaneGrid) -> LaneGrid:
        """The lane-by-lane sum of two grids of one shape."""
        return LaneGrid(self.shifts + other.shifts, self.pattern + other.pattern,
                        *(_sum(a, b) for a, b in zip(self._steps, other._steps, strict=True)))

    def negated(self) -> LaneGrid:
        return self.times(-1)

    def times(self, k: int) -> LaneGrid:
        if k == 1:  # (C's `sh[i]` index arithmetic, `i * 1`)
            return self
        return LaneGrid(self.shifts * k, self.pattern * k, *(_times(s, k) for s in self._steps))

    def strided(self, offset: int, size: int, distinct: bool
                ) -> tuple[int, int, int, int] | None:
        """(first element, last element, wave stride, lane stride) of offset + these lanes as a
        strided view
        of [0, size), where both parts step evenly and non-negatively and every address lies
        inside (`distinct`: and no two lanes share one, each wave's after the one before),
        else None."""
        wave_step, lane_step = self.steps()
        if wave_step is None or lane_step is None or wave_step < 0 or lane_step < 0:
            return None
        first = offset + int(self.shifts[0]) + int(self.pattern[0])
        last = offset + int(self.shifts[-1]) + int(self.pattern[-1])
        if first < 0 or last >= size:
            return None
        width = self.pattern.size
        if distinct and ((lane_step == 0 and width > 1) or (
                self.shifts.size > 1 and wave_step <= (width - 1) * lane_step)):
            return None
        return first, last, wave_step, lane_step


def _in_one_span(grid: LaneGrid, k: int) -> np.ndarray | None:
    """Each wave's quotient (shift + lowest lane) // k where every lane of every wave has that
    same quotient by k > 0 (its lanes lie in one span [q k, q k + k)), no element wrapping
    int64; else None."""
    low, high = int(grid.pattern.min()), int(grid.pattern.max())
    if k <= 0 or int(grid.shifts.min()) + low < I64_MIN or int(grid.shifts.max()) + high > I64_MAX:
        return None
    quotient = (grid.shifts + low) // k
    return quotient if np.array_equal(quotient, (grid.shifts + high) // k) else None


def _floor_divided(grid: LaneGrid, k: int) -> LaneGrid | None:
    """grid // k where `_in_one_span`: each wave's one value (a wave index from a thread
    index, `(blockIdx.x * blockDim.x + threadIdx.x) // 64`)."""
    quotient = _in_one_span(grid, k)
    if quotient is None:
        return None
    return LaneGrid(quotient, np.zeros(grid.pattern.size, np.int64), False, 0)


def _remainder(grid: LaneGrid, k: int) -> LaneGrid | None:
    """grid % k where `_in_one_span`: the lanes less each wave's multiple of k
    (`threadIdx.x % 64`, a lane's number)."""
    quotient = _in_one_span(grid, k)
    if quotient is None:
        return None
    return LaneGrid(grid.shifts - quotient * k, grid.pattern, False, grid._steps[1])


def wave_values(x: object) -> np.ndarray | None:
    """Each wave's one value, where x is a `GridLanes` whose form gives every lane of a wave
    the same value (read from the form: its array is not built), else None."""
    grid = x._grid if type(x) is GridLanes else None
    if grid is None or grid.steps()[1] != 0:
        return None
    return grid.shifts + grid.pattern[0]


def _times(step: Step, k: int) -> Step:
    """A step times k (False, not looked for, stays so; a product past int64 is None)."""
    if step is None or step is False:
        return step
    product = step * k
    return product if I64_MIN <= product <= I64_MAX else None


def _sum(a: Step, b: Step) -> Step:
    """The step of the sum of two sequences: None where one steps evenly and the other does
    not; not known (False) where neither does (they may still add up to one that does)."""
    if a is False or b is False or (a is None and b is None):
        return False
    if a is None or b is None:
        return None
    return a + b if I64_MIN <= a + b <= I64_MAX else False


_DATA = Lanes.__dict__["_data"]  # Lanes' slot, where GridLanes keeps its built array


class GridLanes(Lanes):
    """int64 Lanes (lane axis -1) held as a `LaneGrid` until something reads the array."""

    __slots__ = ("_form",)

    def __init__(self, data: np.ndarray, lane_axis: int = -1) -> None:
        _DATA.__set__(self, data)
        self.lane_axis = lane_axis
        self._form: LaneGrid | None = None

    @classmethod
    def of(cls, grid: LaneGrid) -> GridLanes:
        made = cls.__new__(cls)
        _DATA.__set__(made, None)
        made.lane_axis, made._form = -1, grid
        return made

    @property
    def _grid(self) -> LaneGrid | None:
        """The form, while the array has never been built: one slot, the array's, decides,
        so an interrupt between two steps cannot leave a built array with a usable form."""
        return self._form if _DATA.__get__(self, GridLanes) is None else None

    @property  # (Lanes' slot, built on first read)
    def _data(self) -> np.ndarray:
        data = _DATA.__get__(self, GridLanes)
        if data is None:
            data = self._form.values()  # type: ignore[union-attr]  # (set while data is None)
            _DATA.__set__(self, data)  # from here on the form is never used
        return data

    @_data.setter
    def _data(self, data: np.ndarray) -> None:
        _DATA.__set__(self, data)

    def copy(self, order: Any = "K") -> Lanes:
        grid = self._grid
        return GridLanes.of(grid) if grid is not None else super().copy(order)


class ThreadLanes:
    """threadIdx x, y, z (and lane numbers) of a launch's batches as Lanes, from one block's
    thread indices `tid` (3 of (waves, W)): the grids are made once per batch shape (every
    batch of a shape has the same ones; a grid is never changed), the Lanes per context."""

    def __init__(self, tid: list[np.ndarray]) -> None:
        self.tid = tid
        self._grids: dict[tuple, tuple[LaneGrid | None, ...]] = {}
        self._numbers: dict[tuple[int, int], LaneGrid] = {}

    def __call__(self, group: np.ndarray, width: int, repeats: int) -> tuple[Lanes, ...]:
        """x, y, z of `repeats` blocks of waves `group`, `width` lanes each."""
        key = (group.tobytes(), width, repeats)
        grids = self._grids.get(key)
        if grids is None:
            grids = self._grids[key] = tuple(LaneGrid.of_rows(t[group, :width], repeats)
                                             for t in self.tid)
        return tuple(GridLanes.of(g) if g is not None
                     else Lanes(np.tile(t[group, :width].reshape(-1), repeats))
                     for g, t in zip(grids, self.tid, strict=True))

    def lane_numbers(self, waves: int, width: int) -> GridLanes:
        """Each lane's number in its wave (`lane_id()`) for a batch of `waves`."""
        grid = self._numbers.get((waves, width))
        if grid is None:
            grid = self._numbers[waves, width] = LaneGrid(
                np.zeros(waves, np.int64), np.arange(width, dtype=np.int64), 0, 1)
        return GridLanes.of(grid)


def _int_operand(x: object) -> int | None:
    """x as a Python int where int64 lanes and x make int64 lanes (a Python int within
    int64, a numpy signed int or an unsigned one below 64 bits), else None."""
    if isinstance(x, int):  # (bool too: int64 lanes and a bool make int64 lanes)
        return int(x) if I64_MIN <= x <= I64_MAX else None
    if isinstance(x, np.integer) and np.result_type(np.int64, x) == np.int64:
        return int(x)
    return None


def _grid_operator(name: str, combine, both=lambda grid, other: None) -> None:
    """GridLanes' operator `name` on an int operand keeps the form where `combine(grid, k)`
    gives a grid, and on another GridLanes where `both(grid, other)` does; anything else is
    Lanes' own."""
    general = getattr(Lanes, name)

    def op(self: GridLanes, other: object) -> Any:
        grid = self._grid
        if grid is not None:
            if (k := _int_operand(other)) is not None and (result := combine(grid, k)):
                return GridLanes.of(result)
            if type(other) is GridLanes and (sum_of := both(grid, other)) is not None:
                return GridLanes.of(sum_of)
        return general(self, other)

    op.__name__ = name
    setattr(GridLanes, name, op)


def _sum_of(grid: LaneGrid, other: GridLanes, sign: int) -> LaneGrid | None:
    """grid + sign * other's grid, where other still has one of the same shape."""
    form = other._grid
    if form is None or form.shifts.size != grid.shifts.size or (
            form.pattern.size != grid.pattern.size):
        return None
    return grid.plus(form if sign > 0 else form.negated())


def _plus(k: int) -> np.ndarray:
    return np.array([k], np.int64)


def _grid_comparison(name: str) -> None:
    """GridLanes' comparison `name` (a `where` bound, `i < n`) on its values in a scratch
    Lanes: the result is the same, and the grid keeps its form for the loads and stores
    the mask guards."""
    general = getattr(Lanes, name)

    def op(self: GridLanes, other: object) -> Any:
        grid = self._grid
        return general(self if grid is None else Lanes(grid.values()), other)

    op.__name__ = name
    setattr(GridLanes, name, op)


for _name in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
    _grid_comparison(_name)
_grid_operator("__add__", lambda g, k: g.shifted(_plus(k), 0) if k else g,
               lambda g, o: _sum_of(g, o, 1))
_grid_operator("__radd__", lambda g, k: g.shifted(_plus(k), 0) if k else g)
_grid_operator("__sub__", lambda g, k: g.shifted(np.negative(_plus(k)), 0),  # (int64 wrap)
               lambda g, o: _sum_of(g, o, -1))
_grid_operator("__rsub__", lambda g, k: g.negated().shifted(_plus(k), 0))
_grid_operator("__mul__", lambda g, k: g.times(k))
_grid_operator("__rmul__", lambda g, k: g.times(k))
_grid_operator("__floordiv__", _floor_divided)
_grid_operator("__mod__", _remainder)
LANE_TYPES.add(GridLanes)


def by_wave(ufunc: np.ufunc, scalar_first: bool, ints: np.ndarray, step: Step,
            grid: LaneGrid) -> GridLanes | None:
    """`ufunc` of per-wave int64 `ints` (their even step `step`) and a grid's lanes
    (`uniform._by_wave`), kept as a grid where it is + or -; else None."""
    if ufunc is np.add:
        return GridLanes.of(grid.shifted(ints, step))
    if ufunc is np.subtract:
        return GridLanes.of(grid.negated().shifted(ints, step) if scalar_first
                            else grid.shifted(np.negative(ints), _times(step, -1)))
    return None


