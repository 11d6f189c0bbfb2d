"""Random kernels for cross-checking the batched engine against the per-wave engine.

`generate(seed)` writes the Python source of one kernel that mixes the constructs where a
batch of waves could see something a single wave does not: blockIdx arithmetic next to
numpy values (number promotion), integer and float division (by zero in some blocks),
reductions, positions and lane gathers on per-lane values (pointer gathers and vector
loads, `frag.x`, register vectors, builtin results, numpy results), errors caught inside the
kernel (out of bounds, division, bare `except:`), Python lists and host arrays reached
through module globals and device functions, `where()`, block-dependent branches and loops
on 1-D and 2-D grids, LDS with barriers in multi-wave blocks, and fragment load / mma /
store. `run_case(case, engine)` executes the source in a
fresh module namespace (so globals start equal) and launches it; the result holds every
output buffer, the globals the kernel can change, and the exception (type and message).
Everything is seeded: the same seed gives the same kernel and inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ARCHS = {"gfx942": 64, "gfx1100": 32}
_PRELUDE = """\
import numpy as np
from rocwmma_py import *
from rocwmma_py.runtime import (blockIdx, blockDim, gridDim, threadIdx, lane_id, shared_array,
                                synchronize_workgroup, where, vector_type)
from rocwmma_py.errors import OutOfBoundsError
from rocwmma_py import amdgcn

LOG = []
COUNTS = {}
HOST = np.zeros(8, np.float32)
TABLE = np.arange(8, dtype=np.float32) * 0.5
FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]
Vec4 = vector_type(np.float32, 4)


def device_scale(x, block):
    return x * (block + 1) * 0.5


def device_log(x):
    LOG.append(1)
    return x
"""


@dataclass
class Case:
    """One generated kernel and its launch."""

    seed: int
    source: str
    arch: str
    grid: tuple[int, int]
    waves_per_block: int
    inputs: dict

    @property
    def wave(self) -> int:
        return ARCHS[self.arch]

    @property
    def threads(self) -> int:
        return self.grid[0] * self.grid[1] * self.waves_per_block * self.wave


class _Writer:
    """Statement generators; each appends source lines and folds its value into `r`."""

    def __init__(self, rng: np.random.Generator, case_arch: str, waves_per_block: int) -> None:
        self.rng = rng
        self.arch = case_arch
        self.wave = ARCHS[case_arch]
        self.wpb = waves_per_block
        self.lines: list[str] = []
        self.n = 0

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def small(self, lo: int = 0, hi: int = 5) -> int:
        return int(self.rng.integers(lo, hi))

    def emit(self, *lines: str) -> None:
        self.lines.extend("    " + line for line in lines)

    def fresh(self) -> str:
        self.n += 1
        return f"v{self.n}"

    def fold(self, expr: str) -> None:
        self.emit(f"r = r + np.float32(0.25) * ({expr})")

    # --- per-lane sources ---------------------------------------------------------------
    def lanes_value(self) -> str:
        """An expression for a float per-lane value of some container."""
        w = self.wave
        return self.pick([
            "src[i]",
            "r",
            "np.abs(src[i] - 1)",
            "np.where(src[i] > 0, src[i], -src[i])",
            "np.stack([src[i], r])[1]",
            f"Vec4(src[i] + lane).regs[:, {self.small(0, 4)}]",
            "(src[i] * 2).astype(np.float64)",
            f"np.float32(0.5) * lane % {w // 2}",
        ])

    # --- constructs ---------------------------------------------------------------------
    def promotion(self) -> None:
        c, d = self.small(1, 5), self.pick(["0.1", "0.3", "1.5", "2"])
        self.fold(self.pick([
            f"src[i] * (blockIdx.x + {c}) * {d}",
            f"np.float16({d}) * (blockIdx.x + {c})",
            f"src[i] * (blockIdx.x / {c})",
            f"src[i] + (blockIdx.x - {c}) ** {self.small(-2, 3)}",
            f"np.float32(blockIdx.x % {c} + 0.5) * src[i]",
            f"(blockIdx.x * {c} + 1.5) * np.float16(src[0])",
            f"src[i] * ((blockIdx.x + {c}) // 2 + (blockIdx.x % 3) * 0.5)",
            f"isrc[i] * (blockIdx.x + {c}) + 0.5",
            f"np.int8(3) * (blockIdx.x + {c})",
            f"abs(-blockIdx.x - {c}) * src[i]",
            f"divmod(blockIdx.x + {c}, 3)[1] * src[i]",
            f"round((blockIdx.x + {c}) / 4) * src[i]",
            f"src[i] * (blockIdx.y * {c} + blockIdx.x) / 3",
            "device_scale(src[i], blockIdx.x + blockIdx.y)",
            f"np.where(blockIdx.x == {c}, src[i], (blockIdx.x + 1) * 0.5)",
            f"(blockIdx.x > {c}) + (blockIdx.y == 0) * src[i]",
        ]))

    def division(self) -> None:
        c, d = self.small(1, 9), self.small(0, 4)
        self.fold(self.pick([
            f"{c * 10} // (blockIdx.x - {d})",
            f"{c} % (blockIdx.x + {d} - 1)",
            f"src[i] / (blockIdx.x - {d})",
            f"(blockIdx.x * {c}) / (blockIdx.x - {d})",
            f"{c}.5 // (blockIdx.x - {d})",
            "isrc[i] // (blockIdx.x + 1)",
            f"src[i] % (blockIdx.x + {d} + 0.5)",
            f"2 ** (blockIdx.x - {d})",
            f"(blockIdx.x - {d}) ** -1",
        ]))

    def cross_lane(self) -> None:
        w = self.wave
        x = self.fresh()
        self.emit(f"{x} = {self.lanes_value()}")
        m = self.pick([1, 2, w // 2, 3])
        self.fold(self.pick([
            f"{x}.sum()",
            f"{x}.max() - {x}",
            f"{x}[0]",
            f"{x}[lane ^ {m}]",
            f"{x}[(lane + {m}) % {w}]",
            f"{x}[{w - 1} - lane]",
            f"np.take({x}, lane ^ {m})",
            f"np.sort({x})[lane]",
            f"np.argmax({x})",
            f"np.count_nonzero({x} > 0)",
            f"len(lane) + {x}",
            f"{x}.tolist()[{m}]",
            f"{x}.shape[0] * {x}",
            f"np.dot({x}, {x})",
            f"np.cumsum({x})[lane]",
            f"{x}[::2].sum()",
            f"np.abs({x})[lane ^ {m}]",
            f"{x}.size + {x}.mean()",
            f"sum({x}[:4])",
            f"np.roll({x}, 1)",
            f"{x}[-1 - (lane % 4)]",
            f"{x}.reshape(-1, 2)[:, 0].sum()",
        ]))

    def registers(self) -> None:
        w = self.wave
        v = self.fresh()
        self.emit(f"{v} = Vec4(src[i] * (blockIdx.x + 1))",
                  f"{v}[{self.small(0, 4)}] = {v}[0] + lane")
        self.fold(self.pick([
            f"{v}.regs[(lane + 1) % {w}][:, 2]",
            f"{v}.regs[lane ^ 1, {self.small(0, 4)}]",
            f"{v}.regs.sum(axis=1)",
            f"{v}.regs.sum()",
            f"{v}.regs[0, 0]",
            f"np.sort({v}.regs, axis=1)[:, 0]",
            f"{v}.regs.T[1]",
            f"np.max({v}.regs, axis=0)[1]",
            f"len({v}.regs)",
            f"{v}.regs.shape[0]",
        ]))

    def fragment_regs(self) -> None:
        f = self.fresh()
        e = self.small(0, 4)
        self.emit(f"{f} = FragAcc()",
                  f"fill_fragment({f}, np.float32(0.5))",
                  f"{f}.x[{e}] = {f}.x[{e}] + src[i] * (blockIdx.x + 1)")
        self.fold(self.pick([
            f"{f}.x.sum()",
            f"{f}.x.sum(axis=0)",
            f"{f}.x[0][0]",
            f"{f}.x[{e}][lane ^ 1]",
            f"{f}.x[:, lane ^ 2][{e}]",
            f"{f}.x.shape[1]",
            f"np.cumsum({f}.x, axis=0)[-1]",
            f"np.cumsum({f}.x)[lane]",
            f"{f}.x.T[lane, {e}]",
            f"{f}[{e}] * 2",
            f"np.argmax({f}.x, axis=0)",
            f"{f}.x.max(axis=1)[{e}]",
            f"{f}.packed.shape[0]",
        ]))

    def builtin(self) -> None:
        if self.arch != "gfx942":
            return self.fragment_regs()
        d = self.fresh()
        self.emit(f"{d} = amdgcn.mfma_f32_16x16x4f32(src[i] * 0.5, src[(i + 1) % n] + "
                  "blockIdx.x, np.zeros((64, 4), np.float32), 0, 0, 0)")
        self.fold(self.pick([
            f"{d}[:, 1]",
            f"{d}[0, 0]",
            f"{d}.sum(axis=1)",
            f"{d}.sum()",
            f"{d}[lane ^ 4, 2]",
            f"{d}[:, 0][lane ^ 1]",
            f"np.max({d})",
        ]))
        return None

    def caught(self) -> None:
        off = self.pick([0, 1, self.wave, -1, "blockIdx.x * 16"])
        kind = self.small(0, 4)
        v = self.fresh()
        if kind == 0:
            self.emit("try:", f"    {v} = src[i + {off}]", "except OutOfBoundsError:",
                      f"    {v} = -1")
        elif kind == 1:
            self.emit("try:", f"    {v} = 7 // (blockIdx.x - {self.small(0, 3)})",
                      "except ZeroDivisionError:", f"    {v} = -2")
        elif kind == 2:
            self.emit(f"{v} = 0", "try:", f"    if blockIdx.x % {self.small(2, 4)} == 1:",
                      f"        {v} = src[i] + 1", "except:  # noqa: E722",
                      f"    {v} = -3")
        else:
            self.emit("try:", f"    {v} = src[i + {off}] * 2", "except Exception:",
                      f"    {v} = np.float32(-4)")
        self.fold(v)

    def vector_load(self) -> None:
        rows = self.fresh()
        self.emit(f"{rows} = (src + (i & ~1)).load(2)")
        self.fold(self.pick([f"{rows}[:, 1]", f"{rows}[0, 0]", f"{rows}[lane ^ 1, 0]",
                             f"{rows}.sum()", f"{rows}.sum(axis=1)", f"{rows}.T[0]"]))

    def globals_(self) -> None:
        self.emit(self.pick([
            "r = device_log(r)",
            "LOG.append(int(lane[0]))",
            "COUNTS[blockIdx.x] = COUNTS.get(blockIdx.x, 0) + 1",
            "HOST[blockIdx.x % 8] += 1",
            "HOST[blockIdx.x % 8] = src[0] + blockIdx.x",
        ]))
        self.fold(self.pick(["HOST[blockIdx.x % 8]", "TABLE[blockIdx.x % 8]", "len(LOG)",
                             "TABLE[lane % 8]"]))

    def branch(self) -> None:
        m, c = self.small(2, 4), self.small(0, 3)
        self.emit(f"if blockIdx.x % {m} == {c % m}:",
                  f"    r = r * np.float32({self.pick(['2', '0.5', '-1'])})",
                  f"for t in range(blockIdx.x % {m}):",
                  "    r = r + t")

    def masked(self) -> None:
        self.emit(f"with where(lane % {self.small(2, 5)} == 0):",
                  "    side[i] = r + 1")

    def barrier(self) -> None:
        if self.wpb == 1:
            return self.cross_lane()
        block = self.wpb * self.wave
        s = self.fresh()
        self.emit(f"{s} = shared_array(np.float32, {block})",
                  f"{s}[threadIdx.x] = r",
                  "synchronize_workgroup()",
                  f"r = {s}[(threadIdx.x + {self.wave}) % {block}]",
                  "synchronize_workgroup()")
        return None

    def mma(self) -> None:
        self.emit("fa, fb, acc = FragA(), FragB(), FragAcc()",
                  "fill_fragment(acc, np.float32(0))",
                  "load_matrix_sync(fa, a16 + 16 * (blockIdx.x % 2), 16)",
                  "load_matrix_sync(fb, a16, 16)",
                  "mma_sync(acc, fa, fb, acc)",
                  "acc.x[...] = acc.x * (blockIdx.x + 1)",
                  "store_matrix_sync(out + 256 * (i // wave_size()), acc, 16, mem_row_major)")
        self.fold(self.pick(["acc.x[0]", "acc.x.sum(axis=0)", "acc.x[1][lane ^ 1]",
                             "acc.x.sum()"]))


_CONSTRUCTS = ("promotion", "division", "cross_lane", "registers", "fragment_regs", "builtin",
               "caught", "globals_", "branch", "masked", "barrier", "mma", "vector_load")


def generate(seed: int) -> Case:
    """A random kernel (source and launch) from `seed`."""
    rng = np.random.default_rng(seed)
    arch = str(rng.choice(list(ARCHS)))
    wpb = int(rng.choice([1, 1, 2, 4]))
    grid = (int(rng.integers(1, 7)), int(rng.choice([1, 1, 2])))
    w = _Writer(rng, arch, wpb)
    w.emit("i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x",
           "lane = lane_id()",
           "r = src[i]")
    for _ in range(int(rng.integers(2, 6))):
        getattr(w, str(rng.choice(_CONSTRUCTS)))()
    w.emit("dst[i] = r")
    source = _PRELUDE + "\n\n@kernel\ndef fuzz(src, isrc, a16, dst, out, side, n):\n" + "\n".join(
        w.lines) + "\n"
    threads = grid[0] * grid[1] * wpb * ARCHS[arch]
    inputs = {
        "src": rng.integers(-8, 9, threads).astype(np.float32) * np.float32(0.5),
        "isrc": rng.integers(-20, 21, threads).astype(np.int32),
        "a16": rng.integers(-3, 4, 512).astype(np.float16),
        "dst": np.zeros(threads, np.float32),
        "out": np.zeros(threads * 256 // ARCHS[arch] + 256, np.float32),
        "side": np.zeros(threads, np.float32),
    }
    return Case(seed, source, arch, grid, wpb, inputs)


@dataclass
class Outcome:
    """What a launch left behind: buffers, globals and the exception."""

    buffers: dict
    globals_: tuple
    error: tuple | None
    stats: object


def run_case(case: Case, engine: str) -> Outcome:
    """Launch `case` on `engine` ("batch" or "wave") with fresh copies of its inputs."""
    import warnings

    from rocwmma_py.runtime import last_launch_stats, use_engine

    namespace: dict = {"__name__": f"kernel_fuzz_case_{case.seed}"}
    exec(compile(case.source, f"<fuzz kernel {case.seed}>", "exec"), namespace)  # noqa: S102
    buffers = {k: v.copy() for k, v in case.inputs.items()}
    error = None
    with use_engine(engine), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            namespace["fuzz"][case.grid, case.waves_per_block * case.wave, 0, case.arch](
                buffers["src"], buffers["isrc"], buffers["a16"], buffers["dst"],
                buffers["out"], buffers["side"], case.threads)
        except Exception as err:  # noqa: BLE001 - compared between engines
            error = (type(err), str(err))
    state = (list(namespace["LOG"]), dict(namespace["COUNTS"]), namespace["HOST"].tobytes())
    return Outcome(buffers, state, error, last_launch_stats())
