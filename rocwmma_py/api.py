"""rocWMMA's synchronous API and transforms (rocwmma-notes §1.3, §1.6, §6).

Loads are gathers through the fragment's register map, stores are scatters, both bounds-
checked by the device pointer and clipped to the unpadded fragment for partial fragments.
Cooperative fragments load/store only the calling wave's share; waves outside the
scheduler's count do nothing.
"""

from __future__ import annotations

import numpy as np

from . import types as T
from .accessors import apply_transpose_t
from .errors import FragmentError
from .fragment import fragment
from .fragment_layout import FragmentMap
from .mma import mma
from .runtime import Pointer, current_wave
from .tags import layout_of, matrix_a, matrix_b, row_major


def fill_fragment(frag: fragment, value) -> None:
    """Broadcast `value` (converted like a C++ cast) to every element, padding included."""
    frag.x[...] = T.convert(value, frag.data_type)


def _wave_share(frag: fragment) -> int | None:
    """This wave's share of a (possibly cooperative) fragment, or None if it sits out."""
    sched = frag.scheduler
    if sched.kind == "default":
        return 0
    wave = current_wave()
    sched.check_block(wave.wave_size, wave.block_dim)
    x0 = int(wave.thread_idx[0][0]) // wave.wave_size
    y0 = int(wave.thread_idx[1][0])
    index = sched.wave_index(wave.wave_size, x0, y0)
    return index if index < sched.wave_count(wave.wave_size) else None


def _io(frag: fragment, ptr: Pointer, ldm: int, layout, what: str):
    """(map, offsets, mask) of a load/store, or None when this wave does not take part."""
    if not isinstance(ptr, Pointer):
        raise TypeError(f"{what}: data must be a device pointer; got {type(ptr).__name__}")
    if layout is None:
        if frag.layout is None:
            raise FragmentError(f"{what}: {type(frag).__name__} has no data layout; pass a "
                                "layout_t (mem_row_major / mem_col_major) as the 4th argument")
        data_layout = frag.layout
    else:
        data_layout = layout_of(layout)
    if np.dtype(ptr.dtype) != T.storage_dtype(frag.data_type):
        raise TypeError(f"{what}: pointer element type {np.dtype(ptr.dtype)} does not match the "
                        f"fragment's {T.short_name(frag.data_type)}")
    share = _wave_share(frag)
    if share is None:
        return None
    fmap: FragmentMap = type(frag).map(frag.arch, share)
    offsets = fmap.offsets(int(ldm), data_layout)
    height, width = _unpadded(frag)
    mask = None
    if (height, width) != (fmap.height, fmap.width):
        mask = (fmap.row < height) & (fmap.col < width)
    return offsets, mask


def _unpadded(frag: fragment) -> tuple[int, int]:
    if frag.matrix is matrix_a:
        return frag.frag_m, frag.frag_k
    if frag.matrix is matrix_b:
        return frag.frag_k, frag.frag_n
    return frag.frag_m, frag.frag_n


def load_matrix_sync(frag: fragment, data: Pointer, ldm: int, layout=None) -> None:
    """Load the fragment from `data` (leading dimension `ldm`); elements outside a partial
    fragment read as 0 and are not touched in memory."""
    io = _io(frag, data, ldm, layout, "load_matrix_sync")
    if io is not None:
        frag.x[...] = data.gather(*io)


def store_matrix_sync(data: Pointer, frag: fragment, ldm: int, layout=None) -> None:
    """Store the fragment to `data`; nothing outside the (unpadded) footprint is written."""
    io = _io(frag, data, ldm, layout, "store_matrix_sync")
    if io is not None:
        data.scatter(io[0], frag.x, io[1])


def mma_sync(d: fragment, a: fragment, b: fragment, c: fragment) -> None:
    """D = A * B + C on the target's matrix cores (c may be d)."""
    mma(d, a, b, c)


# --- transforms ---------------------------------------------------------------------------


def _new(cls: type[fragment], x: np.ndarray) -> fragment:
    out = cls()
    out.x[...] = x
    return out


def _remap(src: fragment, dst_cls: type[fragment]) -> fragment:
    """Move every element to where `dst_cls` keeps it (same lanes' share of the matrix)."""
    share = _wave_share(src) or 0
    src_map = type(src).map(src.arch, share)
    dst_map = dst_cls.map(src.arch, share)
    where = src_map.inverse[dst_map.row, dst_map.col]
    if np.any(where < 0):
        raise FragmentError(f"cannot transform {type(src).__name__} into {dst_cls.__name__}: "
                            "the wave shares hold different elements")
    return _new(dst_cls, src.x.ravel()[where])


def _check_same_shape(src: fragment, dst_cls: type[fragment], what: str) -> None:
    same = (dst_cls.matrix, dst_cls.frag_m, dst_cls.frag_n, dst_cls.frag_k, dst_cls.data_type)
    if same != (src.matrix, src.frag_m, src.frag_n, src.frag_k, src.data_type):
        raise FragmentError(f"{what}: {dst_cls.__name__} differs from {type(src).__name__} in "
                            "matrix, size or data type")
    if dst_cls.traits(src.arch).wave_count != type(src).traits(src.arch).wave_count:
        raise FragmentError(f"{what}: schedulers must have the same wave count")


def apply_transpose(frag: fragment) -> fragment:
    """matrix_a<M,N,K,T,L> <-> matrix_b<N,M,K,T,orthogonal L>: the same registers."""
    cls = apply_transpose_t[type(frag)]
    mine, theirs = type(frag).map(frag.arch), cls.map(frag.arch)
    if not (np.array_equal(mine.row, theirs.col) and np.array_equal(mine.col, theirs.row)):
        raise FragmentError(f"apply_transpose: {cls.__name__} has a different register layout")
    return _new(cls, frag.x)


class _LayoutTransform:
    """`apply_data_layout[L](frag)` and `apply_data_layout(frag, L)`."""

    def __getitem__(self, layout):
        return lambda frag: self(frag, layout)

    def __call__(self, frag: fragment, layout) -> fragment:
        layout = layout_of(layout)
        cls = fragment[frag.matrix, frag.frag_m, frag.frag_n, frag.frag_k, frag.data_type,
                       layout, frag.scheduler]
        return _remap(frag, cls)


apply_data_layout = _LayoutTransform()


class _FragmentTransform:
    """`apply_fragment[DstFrag](frag)`: identity, reinterpretation or register permutation."""

    def __getitem__(self, dst_cls: type[fragment]):
        def apply(frag: fragment) -> fragment:
            _check_same_shape(frag, dst_cls, "apply_fragment")
            return _remap(frag, dst_cls)

        return apply


apply_fragment = _FragmentTransform()


def _register_file_class(frag_cls: type[fragment], arch) -> type[fragment]:
    tr = frag_cls.traits(arch)
    wave = tr.wave_size
    return fragment[matrix_b, wave, wave, tr.num_elements * tr.wave_count, frag_cls.data_type,
                    frag_cls.layout or row_major, frag_cls.scheduler]


def to_register_file(frag: fragment) -> fragment:
    """Reinterpret as rocWMMA's [RegCount x WaveSize] register-file fragment (no data moves;
    unsafe for cooperative fragments, as in rocWMMA)."""
    cls = _register_file_class(type(frag), frag.arch)
    out = object.__new__(cls)
    out.arch, out.x = frag.arch, frag.x.copy()
    return out


class _FromRegisterFile:
    """`from_register_file[DstFrag](register_file_fragment)`."""

    def __getitem__(self, dst_cls: type[fragment]):
        def apply(rf: fragment) -> fragment:
            out = dst_cls()
            if out.x.shape != rf.x.shape:
                raise FragmentError(f"from_register_file: {dst_cls.__name__} holds "
                                    f"{out.x.shape[0]} elements per lane, the register file "
                                    f"{rf.x.shape[0]}")
            out.x[...] = rf.x
            return out

        return apply


from_register_file = _FromRegisterFile()
