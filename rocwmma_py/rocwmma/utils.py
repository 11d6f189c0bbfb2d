"""Helpers rocWMMA samples use (rocwmma-notes §1.7): coordinates, constants, integer math and
MappingUtil's wave/block/matrix coordinate conversions (`WaveSpace`, `MatrixSpace`,
`DataSpace`), and `GetMappingUtil_t[F]`."""

from __future__ import annotations

from ..arch import ARCH_NAMES, get_arch
from ..errors import FragmentValueError
from ..runtime import Pointer, blockDim, blockIdx, current_arch, threadIdx
from .accessors import Array1d, GetIOShape_t, _fragment_class
from .errors import FragmentError
from .fragment_layout import next_multiple  # noqa: F401 - re-exported helper
from .tags import layout_of, row_major


class Coord2d(tuple):
    """rocWMMA's `Coord2d` (row, col): a pair that unpacks and indexes like a tuple but, like
    the C++ vector type, adds, subtracts and multiplies element-wise (`c * 2` scales both).
    Elements may be ints or per-lane values."""

    __slots__ = ()

    def __new__(cls, row, col) -> Coord2d:
        return super().__new__(cls, (row, col))

    @staticmethod
    def _pair(other) -> tuple:
        if isinstance(other, tuple):
            if len(other) != 2:
                raise FragmentError(
                    f"Coord2d arithmetic needs a 2-element coordinate; got {other!r}"
                )
            return other
        return (other, other)  # a scalar applies to both elements

    def __add__(self, other) -> Coord2d:
        o = self._pair(other)
        return Coord2d(self[0] + o[0], self[1] + o[1])

    def __sub__(self, other) -> Coord2d:
        o = self._pair(other)
        return Coord2d(self[0] - o[0], self[1] - o[1])

    def __mul__(self, other) -> Coord2d:
        o = self._pair(other)
        return Coord2d(self[0] * o[0], self[1] * o[1])

    def __radd__(self, other) -> Coord2d:
        return self + other

    def __rsub__(self, other) -> Coord2d:
        o = self._pair(other)
        return Coord2d(o[0] - self[0], o[1] - self[1])

    def __rmul__(self, other) -> Coord2d:
        return self * other

    def __repr__(self) -> str:
        return f"Coord2d({self[0]!r}, {self[1]!r})"


def make_coord2d(x, y) -> Coord2d:
    """A (row, col) coordinate with rocWMMA's element-wise arithmetic."""
    return Coord2d(x, y)


class _Get:
    """`get[I](coord)`: rocWMMA's `get<I>(v)`."""

    def __getitem__(self, i: int):
        return lambda v: v[i]


get = _Get()


def swap(coord: tuple) -> Coord2d:
    """(row, col) -> (col, row)."""
    return Coord2d(coord[1], coord[0])


def ceil_div(a: int, b: int) -> int:
    """Integer ceil(a / b), rocWMMA's `ceil_div` (1.x: `ceilDiv`)."""
    return -(-int(a) // int(b))


ceilDiv = ceil_div  # noqa: N816 - rocWMMA 1.x spelling


class _Log2:
    """`Log2[N]`: rocWMMA's compile-time `Log2<N>::value` for a power of two N."""

    def __getitem__(self, n: int) -> int:
        n = int(n)
        if n < 1 or n & (n - 1):
            raise FragmentValueError(f"Log2[N] needs a positive power of two N; got {n}")
        return n.bit_length() - 1


Log2 = _Log2()


def getWarpSize() -> int:  # noqa: N802 - rocWMMA samples' spelling
    """The samples' host-side `getWarpSize()`: the wave size of the current target."""
    return current_arch().wave_size


class _Constants:
    """rocWMMA `Constants`; the wave size and arch id follow the current target, and every
    target of the arch table has its `AMDGCN_ARCH_ID_GFX...` (set below)."""

    AMDGCN_WAVE_SIZE_32 = 32
    AMDGCN_WAVE_SIZE_64 = 64
    AMDGCN_REGISTER_ELEMENT_SIZE_BYTES = 4
    AMDGCN_LDS_MAX_SIZE_BYTES = 65536
    AMDGCN_CACHE_LINE_SIZE_BYTES = 64
    AMDGCN_DWORD_SIZE_BYTES = 4

    @property
    def AMDGCN_WAVE_SIZE(self) -> int:  # noqa: N802 - rocWMMA spelling
        return current_arch().wave_size

    @property
    def AMDGCN_REGISTER_SIZE_BYTES(self) -> int:  # noqa: N802
        return 4 * current_arch().wave_size

    @property
    def AMDGCN_CURRENT_ARCH_ID(self) -> int:  # noqa: N802
        return current_arch().arch_id


for _name in ARCH_NAMES:
    setattr(_Constants, f"AMDGCN_ARCH_ID_{_name.upper()}", get_arch(_name).arch_id)
Constants = _Constants()


class WaveSpace:
    """rocWMMA's `detail::WaveSpace<>` (`MappingUtil::WaveSpace`): the calling wave in its
    workgroup and in the grid. Threads are grouped as (x: W lanes per wave, y: 1)."""

    @staticmethod
    def localLaneId():  # noqa: N802 - rocWMMA spelling
        """Lane within the wave: threadIdx.x % W."""
        return threadIdx.x % current_arch().wave_size

    @staticmethod
    def localWaveCoord() -> Coord2d:  # noqa: N802
        """(threadIdx.x / W, threadIdx.y): the wave within its workgroup."""
        return Coord2d(threadIdx.x // current_arch().wave_size, threadIdx.y)

    @staticmethod
    def globalWaveCoord() -> Coord2d:  # noqa: N802
        """The wave in the grid of all workgroups' waves."""
        wave = current_arch().wave_size
        return Coord2d((blockIdx.x * blockDim.x + threadIdx.x) // wave,
                       blockIdx.y * blockDim.y + threadIdx.y)

    @staticmethod
    def workgroupCoord() -> Coord2d:  # noqa: N802
        """(blockIdx.x, blockIdx.y)."""
        return Coord2d(blockIdx.x, blockIdx.y)

    @staticmethod
    def workgroupDim() -> Coord2d:  # noqa: N802
        """Waves per workgroup: (blockDim.x / W, blockDim.y)."""
        return Coord2d(blockDim.x // current_arch().wave_size, blockDim.y)


class MatrixSpace:
    """rocWMMA's `detail::MatrixSpace<BlockHeight, BlockWidth>`: block grid -> matrix."""

    def __init__(self, height: int, width: int) -> None:
        self.height, self.width = height, width

    def fromBlockCoord(self, block_coord) -> Coord2d:  # noqa: N802
        return Coord2d(block_coord[0] * self.height, block_coord[1] * self.width)


class MappingUtil:
    """`MappingUtil[BlockHeight, BlockWidth, DataT, DataLayoutT]`: where the calling wave's
    block sits. Wave grid: x = (blockIdx.x*blockDim.x + threadIdx.x) / W,
    y = blockIdx.y*blockDim.y + threadIdx.y. `WaveSpace`, `MatrixSpace` and `DataSpace`
    (= `DataLayout.Array1d[DataLayoutT]`) are its parts, as in rocWMMA."""

    WaveSpace = WaveSpace

    def __init__(self, height: int, width: int, dtype=None, layout=row_major) -> None:
        self.height, self.width, self.layout = height, width, layout_of(layout)
        self.dtype = dtype
        self.MatrixSpace = MatrixSpace(height, width)
        self.DataSpace = Array1d(self.layout)

    def __class_getitem__(cls, params) -> MappingUtil:
        return cls(*params)

    @staticmethod
    def laneId() -> int:  # noqa: N802 - rocWMMA spelling
        return threadIdx.x % current_arch().wave_size

    @staticmethod
    def waveCoord() -> Coord2d:  # noqa: N802
        """The wave's coordinate inside its workgroup."""
        return Coord2d(threadIdx.x // current_arch().wave_size, threadIdx.y)

    @staticmethod
    def workgroupDim() -> Coord2d:  # noqa: N802
        """Waves per workgroup along x and y."""
        return Coord2d(blockDim.x // current_arch().wave_size, blockDim.y)

    def blockCoord(self) -> Coord2d:  # noqa: N802
        """The wave's global coordinate in the grid of blocks (one block per wave)."""
        wave = current_arch().wave_size
        return Coord2d((blockIdx.x * blockDim.x + threadIdx.x) // wave,
                       blockIdx.y * blockDim.y + threadIdx.y)

    def matrixCoord(self, block_coord: tuple[int, int] | None = None) -> Coord2d:  # noqa: N802
        """Top-left matrix element of a block (default: the calling wave's)."""
        bx, by = block_coord if block_coord is not None else self.blockCoord()
        return Coord2d(bx * self.height, by * self.width)

    def dataOffset(self, coord: tuple[int, int], ldm: int) -> int:  # noqa: N802
        return self.DataSpace.fromMatrixCoord(coord, ldm)

    def matrixCoordM(self, m: int) -> Coord2d:  # noqa: N802
        """The wave's matrix coordinate with the row replaced by `m`."""
        return Coord2d(m, self.matrixCoord()[1])

    def matrixCoordN(self, n: int) -> Coord2d:  # noqa: N802
        """The wave's matrix coordinate with the column replaced by `n`."""
        return Coord2d(self.matrixCoord()[0], n)

    def blockCoordM(self, m: int) -> Coord2d:  # noqa: N802
        return Coord2d(m, self.blockCoord()[1])

    def blockCoordN(self, n: int) -> Coord2d:  # noqa: N802
        return Coord2d(self.blockCoord()[0], n)

    def dataCoord(self, data: Pointer, *args) -> Pointer:  # noqa: N802
        """`dataCoord(data, ldm)`: the wave's block; `dataCoord(data, coord, ldm)`: any
        matrix coordinate (rocWMMA's two overloads)."""
        if len(args) == 1:
            coord, (ldm,) = self.matrixCoord(), args
        elif len(args) == 2:
            coord, ldm = args
        else:
            raise FragmentError("dataCoord(data, ldm) or dataCoord(data, matrix_coord, ldm)")
        return data + self.dataOffset(coord, ldm)


class _GetMappingUtil:
    """`GetMappingUtil_t[F]`: `MappingUtil[BlockHeight, BlockWidth, DataT, DataLayoutT]` of
    F's padded IOShape on the current target (the running kernel's, inside one)."""

    def __getitem__(self, frag) -> MappingUtil:
        cls = _fragment_class(frag, "GetMappingUtil_t")
        if cls.layout is None:
            raise FragmentError(f"GetMappingUtil_t: {cls.__name__} has no data layout (void); "
                                "rocWMMA's void accumulator IOConfig has no MappingUtil")
        shape = GetIOShape_t[cls]
        return MappingUtil(shape.BlockHeight, shape.BlockWidth, cls.data_type, cls.layout)


GetMappingUtil_t = _GetMappingUtil()
