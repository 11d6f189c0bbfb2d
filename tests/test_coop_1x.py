"""rocWMMA 1.x load_matrix_coop_sync / store_matrix_coop_sync against the 2.x cooperative
fragments they map onto."""

import numpy as np
import pytest

from rocwmma_py import (
    FragmentError,
    coop_row_major_2d,
    fragment,
    get_arch,
    kernel,
    load_matrix_coop_sync,
    load_matrix_sync,
    matrix_a,
    row_major,
    store_matrix_coop_sync,
    store_matrix_sync,
    threadIdx,
    wave_size,
)

M, N, K = 32, 32, 64  # a block worth splitting four ways on wave64 and wave32
WAVES = 4


def _src():
    return (np.arange(M * K) % 1024).astype(np.float16).reshape(M, K)


@kernel
def _copy_1x(src, dst, wave_count):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    wave = threadIdx.x // wave_size()
    load_matrix_coop_sync(frag, src, K, wave, wave_count)
    store_matrix_coop_sync(dst, frag, K, wave, wave_count)


@kernel
def _copy_1x_whole_block(src, dst):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K)
    store_matrix_coop_sync(dst, frag, K)


def _copy_2x_kernel(arch):
    wave = get_arch(arch).wave_size
    coop = fragment[matrix_a, M, N, K, np.float16, row_major, coop_row_major_2d[WAVES * wave, 1]]

    @kernel
    def copy_2x(src, dst):
        frag = coop()
        load_matrix_sync(frag, src, K)
        store_matrix_sync(dst, frag, K)

    return copy_2x


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1201"])
def test_paired_coop_copy_moves_the_block_as_2x_does(arch):
    wave = get_arch(arch).wave_size
    src = _src()
    d1, d1b, d2 = (np.full((M, K), np.nan, np.float16) for _ in range(3))
    _copy_1x[1, WAVES * wave, 0, arch](src, d1, WAVES)
    _copy_1x_whole_block[1, WAVES * wave, 0, arch](src, d1b)
    _copy_2x_kernel(arch)[1, (WAVES * wave, 1), 0, arch](src, d2)
    assert np.array_equal(d1, src) and np.array_equal(d1b, src) and np.array_equal(d2, src)


@kernel
def _one_share(src, dst, index, count):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K, index, count)
    store_matrix_coop_sync(dst, frag, K, index, count)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("index", range(WAVES))
def test_a_wave_moves_exactly_its_2x_share(arch, index):
    wave = get_arch(arch).wave_size
    src = _src()
    dst = np.full((M, K), np.nan, np.float16)
    _one_share[1, wave, 0, arch](src, dst, index, WAVES)
    coop = fragment[matrix_a, M, N, K, np.float16, row_major, coop_row_major_2d[WAVES * wave, 1]]
    share = coop.map(get_arch(arch), index)
    expected = np.zeros((M, K), bool)
    expected[share.row.ravel(), share.col.ravel()] = True
    assert np.array_equal(~np.isnan(dst), expected)
    assert np.array_equal(dst[expected], src[expected])


@kernel
def _load_only(src, out):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    frag.x[:] = -1.0
    load_matrix_coop_sync(frag, src, K, 1, WAVES)
    out[threadIdx.x] = frag.x[-1]


def test_registers_past_the_share_keep_their_values():
    out = np.zeros(64, np.float16)
    _load_only[1, 64, 0, "gfx942"](_src(), out)
    assert (out == -1).all()


def test_waves_past_the_count_sit_out():
    src, dst = _src(), np.full((M, K), np.nan, np.float16)
    _one_share[1, 64, 0, "gfx942"](src, dst, WAVES, WAVES)
    assert np.isnan(dst).all()


@kernel
def _template_form(src):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K, 0)


@kernel
def _coop_fragment(src):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major, coop_row_major_2d[64, 1]]()
    load_matrix_coop_sync(frag, src, K, 0, 1)


@kernel
def _bad_count(src):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K, 0, 0)


@kernel
def _diverging_index(src):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K, threadIdx.x % 2, 2)


@pytest.mark.parametrize("k, match", [
    (_template_form, r"load_matrix_coop_sync\(frag, data, ldm, waveIndex, WaveCount\)"),
    (_coop_fragment, "load_matrix_sync"),
    (_bad_count, "waveCount must be a positive int"),
    (_diverging_index, "waveIndex differs between lanes"),
])
def test_errors_name_the_spelling(k, match):
    with pytest.raises(FragmentError, match=match):
        k[1, 64, 0, "gfx942"](_src())


@kernel
def _with_split_count(src, dst):
    frag = fragment[matrix_a, M, N, K, np.float16, row_major]()
    load_matrix_coop_sync(frag, src, K, threadIdx.x // wave_size(), WAVES, 16)
    store_matrix_coop_sync(dst, frag, K, threadIdx.x // wave_size(), WAVES, 16)


def test_split_count_is_accepted_and_ignored():
    src, dst = _src(), np.full((M, K), np.nan, np.float16)
    _with_split_count[1, WAVES * 64, 0, "gfx942"](src, dst)
    assert np.array_equal(dst, src)
