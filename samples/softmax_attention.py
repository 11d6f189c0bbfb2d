"""Flash-attention forward pass with the rocWMMA fragment API and __shfl_xor row reductions:
O = softmax(Q K^T / sqrt(d)) V per head, f16 Q/K/V, f32 scores, softmax and output.

    rocwmma-sample softmax_attention [--arch gfx1100] [-s 128 -t 128 -d 64 -e 2] [--seed 0]

Design (the online softmax of FlashAttention-2): each wave owns 16 query rows of one head and
walks the keys 16 at a time. S = Q K^T is one 16x16 f32 accumulator (K^T read as a col-major
matrix_b straight from K); the row max and row sum of S come from butterfly __shfl_xor
reductions over 16-lane groups, because every accumulator layout (gfx9 MFMA, gfx11/gfx12
WMMA) puts the 16 columns of a row in the 16 lanes of a group, in the same register (the
sample checks this from the fragment's register map). P = exp(S - m) is rounded to f16,
stored to the wave's own LDS tile and reloaded as a matrix_a fragment for P V; the running
output (d/16 accumulators, the same layout as S) is rescaled by exp(m_old - m_new) per row.

Validation: against float64 numpy softmax(Q K^T / sqrt(d)) V from the same f16 inputs, with
the tolerance max |O - O_ref| <= 2**-10 * max |V|: rounding P to f16 changes each weight by at
most 2**-11 of itself, so the weighted sum moves by at most 2**-11 * max |V|; f32 scores,
exp and sums add far less.

Exit status: 0 PASSED, 1 FAILED, 2 refused (sizes must be multiples of 16).
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import (
    __shfl_xor,
    accumulator,
    blockDim,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    get_arch,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    shared_array,
    store_matrix_sync,
    threadIdx,
    wave_size,
)

from . import common

TILE = 16  # query rows per wave, keys per step, head-dim chunk per mma
WAVES_PER_BLOCK = 2
TOLERANCE = 2.0**-10  # times max |V|

FragQ = fragment[matrix_a, TILE, TILE, TILE, float16, row_major]
FragKt = fragment[matrix_b, TILE, TILE, TILE, float16, col_major]  # K^T straight from K
FragV = fragment[matrix_b, TILE, TILE, TILE, float16, row_major]
FragP = fragment[matrix_a, TILE, TILE, TILE, float16, row_major]
FragS = fragment[accumulator, TILE, TILE, TILE, float32]
FragP16 = fragment[accumulator, TILE, TILE, TILE, float16]  # same register order as FragS


def row_reduce(x: np.ndarray, combine) -> np.ndarray:
    """Reduce each row of an accumulator tile (x = frag.x, (elements, lanes)): butterfly
    __shfl_xor over the 16 lanes of a group, which hold the row's 16 columns."""
    for mask in (8, 4, 2, 1):
        x = combine(x, __shfl_xor(x, mask, 16))
    return x


@kernel
def flash_attention(q, k, v, out, seq_q: int, seq_k: int, dim: int, scale: float32):
    wave = threadIdx.x // wave_size()
    q_row = (blockIdx.x * (blockDim.x // wave_size()) + wave) * TILE
    head = blockIdx.y
    if q_row >= seq_q:
        return
    q_head, k_head, o_head = head * seq_q * dim, head * seq_k * dim, head * seq_q * dim
    lds = shared_array(float16, WAVES_PER_BLOCK * TILE * TILE)
    p_tile = lds + wave * (TILE * TILE)  # this wave's own 16x16 tile

    out_frags = [FragS() for _ in range(dim // TILE)]
    for frag in out_frags:
        fill_fragment(frag, 0.0)
    s = FragS()
    m = l_sum = None
    for key in range(0, seq_k, TILE):
        fill_fragment(s, 0.0)
        for d0 in range(0, dim, TILE):
            fq, fk = FragQ(), FragKt()
            load_matrix_sync(fq, q + (q_head + q_row * dim + d0), dim)
            load_matrix_sync(fk, k + (k_head + key * dim + d0), dim)
            mma_sync(s, fq, fk, s)
        scores = s.x * scale
        row_max = row_reduce(scores, np.maximum)
        m_new = row_max if m is None else np.maximum(m, row_max)
        p = np.exp(scores - m_new)
        correction = np.zeros_like(m_new) if m is None else np.exp(m - m_new)
        row_sum = row_reduce(p, np.add)
        l_sum = row_sum if l_sum is None else l_sum * correction + row_sum
        m = m_new

        p16 = FragP16()
        p16.x[...] = p.astype(np.float16)
        store_matrix_sync(p_tile, p16, TILE, mem_row_major)
        fp = FragP()
        load_matrix_sync(fp, p_tile, TILE)
        for j, frag in enumerate(out_frags):
            frag.x[...] = frag.x * correction
            fv = FragV()
            load_matrix_sync(fv, v + (k_head + key * dim + j * TILE), dim)
            mma_sync(frag, fp, fv, frag)

    for j, frag in enumerate(out_frags):
        frag.x[...] = frag.x / l_sum
        store_matrix_sync(out + (o_head + q_row * dim + j * TILE), frag, dim, mem_row_major)


def rows_live_in_lane_groups(arch: str) -> bool:
    """The property the reductions rely on: in FragS's register map, lane l holds column
    l % 16 in every register (so a row's columns are the 16 lanes of one group)."""
    cmap = FragS.map(get_arch(arch))
    lanes = np.arange(cmap.col.shape[1])
    return bool((cmap.col == lanes % TILE).all())


def run(arch: str, q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """O for f16 Q (H, S, d), K and V (H, T, d) on `arch`."""
    heads, seq_q, dim = q.shape
    out = np.zeros((heads, seq_q, dim), np.float32)
    wave = get_arch(arch).wave_size
    grid = (-(-seq_q // (TILE * WAVES_PER_BLOCK)), heads)
    flash_attention[grid, WAVES_PER_BLOCK * wave, 0, arch](
        q, k, v, out, seq_q, k.shape[1], dim, np.float32(1.0 / np.sqrt(dim)))
    return out


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    s = q64 @ k64.transpose(0, 2, 1) / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return (p / p.sum(axis=-1, keepdims=True)) @ v64


def main(argv: list[str] | None = None) -> int:
    parser = common.sample_parser(__doc__,
                                  {"s": 128, "t": 128, "d": 64, "e": 2})
    args = parser.parse_args(argv)
    seq_q, seq_k, dim, heads = args.s, args.t, args.d, args.e
    print(f"Flash attention forward on {args.arch}: {heads} heads, {seq_q} queries, "
          f"{seq_k} keys, head dim {dim}")
    if min(seq_q, seq_k, dim, heads) < 1 or seq_q % TILE or seq_k % TILE or dim % TILE:
        print("Unsupported size! Query count, key count and head dim must be multiples of 16")
        return common.REFUSED
    if not rows_live_in_lane_groups(args.arch):
        print(f"Unsupported accumulator layout on {args.arch}")
        return common.REFUSED
    rng = np.random.default_rng(args.seed)
    q, k, v = (rng.standard_normal((heads, n, dim)).astype(np.float16)
               for n in (seq_q, seq_k, seq_k))
    out = run(args.arch, q, k, v)
    err = float(np.abs(out - reference(q, k, v)).max())
    bound = TOLERANCE * float(np.abs(v.astype(np.float64)).max())
    ok = err <= bound
    print(f"max |O - O_ref| = {err:.3g} (tolerance {bound:.3g} = 2^-10 max|V|): "
          f"{'PASSED' if ok else 'FAILED'}")
    return common.PASSED if ok else common.FAILED


if __name__ == "__main__":
    raise SystemExit(main())
