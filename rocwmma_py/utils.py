"""Helpers rocWMMA samples use (rocwmma-notes §1.7): coordinates, constants, integer math and
MappingUtil's wave/block/matrix coordinate conversions."""

from __future__ import annotations

from .fragment_layout import next_multiple  # noqa: F401 - re-exported helper
from .runtime import Pointer, blockDim, blockIdx, current_arch, threadIdx
from .tags import layout_of, row_major


def make_coord2d(x: int, y: int) -> tuple[int, int]:
    """A (row, col) coordinate."""
    return (x, y)


class _Get:
    """`get[I](coord)`: rocWMMA's `get<I>(v)`."""

    def __getitem__(self, i: int):
        return lambda v: v[i]


get = _Get()


def swap(coord: tuple[int, int]) -> tuple[int, int]:
    return (coord[1], coord[0])


def ceil_div(a: int, b: int) -> int:
    return -(-int(a) // int(b))


class _Constants:
    """rocWMMA `Constants`; the wave size and arch id follow the current target."""

    AMDGCN_WAVE_SIZE_32 = 32
    AMDGCN_WAVE_SIZE_64 = 64
    AMDGCN_ARCH_ID_GFX908 = 0x0908
    AMDGCN_ARCH_ID_GFX90A = 0x090A
    AMDGCN_ARCH_ID_GFX942 = 0x0942
    AMDGCN_ARCH_ID_GFX950 = 0x0950
    AMDGCN_ARCH_ID_GFX1100 = 0x1100
    AMDGCN_ARCH_ID_GFX1101 = 0x1101
    AMDGCN_ARCH_ID_GFX1102 = 0x1102
    AMDGCN_ARCH_ID_GFX1200 = 0x1200
    AMDGCN_ARCH_ID_GFX1201 = 0x1201
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


Constants = _Constants()


class MappingUtil:
    """`MappingUtil[BlockHeight, BlockWidth, DataT, DataLayoutT]`: where the calling wave's
    block sits. Wave grid: x = (blockIdx.x*blockDim.x + threadIdx.x) / W,
    y = blockIdx.y*blockDim.y + threadIdx.y."""

    def __init__(self, height: int, width: int, dtype=None, layout=row_major) -> None:
        self.height, self.width, self.layout = height, width, layout_of(layout)

    def __class_getitem__(cls, params) -> MappingUtil:
        return cls(*params)

    @staticmethod
    def laneId() -> int:  # noqa: N802 - rocWMMA spelling
        return threadIdx.x % current_arch().wave_size

    @staticmethod
    def waveCoord() -> tuple[int, int]:  # noqa: N802
        """The wave's coordinate inside its workgroup."""
        return (threadIdx.x // current_arch().wave_size, threadIdx.y)

    @staticmethod
    def workgroupDim() -> tuple[int, int]:  # noqa: N802
        """Waves per workgroup along x and y."""
        return (blockDim.x // current_arch().wave_size, blockDim.y)

    def blockCoord(self) -> tuple[int, int]:  # noqa: N802
        """The wave's global coordinate in the grid of blocks (one block per wave)."""
        wave = current_arch().wave_size
        return ((blockIdx.x * blockDim.x + threadIdx.x) // wave,
                blockIdx.y * blockDim.y + threadIdx.y)

    def matrixCoord(self, block_coord: tuple[int, int] | None = None) -> tuple[int, int]:  # noqa: N802
        """Top-left matrix element of a block (default: the calling wave's)."""
        bx, by = block_coord if block_coord is not None else self.blockCoord()
        return (bx * self.height, by * self.width)

    def dataOffset(self, coord: tuple[int, int], ldm: int) -> int:  # noqa: N802
        row, col = coord
        return row * ldm + col if self.layout is row_major else col * ldm + row

    def matrixCoordM(self, m: int) -> tuple[int, int]:  # noqa: N802
        """The wave's matrix coordinate with the row replaced by `m`."""
        return (m, self.matrixCoord()[1])

    def matrixCoordN(self, n: int) -> tuple[int, int]:  # noqa: N802
        """The wave's matrix coordinate with the column replaced by `n`."""
        return (self.matrixCoord()[0], n)

    def blockCoordM(self, m: int) -> tuple[int, int]:  # noqa: N802
        return (m, self.blockCoord()[1])

    def blockCoordN(self, n: int) -> tuple[int, int]:  # noqa: N802
        return (self.blockCoord()[0], n)

    def dataCoord(self, data: Pointer, *args) -> Pointer:  # noqa: N802
        """`dataCoord(data, ldm)`: the wave's block; `dataCoord(data, coord, ldm)`: any
        matrix coordinate (rocWMMA's two overloads)."""
        if len(args) == 1:
            coord, (ldm,) = self.matrixCoord(), args
        elif len(args) == 2:
            coord, ldm = args
        else:
            raise TypeError("dataCoord(data, ldm) or dataCoord(data, matrix_coord, ldm)")
        return data + self.dataOffset(coord, ldm)
