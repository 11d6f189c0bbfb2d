"""Device properties (`rocwmma_py.arch.devices`): hipGetDeviceProperties / cudaGetDeviceProperties
as a persistent-grid kernel ported from HIP or CUDA reads them."""

import numpy as np
import pytest

import rocwmma_py
from rocwmma_py import (
    ARCH_NAMES,
    ArchError,
    DeviceError,
    DeviceProperties,
    device_properties,
    get_arch,
    kernel,
    threadIdx,
    use_arch,
)
from rocwmma_py.arch import devices
from rocwmma_py.cuda import cudaGetDeviceCount, cudaGetDeviceProperties
from rocwmma_py.runtime import hipGetDeviceCount, hipGetDeviceProperties

# Public CU counts of the named products: independent facts, not read from the table.
PUBLIC_CUS = {"gfx942": 304, "gfx1100": 96, "gfx1201": 64}


@pytest.mark.parametrize("arch", ARCH_NAMES)
def test_every_target_has_a_row_that_agrees_with_its_arch_row(arch):
    prop = device_properties(arch)
    a = get_arch(arch)
    assert isinstance(prop, DeviceProperties)
    assert prop.warpSize == a.wave_size
    assert prop.sharedMemPerBlock == prop.maxSharedMemoryPerMultiProcessor == a.lds_bytes
    assert prop.gcnArchName.split(":")[0] == arch
    assert prop.maxThreadsPerBlock == 1024 and prop.maxThreadsDim == (1024, 1024, 1024)
    assert prop.maxGridSize == (2147483647, 65536, 65536)
    assert prop.multiProcessorCount > 0 and prop.clockRate > 0 and prop.l2CacheSize > 0


@pytest.mark.parametrize("arch, cus", PUBLIC_CUS.items())
def test_named_products_have_their_public_cu_counts(arch, cus):
    assert device_properties(arch).multiProcessorCount == cus


def test_mi300x_as_hip_reports_it():
    prop = device_properties("gfx942")
    assert prop.name == "AMD Instinct MI300X"
    assert prop.gcnArchName == "gfx942:sramecc+:xnack-"
    assert (prop.major, prop.minor) == (9, 4)
    assert prop.clockRate == 2_100_000  # kHz
    assert device_properties("gfx950").sharedMemPerBlock == 160 * 1024


def test_properties_are_frozen():
    prop = device_properties("gfx942")
    with pytest.raises(AttributeError):
        prop.multiProcessorCount = 1  # type: ignore[misc]


def test_default_is_the_current_target():
    with use_arch("gfx1100"):
        assert device_properties() == hipGetDeviceProperties(0) == cudaGetDeviceProperties()
        assert device_properties().name == "AMD Radeon RX 7900 XTX"
    assert hipGetDeviceCount() == cudaGetDeviceCount() == 1


@pytest.mark.parametrize("call", [hipGetDeviceProperties, cudaGetDeviceProperties])
@pytest.mark.parametrize("device", [1, -1, True, "0"])
def test_other_devices_are_refused(call, device):
    with pytest.raises(DeviceError, match="one device, device 0"):
        call(device)


def test_unknown_arch_raises_arch_error():
    with pytest.raises(ArchError, match="gfx942"):
        device_properties("gfx9999")


def test_one_product_row_per_target():
    assert tuple(devices._PRODUCTS) == ARCH_NAMES


def test_exports():
    ns: dict = {}
    exec("from rocwmma_py.cuda import *", ns)
    assert ns["cudaGetDeviceProperties"] is cudaGetDeviceProperties
    assert ns["cudaGetDeviceCount"] is cudaGetDeviceCount
    assert ns["last_launch_stats"] is rocwmma_py.runtime.last_launch_stats
    assert rocwmma_py.last_launch_stats is rocwmma_py.runtime.last_launch_stats
    assert {"device_properties", "DeviceProperties", "DeviceError",
            "last_launch_stats"} <= set(rocwmma_py.__all__)
    assert {"hipGetDeviceProperties", "hipGetDeviceCount"} <= set(rocwmma_py.runtime.__all__)


@kernel
def _read_cus(out):
    out[threadIdx.x] = cudaGetDeviceProperties(0).multiProcessorCount


@pytest.mark.parametrize("arch, cus", [("gfx942", 304), ("gfx1100", 96)])
def test_inside_a_kernel_the_kernels_target(arch, cus):
    wave = get_arch(arch).wave_size
    out = np.zeros(wave, np.int32)
    with use_arch("gfx1201"):  # the launch's target wins over the setting
        _read_cus[1, wave, 0, arch](out)
    assert (out == cus).all()


def test_last_launch_stats_at_the_top_level():
    out = np.zeros(64, np.int32)
    _read_cus[2, 64, 0, "gfx942"](out)
    stats = rocwmma_py.last_launch_stats()
    assert stats is not None
    assert stats.batched_blocks + stats.per_wave_blocks == 2
