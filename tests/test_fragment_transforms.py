"""rocWMMA transforms (rocwmma-notes §1.6, §2.4, §2.6): apply_transpose, apply_data_layout,
apply_fragment, to_register_file / from_register_file.

Expectations come from the notes: a transpose is a pure reinterpretation (A<M,N,K,T,L> <->
B<N,M,K,T,orthogonal L>, same registers); a data-layout change permutes registers into the
§2.4 order of the new layout (accumulators keep ACC_INT_A_MAJOR for every layout); the
register file is fragment<matrix_b, W, W, H*Wd/W> holding the same registers.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from notes_reference import input_positions, padded

from rocwmma_py import (
    FragmentError,
    accumulator,
    apply_data_layout,
    apply_fragment,
    apply_transpose,
    bfloat16,
    col_major,
    float8,
    float8_fnuz,
    float16,
    float32,
    fragment,
    fragment_scheduler,
    fragment_traits,
    from_register_file,
    int8,
    int32,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    row_major,
    store_matrix_sync,
    to_register_file,
    use_arch,
)

WAVE = {"gfx942": 64, "gfx950": 64, "gfx1100": 32, "gfx1200": 32}
ARCHS = ("gfx942", "gfx1100", "gfx1200")
ORTHO = {row_major: col_major, col_major: row_major}
TYPES = {
    "f16": (float16, np.float16), "bf16": (bfloat16, ml_dtypes.bfloat16),
    "f32": (float32, np.float32), "i8": (int8, np.int8), "i32": (int32, np.int32),
    "f8": (float8, ml_dtypes.float8_e4m3fn), "f8_fnuz": (float8_fnuz, ml_dtypes.float8_e4m3fnuz),
}
FP8 = {"gfx942": "f8_fnuz", "gfx950": "f8", "gfx1200": "f8"}


def arch_types(arch):
    return ["f16", "bf16", "f32", "i8", "i32"] + ([FP8[arch]] if arch in FP8 else [])


def to_memory(mat, layout):
    if layout is row_major:
        return np.ascontiguousarray(mat).ravel(), mat.shape[1]
    return np.ascontiguousarray(mat.T).ravel(), mat.shape[0]


def from_memory(buf, layout, rows, cols):
    return buf.reshape(rows, cols) if layout is row_major else buf.reshape(cols, rows).T


def random_mat(shape, dt, seed):
    return np.random.default_rng(seed).integers(0, 16, shape).astype(dt)  # exact everywhere


def bits(a):
    return np.ascontiguousarray(a).view(np.uint8)




def same_type(cls, expected) -> bool:
    """Same template arguments (compared through fragment_traits; class identity is tested
    separately in test_fragment_class_identity_ignores_spelling)."""
    return fragment_traits(cls) == fragment_traits(expected)


def tier(*values, level, id):
    return pytest.param(*values, marks=getattr(pytest.mark, level), id=id)


@kernel
def run(body, *args):
    body(*args)


def launch(arch, body, *args, block=None):
    run[1, block or WAVE[arch], 0, arch](body, *args)


# ------------------------------------------------------------------ apply_transpose

TRANSPOSE_SHAPES = [(16, 16, 16, "smoke"), (32, 16, 32, "regression"),
                    (64, 32, 16, "regression"), (16, 48, 64, "regression"),
                    (12, 20, 10, "regression")]  # the last one is padded (§6)
TRANSPOSE_CASES = [tier(a, t, m, n, k, level=lvl, id=f"{a}-{t}-{m}x{n}x{k}")
                   for a in ARCHS for t in arch_types(a) for m, n, k, lvl in TRANSPOSE_SHAPES]


@pytest.mark.parametrize("arch, tname, m, n, k", TRANSPOSE_CASES)
def test_apply_transpose_is_a_reinterpretation(arch, tname, m, n, k):
    t, dt = TYPES[tname]
    x_mat = random_mat((m, k), dt, seed=m * n + k)  # A is M x K
    for layout in (row_major, col_major):
        fa_cls = fragment[matrix_a, m, n, k, t, layout]
        fb_cls = fragment[matrix_b, n, m, k, t, ORTHO[layout]]
        src, ld = to_memory(x_mat, layout)
        out_b, ld_b = to_memory(np.zeros((k, m), dt), ORTHO[layout])  # B: K x M (its N = M)
        seen = {}

        def body(src, out_b, layout=layout, ld=ld, ld_b=ld_b, fa_cls=fa_cls, seen=seen):
            a = fa_cls()
            load_matrix_sync(a, src, ld)
            b = apply_transpose(a)
            seen["a"], seen["b"], seen["b_cls"] = a.x.copy(), b.x.copy(), type(b)
            store_matrix_sync(out_b, b, ld_b)
            seen["back"] = apply_transpose(b)

        launch(arch, body, src, out_b)
        assert same_type(seen["b_cls"], fb_cls)
        assert np.array_equal(bits(seen["b"]), bits(seen["a"]))  # registers unchanged
        assert np.array_equal(from_memory(out_b, ORTHO[layout], k, m), x_mat.T)
        assert same_type(type(seen["back"]), fa_cls)
        assert np.array_equal(bits(seen["back"].x), bits(seen["a"]))


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ARCHS)
def test_apply_transpose_of_b_gives_a(arch):
    wave = WAVE[arch]
    enc = np.arange(32)[:, None] * 1000 + np.arange(64)[None, :]  # B: K=32 x N=64
    src, ld = to_memory(enc.astype(np.int32), col_major)
    seen = {}

    def body(src):
        b = fragment[matrix_b, 16, 64, 32, int32, col_major]()
        load_matrix_sync(b, src, ld)
        seen["a"] = apply_transpose(b)

    launch(arch, body, src)
    a = seen["a"]
    tr = fragment_traits(a)
    assert (tr.MatrixT, tr.FragM, tr.FragN, tr.FragK, tr.DataLayoutT) == (
        matrix_a, 64, 16, 32, row_major)
    # A<64,16,32,row_major> holding B^T: x[e] of a lane = B[k][n] at A's (row=n, col=k)
    rows, cols = input_positions("a", 64, 32, wave, row_major)
    assert np.array_equal(a.x, cols * 1000 + rows)


@pytest.mark.smoke
def test_apply_transpose_rejects_accumulators():
    with use_arch("gfx942"):
        c = fragment[accumulator, 16, 16, 16, float32, row_major]()
        with pytest.raises(FragmentError):
            apply_transpose(c)


# ------------------------------------------------------------------ apply_data_layout

LAYOUT_SHAPES = [(16, 16, "smoke"), (32, 16, "regression"), (64, 32, "regression"),
                 (32, 64, "regression"), (48, 16, "regression")]
LAYOUT_CASES = [tier(a, w, bd, bk, level=lvl, id=f"{a}-{w}-{bd}x{bk}")
                for a in ARCHS for w in ("a", "b") for bd, bk, lvl in LAYOUT_SHAPES]


@pytest.mark.parametrize("arch, which, bd, bk", LAYOUT_CASES)
def test_apply_data_layout_permutes_into_new_layout(arch, which, bd, bk):
    wave = WAVE[arch]
    mat_t = matrix_a if which == "a" else matrix_b
    h, w = (bd, bk) if which == "a" else (bk, bd)
    enc = (np.arange(h)[:, None] * 1000 + np.arange(w)[None, :]).astype(np.float32)
    for layout in (row_major, col_major):
        new = ORTHO[layout]
        cls = fragment[mat_t, bd, bd, bk, float32, layout]
        new_cls = fragment[mat_t, bd, bd, bk, float32, new]
        src, ld = to_memory(enc, layout)
        out, ld_new = to_memory(np.zeros((h, w), np.float32), new)
        seen = {}

        def body(src, out, cls=cls, new=new, layout=layout, ld=ld, ld_new=ld_new, seen=seen):
            f = cls()
            load_matrix_sync(f, src, ld)
            g = apply_data_layout[new](f)
            g2 = apply_data_layout(f, new)
            seen.update(f=f.x.copy(), g=g, g2=g2.x.copy(), back=apply_data_layout[layout](g))
            store_matrix_sync(out, g, ld_new)

        launch(arch, body, src, out)
        g = seen["g"]
        assert same_type(type(g), new_cls)
        rows, cols = input_positions(which, bd, bk, wave, new)
        assert np.array_equal(g.x, rows * 1000 + cols)  # §2.4 order of the new layout
        assert np.array_equal(seen["g2"], g.x)
        assert np.array_equal(from_memory(out, new, h, w), enc)  # stores the same matrix
        assert same_type(type(seen["back"]), cls)
        assert np.array_equal(seen["back"].x, seen["f"])  # round trip is the identity


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("tname", ["f16", "bf16", "i8", "f32"])
@pytest.mark.regression
def test_apply_data_layout_round_trip_every_type(arch, tname):
    t, dt = TYPES[tname]
    for which, shape in (("a", (32, 32, 32)), ("b", (64, 64, 16))):
        mat_t = matrix_a if which == "a" else matrix_b
        m, n, k = shape
        h, w = (m, k) if which == "a" else (k, n)
        mat = random_mat((h, w), dt, seed=h + w)
        for layout in (row_major, col_major):
            cls = fragment[mat_t, m, n, k, t, layout]
            other = fragment[mat_t, m, n, k, t, ORTHO[layout]]
            src, ld = to_memory(mat, layout)
            src_o, ld_o = to_memory(mat, ORTHO[layout])
            seen = {}

            def body(src, src_o, cls=cls, other=other, layout=layout, ld=ld, ld_o=ld_o,
                     seen=seen):
                f, direct = cls(), other()
                load_matrix_sync(f, src, ld)
                load_matrix_sync(direct, src_o, ld_o)
                g = apply_data_layout[ORTHO[layout]](f)
                seen.update(f=f.x.copy(), g=g.x.copy(), direct=direct.x.copy(),
                            back=apply_data_layout[layout](g).x.copy())

            launch(arch, body, src, src_o)
            assert np.array_equal(bits(seen["g"]), bits(seen["direct"])), (which, layout)
            assert np.array_equal(bits(seen["back"]), bits(seen["f"])), (which, layout)


ACC_CASES = [tier(a, m, n, level="smoke" if m == n == 16 else "regression", id=f"{a}-{m}x{n}")
             for a in ARCHS for m, n in ((16, 16), (32, 32), (64, 16))]


@pytest.mark.parametrize("arch, m, n", ACC_CASES)
def test_apply_data_layout_on_accumulators_keeps_registers(arch, m, n):
    """§2.6: every accumulator is ACC_INT_A_MAJOR whatever its layout, so a layout change
    moves no data; the converted fragment stores the same matrix in the new layout."""
    enc = (np.arange(m)[:, None] * 1000 + np.arange(n)[None, :]).astype(np.int32)
    src, ld = to_memory(enc, row_major)
    out_c, ld_c = to_memory(np.zeros((m, n), np.int32), col_major)
    out_v, _ = to_memory(np.zeros((m, n), np.int32), row_major)
    seen = {}

    def body(src, out_c, out_v):
        f = fragment[accumulator, m, n, 16, int32, row_major]()
        load_matrix_sync(f, src, ld)
        g = apply_data_layout[col_major](f)
        v = apply_fragment[fragment[accumulator, m, n, 16, int32]](g)  # void layout
        r = apply_data_layout[row_major](v)
        seen.update(f=f.x.copy(), g=g.x.copy(), v=v.x.copy(), r=r.x.copy())
        store_matrix_sync(out_c, g, ld_c)
        store_matrix_sync(out_v, v, ld, mem_row_major)

    launch(arch, body, src, out_c, out_v)
    for key in ("g", "v", "r"):
        assert np.array_equal(seen[key], seen["f"]), key
    assert np.array_equal(from_memory(out_c, col_major, m, n), enc)
    assert np.array_equal(from_memory(out_v, row_major, m, n), enc)


# ------------------------------------------------------------------ apply_fragment


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ARCHS)
def test_apply_fragment_between_layouts_and_identity(arch):
    wave = WAVE[arch]
    enc = (np.arange(64)[:, None] * 1000 + np.arange(32)[None, :]).astype(np.int32)
    src, ld = to_memory(enc, col_major)  # B is K x N = 64 x 32
    b_col = fragment[matrix_b, 16, 32, 64, int32, col_major]
    b_row = fragment[matrix_b, 16, 32, 64, int32, row_major]
    seen = {}

    def body(src):
        f = b_col()
        load_matrix_sync(f, src, ld)
        seen.update(same=apply_fragment[b_col](f), row=apply_fragment[b_row](f), f=f.x.copy())

    launch(arch, body, src)
    assert same_type(type(seen["same"]), b_col) and np.array_equal(seen["same"].x, seen["f"])
    rows, cols = input_positions("b", 32, 64, wave, row_major)
    assert same_type(type(seen["row"]), b_row)
    assert np.array_equal(seen["row"].x, rows * 1000 + cols)


@pytest.mark.smoke
def test_apply_fragment_rejects_other_geometry_or_type():
    with use_arch("gfx942"):
        f = fragment[matrix_a, 32, 32, 16, float16, row_major]()
        for dst in (fragment[matrix_a, 32, 32, 32, float16, row_major],
                    fragment[matrix_a, 32, 32, 16, bfloat16, row_major],
                    fragment[matrix_b, 32, 32, 16, float16, col_major]):
            with pytest.raises(FragmentError):
                apply_fragment[dst](f)


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_apply_fragment_requires_equal_wave_counts(arch):
    w = WAVE[arch]
    coop = fragment[matrix_a, 32, 32, 32, float32, row_major,
                    fragment_scheduler.coop_row_major_2d[w, 2]]
    plain = fragment[matrix_a, 32, 32, 32, float32, col_major]
    errors = []

    def body():
        try:
            apply_fragment[plain](coop())
        except FragmentError as e:
            errors.append(e)

    launch(arch, body, block=(w, 2))
    assert len(errors) == 2  # both waves refuse


# ------------------------------------------------------------------ register file

RF_CASES = []
for _a in ARCHS:
    for _t in arch_types(_a):
        for _which, _shape in (("a", (16, 16, 16)), ("b", (32, 32, 32)), ("acc", (64, 32, 16)),
                               ("a", (12, 20, 10))):
            _lvl = "smoke" if _shape == (16, 16, 16) else "regression"
            RF_CASES.append(tier(_a, _t, _which, _shape, level=_lvl,
                                 id=f"{_a}-{_t}-{_which}-{'x'.join(map(str, _shape))}"))




@pytest.mark.parametrize("arch, tname, which, shape", RF_CASES)
def test_register_file_round_trip(arch, tname, which, shape):
    t, dt = TYPES[tname]
    wave = WAVE[arch]
    m, n, k = shape
    mat_t = {"a": matrix_a, "b": matrix_b, "acc": accumulator}[which]
    cls = fragment[mat_t, m, n, k, t, row_major]
    pm, pn, pk = padded(m, n, k, np.dtype(dt).itemsize, wave)
    height, width = {"a": (pm, pk), "b": (pk, pn), "acc": (pm, pn)}[which]
    h, w = {"a": (m, k), "b": (k, n), "acc": (m, n)}[which]
    mat = random_mat((h, w), dt, seed=7)
    src, ld = to_memory(mat, row_major)
    seen = {}

    def body(src):
        f = cls()
        load_matrix_sync(f, src, ld)
        rf = to_register_file(f)
        back = from_register_file[cls](rf)
        seen.update(f=f, rf=rf, back=back)

    launch(arch, body, src)
    f, rf, back = seen["f"], seen["rf"], seen["back"]
    tr = fragment_traits(rf)
    # [RegCount x WaveSize]: fragment<matrix_b, W, W, H*Wd/W, DataT, L, S> (§1.6)
    assert (tr.MatrixT, tr.FragM, tr.FragN, tr.FragK) == (matrix_b, wave, wave,
                                                         height * width // wave)
    assert tr.DataT is t and tr.DataLayoutT is row_major
    assert np.array_equal(bits(rf.x), bits(f.x)) and np.array_equal(rf.packed, f.packed)
    assert same_type(type(back), cls)
    assert np.array_equal(bits(back.x), bits(f.x))


@pytest.mark.smoke
def test_from_register_file_of_wrong_size_raises():
    with use_arch("gfx942"):
        rf = to_register_file(fragment[matrix_a, 16, 16, 16, float16, row_major]())
        with pytest.raises(FragmentError):
            from_register_file[fragment[matrix_a, 32, 32, 16, float16, row_major]](rf)


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ARCHS)
def test_runtime_layout_load_equals_load_then_apply_data_layout(arch):
    """§1.3: the 4-arg load is 'load as layout_t, then apply_data_layout<DataLayoutT>'."""
    enc = (np.arange(32)[:, None] * 1000 + np.arange(32)[None, :]).astype(np.float32)
    src_r, _ = to_memory(enc, row_major)
    seen = {}

    def body(src_r):
        direct = fragment[matrix_a, 32, 32, 32, float32, col_major]()
        load_matrix_sync(direct, src_r, 32, mem_row_major)
        via = fragment[matrix_a, 32, 32, 32, float32, row_major]()
        load_matrix_sync(via, src_r, 32)
        seen.update(direct=direct.x.copy(), via=apply_data_layout[col_major](via).x.copy())

    launch(arch, body, src_r)
    assert np.array_equal(seen["direct"], seen["via"])
    rows, cols = input_positions("a", 32, 32, WAVE[arch], col_major)
    assert np.array_equal(seen["direct"], rows * 1000 + cols)


@pytest.mark.smoke
def test_fragment_class_identity_ignores_spelling():
    """One C++ type per template-argument set: fragment<..., col_major> and
    fragment<..., col_major, default_schedule> are the same class."""
    plain = fragment[matrix_b, 16, 16, 16, float16, col_major]
    assert plain is fragment[matrix_b, 16, 16, 16, float16, col_major,
                             fragment_scheduler.default_schedule]
    with use_arch("gfx942"):
        a = fragment[matrix_a, 16, 16, 16, float16, row_major]()
        assert type(apply_transpose(a)) is plain
