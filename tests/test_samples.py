"""The ported samples (samples/*): each main() runs and validates; validation can fail."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

mfma_examples = importlib.import_module("samples.mfma_examples")
rdna3_wmma_hello = importlib.import_module("samples.rdna3_wmma_hello")
rdna4_int8_fused_mma = importlib.import_module("samples.rdna4_int8_fused_mma")
rdna4_transpose_load = importlib.import_module("samples.rdna4_transpose_load")
rdna4_wmma_hello = importlib.import_module("samples.rdna4_wmma_hello")
validate = importlib.import_module("samples.common").validate

pytestmark = pytest.mark.smoke

SAMPLES = {
    "samples.rdna3_wmma_hello": "gfx1100",
    "samples.rdna4_wmma_hello": "gfx1200",
    "samples.rdna4_transpose_load": "gfx1200",
    "samples.rdna4_int8_fused_mma": "gfx1200",
    "samples.mfma_examples": "gfx942",
    "samples.splitk_gemm": "gfx942",
    "samples.softmax_attention": "gfx942",
    "samples.persistent_gemm": "gfx942",
    "samples.sparse_gemm": "gfx942",
    "samples.cuda.rms_norm": "gfx942",
    "samples.cuda.softmax": "gfx942",
}
OTHER_ARCHES = [
    ("samples.rdna3_wmma_hello", "gfx1101"),
    ("samples.rdna3_wmma_hello", "gfx1102"),
    ("samples.rdna4_wmma_hello", "gfx1201"),
    ("samples.rdna4_transpose_load", "gfx1201"),
    ("samples.rdna4_int8_fused_mma", "gfx1201"),
    ("samples.mfma_examples", "gfx90a"),
    ("samples.mfma_examples", "gfx950"),
    ("samples.splitk_gemm", "gfx1100"),
    ("samples.softmax_attention", "gfx1100"),
    ("samples.softmax_attention", "gfx1201"),
    ("samples.persistent_gemm", "gfx1100"),
    ("samples.persistent_gemm", "gfx1201"),
    ("samples.sparse_gemm", "gfx1201"),
    ("samples.cuda.rms_norm", "gfx1100"),
    ("samples.cuda.softmax", "gfx1100"),
]


def test_rms_norm_runs_half_waves_batched(capsys):
    """32-thread blocks on wave64: every block batched, none rerun per wave."""
    rms_norm = importlib.import_module("samples.cuda.rms_norm")
    assert rms_norm.main(["-r", "8", "-c", "96"]) == 0
    out = capsys.readouterr().out
    assert "half a wave" in out and "8 blocks batched, 0 per wave" in out


@pytest.mark.parametrize("module", list(SAMPLES))
def test_sample_main_passes(module, capsys):
    rc = importlib.import_module(module).main([])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "PASSED" in out and "FAILED" not in out
    assert SAMPLES[module] in out  # the default target is reported


@pytest.mark.parametrize(("module", "arch"), OTHER_ARCHES)
def test_sample_main_other_arch(module, arch, capsys):
    rc = importlib.import_module(module).main(["--arch", arch])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "PASSED" in out and "FAILED" not in out and arch in out


def test_mfma_examples_refuse_gfx908():
    # v_mfma_f64_4x4x4f64 needs gfx90a or later; argparse rejects the choice
    with pytest.raises(SystemExit):
        mfma_examples.main(["--arch", "gfx908"])


# -- validation can fail: a deliberately transposed input must be reported as a mismatch ----


def _ints(rng, shape, lo=-4, hi=4):
    return rng.integers(lo, hi, size=shape, endpoint=True)


def _expect_mismatch(capsys, name, got, ref, actual):
    """validate(got, ref) reports FAILED, while got is exactly the product actually asked for."""
    assert validate(name, got, ref) is False
    assert "FAILED" in capsys.readouterr().out
    assert np.array_equal(np.asarray(got, np.float64), actual)


@pytest.mark.parametrize("opsel", [False, True])
def test_rdna3_transposed_a_fails(opsel, capsys):
    rng = np.random.default_rng(1)
    a, b = _ints(rng, (16, 16)), _ints(rng, (16, 16))
    got = rdna3_wmma_hello.run(a.T, b, opsel)
    _expect_mismatch(capsys, "rdna3", got, a @ b, (a.T @ b).astype(np.float64))


@pytest.mark.parametrize("sample", [rdna4_wmma_hello, rdna4_transpose_load])
def test_rdna4_transposed_b_fails(sample, capsys):
    rng = np.random.default_rng(2)
    a, b = _ints(rng, (16, 16)), _ints(rng, (16, 16))
    got = sample.run(a, b.T)
    _expect_mismatch(capsys, sample.__name__, got, a @ b, (a @ b.T).astype(np.float64))


def test_int8_fused_transposed_b_fails(capsys):
    m0, n0, k0 = rdna4_int8_fused_mma.M0, rdna4_int8_fused_mma.N0, rdna4_int8_fused_mma.K0
    rng = np.random.default_rng(3)
    h_a, h_b = _ints(rng, m0 * k0, -3, 3), _ints(rng, n0 * k0, -3, 3)
    h_b_wrong = h_b.reshape(n0, k0).T.reshape(-1)  # K x N instead of the kernel's N x K
    got = rdna4_int8_fused_mma.run(h_a, h_b_wrong)
    ref = rdna4_int8_fused_mma.reference(h_a, h_b)
    # independent reference for what was passed: C[i + j*M0] = sum_k A[i*K0+k] * B'[j*K0+k]
    actual = np.einsum("ik,jk->ji", h_a.reshape(m0, k0), h_b_wrong.reshape(n0, k0)).reshape(-1)
    _expect_mismatch(capsys, "fused_mma_TN", got, ref, actual.astype(np.float64))


@pytest.mark.parametrize(
    ("run", "a_shape", "b_shape", "transpose"),
    [
        (mfma_examples.run_example1, (16, 4), (4, 16), (1, 0)),
        (mfma_examples.run_example2, (4, 16, 1), (4, 1, 16), (1, 0, 2)),
        (mfma_examples.run_example3, (4, 4, 4), (4, 4, 4), (0, 2, 1)),
    ],
)
def test_mfma_transposed_a_fails(run, a_shape, b_shape, transpose, capsys):
    rng = np.random.default_rng(4)
    a, b = _ints(rng, a_shape), _ints(rng, b_shape)
    a_wrong = np.ascontiguousarray(a.transpose(transpose)).reshape(a_shape)  # same size
    got = run(a_wrong, b)
    _expect_mismatch(capsys, run.__name__, got, a @ b, (a_wrong @ b).astype(np.float64))


# -- softmax_attention: both engines, batched for real, and a broken reduction fails ----------

softmax_attention = importlib.import_module("samples.softmax_attention")


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_softmax_attention_same_on_both_engines(arch):
    from rocwmma_py.runtime import last_launch_stats, use_engine

    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((3, n, 32)).astype(np.float16) for n in (64, 48, 48))
    outs = {}
    for engine in ("wave", "batch"):
        with use_engine(engine):
            outs[engine] = softmax_attention.run(arch, q, k, v)
    assert last_launch_stats().per_wave_blocks == 0
    assert outs["wave"].tobytes() == outs["batch"].tobytes()
    ref = softmax_attention.reference(q, k, v)
    assert np.abs(outs["batch"] - ref).max() <= 2.0**-10 * np.abs(v.astype(float)).max()


def test_softmax_attention_broken_reduction_fails(monkeypatch, capsys):
    """Row sums over 8 lanes instead of 16 give wrong weights: FAILED, exit status 1."""
    real = softmax_attention.row_reduce
    monkeypatch.setattr(softmax_attention, "row_reduce",
                        lambda x, combine: real(x, combine) if combine is not np.add
                        else x + softmax_attention.__shfl_xor(x, 1, 16))
    rc = softmax_attention.main(["-s", "32", "-t", "32", "-d", "16", "-e", "1"])
    assert rc == 1 and "FAILED" in capsys.readouterr().out


def test_softmax_attention_refuses_partial_tiles(capsys):
    assert softmax_attention.main(["-s", "40"]) == 2
    assert "multiples of 16" in capsys.readouterr().out


# -- sparse_gemm: the kernel's lane formulas are the instructions' layouts; both engines -----

sparse_gemm = importlib.import_module("samples.sparse_gemm")
SPARSE_ARCHES = ["gfx942", "gfx950", "gfx1200", "gfx1201"]


@pytest.mark.parametrize("arch", SPARSE_ARCHES)
def test_sparse_gemm_lane_formulas_are_the_layouts(arch):
    from rocwmma_py import amdgcn, get_arch

    t = sparse_gemm.TARGETS[get_arch(arch).family]
    instr = amdgcn.instruction(t.sparse, arch)
    for layout, lane_map, vec in ((instr.a_layout, t.a_map, t.a_t),
                                  (instr.b_layout, t.b_map, t.b_t),
                                  (instr.c_layout(), t.c_map, t.c_t)):
        assert (layout.lanes, layout.slots) == (instr.wave, vec.n)
        assert (layout.block == 0).all()  # every slot used, one block
        lane, slot = np.ogrid[:layout.lanes, :layout.slots]
        row, col = np.broadcast_arrays(*lane_map(lane, slot))
        assert np.array_equal(row, layout.row) and np.array_equal(col, layout.col)
    assert t.idx_t.n == t.a_t.n and instr.index_sets >= 1


def test_sparse_gemm_index_word_is_what_registers_builds():
    """pack_index on the kernel's loads = Compressed.registers' index word (set 0)."""
    from types import SimpleNamespace

    from rocwmma_py.sparse import compress_4to2

    rng = np.random.default_rng(6)
    for arch in ("gfx942", "gfx1201"):
        t = sparse_gemm.TARGETS["gfx9" if arch == "gfx942" else "gfx12"]
        a = sparse_gemm.prune_4to2(rng.standard_normal((16, 32)).astype(np.float16))
        packed = compress_4to2(a)
        _, want = packed.registers(t.sparse, arch)
        lane, slot = np.ogrid[:want.size, :t.idx_t.n]
        row, col = t.a_map(lane, slot)
        positions = SimpleNamespace(n=t.idx_t.n, regs=packed.indices[row, col])  # a uchar vector
        assert np.array_equal(sparse_gemm.pack_index(positions), want)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_sparse_gemm_same_on_both_engines(arch):
    from rocwmma_py.runtime import last_launch_stats, use_engine
    from rocwmma_py.sparse import compress_4to2

    rng = np.random.default_rng(7)
    a = sparse_gemm.prune_4to2(rng.standard_normal((32, 64)).astype(np.float16))
    b = rng.standard_normal((64, 48)).astype(np.float16)
    c = rng.standard_normal((32, 48)).astype(np.float32)
    outs = {}
    for engine in ("wave", "batch"):
        with use_engine(engine):
            outs[engine] = sparse_gemm.run(arch, compress_4to2(a), b, c)
    assert last_launch_stats().per_wave_blocks == 0  # the kernel stays batched
    assert outs["wave"].tobytes() == outs["batch"].tobytes()
    ref = a.astype(np.float64) @ b.astype(np.float64) + c
    assert (np.abs(outs["batch"] - ref) <= sparse_gemm.error_bound(a, b, c, 2)).all()


def test_sparse_gemm_ignoring_the_index_fails(monkeypatch, capsys):
    """Index words of 0 (every stored value read as position 0 of its group) multiply the
    wrong B rows: FAILED, exit status 1."""
    monkeypatch.setattr(sparse_gemm, "pack_index",
                        lambda positions: 0 * positions.regs[..., 0].astype(np.int32))
    assert sparse_gemm.main(["-m", "16", "-n", "16", "-k", "64"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_sparse_gemm_refuses_partial_steps(capsys):
    assert sparse_gemm.main(["-k", "48"]) == 2
    assert "Unsupported size!" in capsys.readouterr().out
