"""Random kernels (tests/kernel_fuzz.py) on both engines: identical outputs, globals left
behind and exceptions (type and message), whatever mix of constructs the kernel uses."""

from __future__ import annotations

import pytest
from kernel_fuzz import generate, run_case

DEFAULT_KERNELS = 400
EXTENDED_KERNELS = 5000


def check(seed: int) -> bool:
    """Asserts both engines agree on kernel `seed`; True when the batch stayed batched."""
    case = generate(seed)
    wave, batch = run_case(case, "wave"), run_case(case, "batch")
    where = f"kernel {seed}:\n{case.source}"
    assert batch.error == wave.error, where
    for name, expected in wave.buffers.items():
        assert batch.buffers[name].tobytes() == expected.tobytes(), f"{name} differs in {where}"
    assert batch.globals_ == wave.globals_, where
    return batch.stats.per_wave_blocks == 0


@pytest.mark.parametrize("chunk", range(8))
def test_random_kernels_agree(chunk):
    per_chunk = DEFAULT_KERNELS // 8
    batched = sum(check(seed) for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk))
    assert batched > 0  # the comparison is not only per-wave runs against per-wave runs


@pytest.mark.extended
@pytest.mark.parametrize("chunk", range(50))
def test_random_kernels_agree_extended(chunk):
    per_chunk = EXTENDED_KERNELS // 50
    for seed in range(10_000 + chunk * per_chunk, 10_000 + (chunk + 1) * per_chunk):
        check(seed)


def test_generator_is_deterministic():
    a, b = generate(7), generate(7)
    assert a.source == b.source
    assert all((a.inputs[k] == b.inputs[k]).all() for k in a.inputs)
