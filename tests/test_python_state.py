"""Python state kernel code changes besides memory — module attributes, `global` ints,
function attributes, random generators, iterators, deques, bytearrays, object attributes —
changes once per wave on the per-wave engine. The launch reads the kernel's code for such
changes (runtime/reach.py) and runs those kernels per wave, blocks in order, on every engine
and worker count, naming the object in `last_launch_stats()`; kernels that only read (or
reach only immutable values) stay batched."""

from __future__ import annotations

import collections
import dataclasses
import enum
import itertools
import math
import random
import sys
import types
from typing import NamedTuple

import numpy as np
import pytest

from rocwmma_py import PointerTypeError
from rocwmma_py.runtime import (
    blockIdx,
    kernel,
    last_launch_stats,
    threadIdx,
    use_engine,
    use_workers,
)

GRID, WAVES, WAVE = 6, 2, 64
THREADS = WAVES * WAVE
ARCH = "gfx942"
MODES = (("wave", 1), ("batch", 1), ("batch", 2))

# -- state, reset before every launch -----------------------------------------------------------

COUNTER = 0
STATEMOD = types.ModuleType("statemod")
QUEUE: collections.deque = collections.deque()
BUF = bytearray(4)
TICKETS = itertools.count()


class Tally:
    n = 0


TALLY = Tally()


def calls() -> None:
    """A function whose attribute the kernel counts in."""


def reset() -> None:
    global COUNTER, TICKETS
    COUNTER = 0
    STATEMOD.count = 0
    calls.n = 0  # type: ignore[attr-defined]
    QUEUE.clear()
    BUF[:] = bytes(4)
    TICKETS = itertools.count()
    TALLY.n = 0
    random.seed(5)
    np.random.seed(5)


def final_state() -> tuple:
    """Everything the kernels below can change, and the generators' next draws."""
    return (COUNTER, STATEMOD.count, calls.n, list(QUEUE), bytes(BUF), next(TICKETS),  # type: ignore[attr-defined]
            TALLY.n, random.random(), float(np.random.rand()))


# -- one kernel per kind of state: each wave changes it once and stores what it saw ------------

def where() -> object:
    return blockIdx.x * THREADS + threadIdx.x


@kernel
def global_int(dst):
    global COUNTER
    COUNTER += 1
    dst[where()] = COUNTER


@kernel
def module_attribute(dst):
    STATEMOD.count += 1
    dst[where()] = STATEMOD.count


@kernel
def function_attribute(dst):
    calls.n += 1  # type: ignore[attr-defined]
    dst[where()] = calls.n  # type: ignore[attr-defined]


@kernel
def random_module(dst):
    dst[where()] = random.random()


@kernel
def numpy_random(dst):
    dst[where()] = np.random.rand() + np.random.randint(0, 100)


def generator_closure() -> kernel:
    rng = np.random.default_rng(7)

    @kernel
    def draws(dst):
        dst[where()] = rng.random()

    draws.rng = rng  # type: ignore[attr-defined] # the test reads its next draw
    return draws


@kernel
def counter_iterator(dst):
    dst[where()] = next(TICKETS)


@kernel
def deque_append(dst):
    QUEUE.append(int(blockIdx.x))
    dst[where()] = len(QUEUE)


@kernel
def bytearray_item(dst):
    BUF[blockIdx.x % 4] += 1
    dst[where()] = BUF[blockIdx.x % 4]


@kernel
def instance_attribute(dst):
    TALLY.n += 1
    dst[where()] = TALLY.n


def bump(tally):
    tally.n += 1
    return tally.n


@kernel
def through_a_helper(dst):
    dst[where()] = bump(TALLY)


CASES = [
    (global_int, "global 'COUNTER' (int, rebound by the kernel)"),
    (module_attribute, "global 'STATEMOD.count' (int, assigned by the kernel)"),
    (function_attribute, "global 'calls.n' (int, assigned by the kernel)"),
    (random_module, "global 'random.random' (a method of random.Random, called"),
    (numpy_random, "global 'np.random.rand' (a method of numpy.random.RandomState, called"),
    (counter_iterator, "global 'TICKETS' (itertools.count, passed to next()"),
    (deque_append, "global 'QUEUE' (collections.deque, its method 'append' called"),
    (bytearray_item, "global 'BUF' (bytearray, an item assigned by the kernel)"),
    (instance_attribute, "global 'TALLY.n' (int, assigned by the kernel)"),
    (through_a_helper, "global 'TALLY.n' (int, assigned by bump())"),
]


def launch(k, mode: tuple[str, int], dtype=np.float64) -> tuple[np.ndarray, object]:
    engine, workers = mode
    dst = np.zeros(GRID * THREADS, dtype)
    with use_engine(engine), use_workers(workers):
        k[GRID, THREADS, 0, ARCH](dst)
    return dst, last_launch_stats()


@pytest.mark.parametrize(("k", "cause"), CASES, ids=[c[0].name for c in CASES])
def test_state_changes_once_per_wave_on_every_engine(k, cause):
    results = {}
    for mode in MODES:
        reset()
        dst, stats = launch(k, mode)
        results[mode] = (dst.tobytes(), final_state())
        if mode[0] == "batch":
            assert stats.batched_blocks == 0 and stats.per_wave_blocks == GRID
            assert [f.kind for f in stats.fallbacks] == ["per wave"]
            assert cause in stats.fallbacks[0].cause, stats.fallbacks[0].cause
            assert stats.fallbacks[0].cause.startswith(
                "the kernel reaches mutable Python state: ")
    assert results[MODES[1]] == results[MODES[0]] == results[MODES[2]]


def test_generator_in_a_closure_draws_once_per_wave():
    results = {}
    for mode in MODES:
        k = generator_closure()
        dst, stats = launch(k, mode)
        results[mode] = (dst.tobytes(), k.rng.random())
        assert len(set(dst.tolist())) == GRID * WAVES  # one draw per wave
        if mode[0] == "batch":
            assert "closure 'rng' (numpy.random.Generator, its method 'random' called by " \
                   "the kernel)" in stats.fallbacks[0].cause
    assert results[MODES[1]] == results[MODES[0]] == results[MODES[2]]


def test_per_wave_counts_are_the_reference():
    """What the per-wave engine gives (and so every engine): one change per wave, in block
    order then wave order."""
    reset()
    dst, _ = launch(global_int, ("batch", 1))
    assert dst.tolist() == np.repeat(np.arange(1, GRID * WAVES + 1), WAVE).tolist()
    assert COUNTER == GRID * WAVES


# -- pointers are values -------------------------------------------------------------------------

@kernel
def moves_its_pointer(dst):
    dst += blockIdx.x * THREADS  # a new pointer bound to the kernel's name, as in C
    dst[threadIdx.x] = threadIdx.x + 1
    dst += 1
    dst[threadIdx.x - 1] += 1000 * (blockIdx.x + 1)


@kernel
def shifts_a_shared_pointer(dst):
    dst.offset += 1  # would move the pointer every wave shares
    dst[threadIdx.x] = 1


def test_pointer_arithmetic_rebinds_and_stays_batched():
    results = {mode: launch(moves_its_pointer, mode) for mode in MODES}
    wave, (batch, stats) = results[MODES[0]][0], results[MODES[1]]
    assert wave.tobytes() == batch.tobytes() == results[MODES[2]][0].tobytes()
    assert stats.per_wave_blocks == 0 and stats.fallbacks == []


def test_pointer_fields_cannot_change_in_place():
    errors = []
    for mode in MODES:
        with pytest.raises(PointerTypeError, match="pointers are immutable values") as info:
            launch(shifts_a_shared_pointer, mode)
        errors.append(str(info.value))
        stats = last_launch_stats()
        if mode[0] == "batch":
            assert "argument 'dst.offset' (int, assigned by the kernel)" in \
                   stats.fallbacks[0].cause
    assert errors[0] == errors[1] == errors[2]


# -- what stays batched: reading, immutable values, this package's and numpy's API -------------

class Mode(enum.Enum):
    SCALE = 3


class Dims(NamedTuple):
    m: int
    n: int


@dataclasses.dataclass(frozen=True)
class Config:
    alpha: float
    dims: Dims


SCALE = 2
NAME = "tile"
DIMS = Dims(4, 8)
CONFIG = Config(0.5, DIMS)
SIZES = (1, 2, 3, 4)
KEYS = frozenset({1, 2})
DTYPE = np.dtype(np.float32)
HALF = np.float32(0.5)
TABLE = [10, 20, 30, 40, 50, 60]  # a list only read: no change to see
LOOKUP = {0: 1.5, 1: 2.5}


def pure_helper(x, k=SCALE):
    return x * k + len(SIZES) + math.floor(CONFIG.alpha * 4)


@kernel
def reads_only(dst):
    b = blockIdx.x
    v = pure_helper(b) + TABLE[b] + LOOKUP[b % 2] + DIMS.m * CONFIG.dims.n + Mode.SCALE.value
    v = v + SIZES[b % 4] + (1 if b in KEYS else 0) + len(NAME) + float(HALF) + math.pi
    v = v + sum(SIZES) + max(DIMS) + np.sqrt(np.float32(4)) + DTYPE.itemsize
    for s in SIZES:  # a tuple: iterating it changes nothing
        v = v + s
    assert v > 0, f"{NAME} went negative"  # pytest's rewritten assert: only on the way to raising
    print(f"block {int(b)}", file=sys.stderr) if b < 0 else None  # output, not state
    dst[where()] = v


def test_kernels_reaching_only_immutable_state_stay_batched():
    results = {mode: launch(reads_only, mode) for mode in MODES}
    wave, (batch, stats) = results[MODES[0]][0], results[MODES[1]]
    assert wave.tobytes() == batch.tobytes() == results[MODES[2]][0].tobytes()
    assert stats.per_wave_blocks == 0  # (Python lists indexed per block split the batch)
    assert all(f.kind != "per wave" for f in stats.fallbacks)


def closure_reader() -> kernel:
    factor, table, seen = 3, (1, 2, 3, 4, 5, 6), {"unused": 0}

    @kernel
    def reads(dst):
        dst[where()] = table[blockIdx.x] * factor + seen["unused"]

    return reads


def test_closures_read_only_stay_batched():
    dst, stats = launch(closure_reader(), ("batch", 1))
    assert dst.tolist() == np.repeat(np.arange(1, GRID + 1) * 3.0, THREADS).tolist()
    assert stats.per_wave_blocks == 0


# -- what the analysis follows ----------------------------------------------------------------

LOG_A: list = []
LOG_B: list = []


@kernel
def through_a_tuple(dst):
    for log in (LOG_A, LOG_B):  # the lists themselves, not their items
        log.append(1)
    dst[where()] = len(LOG_A)


@kernel
def in_a_comprehension(dst):
    sizes = [len(log) for log in [LOG_A] if log.append(1) is None]
    dst[where()] = sizes[0]


def appender():
    log = LOG_B

    def add(x):
        log.append(x)

    return add


ADD = appender()


@kernel
def through_a_closure_of_a_helper(dst):
    ADD(1)
    dst[where()] = 1


def nonlocal_counter() -> kernel:
    count = 0

    @kernel
    def counts(dst):
        nonlocal count
        count += 1
        dst[where()] = count

    return counts


@pytest.mark.parametrize(("k", "cause"), [
    (through_a_tuple, "global 'LOG_A' (list, its method 'append' called by the kernel)"),
    (in_a_comprehension, "global 'LOG_A' (list, its method 'append' called by the kernel)"),
    (through_a_closure_of_a_helper,
     "closure 'log' (list, its method 'append' called by appender.<locals>.add())"),
    (nonlocal_counter(), "closure 'count' (int, rebound by the kernel)"),
], ids=["tuple", "comprehension", "helper-closure", "nonlocal"])
def test_followed_through_containers_helpers_and_closures(k, cause):
    LOG_A.clear()
    LOG_B.clear()
    _, stats = launch(k, ("batch", 1))
    assert stats.per_wave_blocks == GRID
    assert cause in stats.fallbacks[0].cause, stats.fallbacks[0].cause


@kernel
def appends_to_its_argument(dst, log):
    log.append(int(blockIdx.x))
    dst[where()] = len(log)


@kernel
def reads_its_argument(dst, table):
    dst[where()] = table[0] + table[-1]


def test_python_arguments_changed_run_per_wave_and_read_stay_batched():
    results = {}
    for mode in MODES:
        log: list = []
        dst = np.zeros(GRID * THREADS)
        with use_engine(mode[0]), use_workers(mode[1]):
            appends_to_its_argument[GRID, THREADS, 0, ARCH](dst, log)
        results[mode] = (dst.tobytes(), log)
        if mode[0] == "batch":
            assert "argument 'log' (list, its method 'append' called by the kernel)" in \
                   last_launch_stats().fallbacks[0].cause
    assert results[MODES[1]] == results[MODES[0]] == results[MODES[2]]
    assert results[MODES[0]][1] == np.repeat(np.arange(GRID), WAVES).tolist()
    dst = np.zeros(GRID * THREADS)
    reads_its_argument[GRID, THREADS, 0, ARCH](dst, [3, 4])
    assert (dst == 7).all() and last_launch_stats().per_wave_blocks == 0


# -- the bytecode model ---------------------------------------------------------------------------

def test_the_stack_model_fits_real_code(monkeypatch):
    """The abstract interpreter's stack depths agree with the compiler's at every join and
    it never pops an empty stack, over the runtime's own functions (this Python version's
    opcodes: 3.10's ROT_n and blocks, 3.11's PRECALL/KW_NAMES, 3.12's inlined comprehensions,
    3.13's CALL_KW)."""
    import importlib
    import pkgutil

    from rocwmma_py import runtime
    from rocwmma_py.runtime import reach

    problems = []
    merge = reach._Unit._merge

    def checked_merge(states, work, i, stack):
        if i in states and len(states[i]) != len(stack):
            problems.append(("depth", i))
        merge(states, work, i, stack)

    effect = reach._Unit._effect

    def checked_effect(self, handler, code, instrs, i, st):
        try:
            effect(self, handler, code, instrs, i, st)
        except IndexError:
            problems.append((code.co_name, instrs[i].opname))
            raise

    monkeypatch.setattr(reach._Unit, "_merge", staticmethod(checked_merge))
    monkeypatch.setattr(reach._Unit, "_effect", checked_effect)
    codes = set()
    for info in pkgutil.iter_modules(runtime.__path__):
        module = importlib.import_module(f"rocwmma_py.runtime.{info.name}")
        for value in vars(module).values():
            members = vars(value).values() if isinstance(value, type) else [value]
            for member in members:
                member = getattr(member, "__func__", member)
                if isinstance(member, types.FunctionType) and member.__module__ == module.__name__:
                    codes.add(member.__code__)
    assert len(codes) > 300
    for code in codes:
        reach._Unit(code).run()  # uncached: every code object interpreted here
    assert problems == []
