"""Device properties: one representative product per target, as HIP's `hipDeviceProp_t` shows it.

Persistent-grid kernels size their grid from `hipGetDeviceProperties` / `cudaGetDeviceProperties`
(`prop.multiProcessorCount * blocks_per_cu`), so a ported kernel needs the numbers of a real
product. Each target gets one named product (`_PRODUCTS`); what HIP computes the same way on
every device (ROCm clr `hipamd/src/hip_device.cpp`, `ihipGetDeviceProperties`) is derived here
once:

- `maxGridSize` = (INT32_MAX, UINT16_MAX + 1, UINT16_MAX + 1) = (2147483647, 65536, 65536)
  (clr: `maxGridSize[1] = uint16_max` with `uint16_max = numeric_limits<uint16_t>::max() + 1`;
  rocminfo prints the HSA limits 2147483647 / 65535 / 65535 instead).
- `maxThreadsPerBlock` 1024 and `maxThreadsDim` (1024, 1024, 1024): rocminfo "Workgroup Max
  Size" on every target.
- `sharedMemPerBlock` = `maxSharedMemoryPerMultiProcessor` = LDS per CU (clr:
  `localMemSizePerCU_`): the `Arch` row's `lds_bytes` (64 KiB; 160 KiB on gfx950).
- `regsPerBlock` = 65536 (clr: `availableRegistersPerCU_`; hipInfo dumps show 65536 on CDNA
  and RDNA alike; no per-product dump was checked, so treat it as the common figure).
- `warpSize` from the `Arch` row; `major`, `minor` from the target name as clr's
  `isa.versionMajor()/versionMinor()` does (gfx942 -> 9, 4; gfx90a -> 9, 0; gfx1151 -> 11, 5).
- `clockRate`, `memoryClockRate` in kHz (clr multiplies the MHz figures by 1000).

Product sources (rocminfo dumps quoted in public GitHub issues, AMD product spec pages):
see the comment above each row. "spec" means AMD's product page / whitepaper figure;
"unsourced" marks a value no dump or spec page was found for (the best public figure is used).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DeviceError
from . import ARCH_NAMES, get_arch

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

MAX_THREADS_PER_BLOCK = 1024
MAX_THREADS_DIM = (1024, 1024, 1024)
MAX_GRID_SIZE = (2**31 - 1, 2**16, 2**16)  # HIP's, see the module docstring
REGS_PER_BLOCK = 65536
# Matrix-capable SIMDs per CU (rocminfo "SIMDs per CU": 4 on CDNA, 2 on RDNA 3/3.5/4): not a
# hipDeviceProp_t field, used by the perf samples' peak model.
SIMDS_PER_CU = {"gfx9": 4, "gfx11": 2, "gfx12": 2, "gfx1250": 2}


@dataclass(frozen=True)
class Product:
    """The per-product numbers of one target's representative device."""

    product: str  # short label (perf samples' model line)
    name: str  # hipDeviceProp_t::name (the marketing name HIP reports)
    features: str  # target-id features after the name in gcnArchName ("" for none)
    cus: int
    clock_mhz: int  # peak engine clock
    memory_clock_mhz: int
    bus_bits: int
    l2_bytes: int
    memory_bytes: int
    integrated: bool = False  # APU: device memory is system memory


_SRAMECC = ":sramecc+:xnack-"  # how HIP reports the CDNA datacenter parts' default target id

_PRODUCTS: dict[str, Product] = {
    # MI100: rocminfo/clinfo 120 CUs, 1502 MHz (CLRX/CLRX-mirror#34); spec: 32 GB HBM2,
    # 4096-bit, 1.2 GHz memory clock, 8 MB L2.
    "gfx908": Product("MI100", "AMD Instinct MI100", _SRAMECC, 120, 1502, 1200, 4096, 8 * MiB,
                      32 * GiB),
    # MI250X, one GCD (HIP shows each GCD as a device, named "AMD Instinct MI250X/MI250"):
    # rocminfo 1700 MHz, L2 8192 KB (ROCm/aiter#179); spec: 220 CUs / 128 GB HBM2e / 8192-bit
    # per package, i.e. 110 CUs, 64 GB, 4096-bit per GCD, 1.6 GHz memory clock.
    "gfx90a": Product("MI250X (one GCD)", "AMD Instinct MI250X/MI250", _SRAMECC, 110, 1700, 1600,
                      4096, 8 * MiB, 64 * GiB),
    # MI300X: rocminfo 304 CUs, 2100 MHz, L2 4096 KB (per XCD, as HIP reports it)
    # (ROCm/hip#3716, ROCm/legacy-rocm-build#4414); spec: 192 GB HBM3, 8192-bit, 5.2 Gbps
    # (1.3 GHz memory clock).
    "gfx942": Product("MI300X", "AMD Instinct MI300X", _SRAMECC, 304, 2100, 1300, 8192, 4 * MiB,
                      192 * GiB),
    # MI355X: spec (CDNA4 whitepaper, nod-ai/amd-shark-ai#2005): 256 CUs, 2.4 GHz, 288 GB HBM3E
    # on 8 x 1024 bits at 8 Gbps, 4 MB L2 per XCD. Unsourced: memory clock (2.0 GHz = 8 Gbps / 4,
    # the MI300X ratio); no rocminfo/hipDeviceProp dump was found.
    "gfx950": Product("MI355X", "AMD Instinct MI355X", _SRAMECC, 256, 2400, 2000, 8192, 4 * MiB,
                      288 * GiB),
    # RX 7900 XTX: rocminfo 96 CUs, L2 6144 KB (ollama/ollama#3158; LACT#533: 24560 MiB,
    # GDDR6); spec: 2.5 GHz boost, 384-bit, 20 Gbps (1.25 GHz memory clock: unsourced, 20/16).
    "gfx1100": Product("RX 7900 XTX", "AMD Radeon RX 7900 XTX", "", 96, 2500, 1250, 384, 6 * MiB,
                       24 * GiB),
    # RX 7800 XT: rocminfo 60 CUs, L2 4096 KB (lamikr/rocm_sdk_builder#246); spec: 2430 MHz
    # boost, 16 GB, 256-bit, 19.5 Gbps (memory clock unsourced, 19.5/16 rounded down).
    "gfx1101": Product("RX 7800 XT", "AMD Radeon RX 7800 XT", "", 60, 2430, 1218, 256, 4 * MiB,
                       16 * GiB),
    # RX 7600: rocminfo 32 CUs (ROCm/pytorch#2730); spec: 2655 MHz boost, 8 GB, 128-bit,
    # 18 Gbps, 2 MB L2 (ROCm GPU arch spec table, ROCm/legacy-rocm-build#2972); memory clock
    # unsourced (18/16).
    "gfx1102": Product("RX 7600", "AMD Radeon RX 7600", "", 32, 2655, 1125, 128, 2 * MiB,
                       8 * GiB),
    # Radeon 780M (Phoenix APU): rocminfo 12 CUs, 2700 MHz, L2 2048 KB (ROCm/TheRock#1184);
    # 1200 MHz top memory clock state (ROCm/legacy-rocm-build#6512, pp_dpm_mclk); 128-bit
    # LPDDR5/DDR5. Unsourced: memory size (system memory; 16 GiB assumed).
    "gfx1103": Product("Radeon 780M", "AMD Radeon 780M Graphics", "", 12, 2700, 1200, 128,
                       2 * MiB, 16 * GiB, integrated=True),
    # Radeon 890M (Strix Point): rocminfo 16 CUs, 2900 MHz, L2 2048 KB
    # (ROCm/legacy-rocm-build#5108, #6191); 128-bit LPDDR5X. Unsourced: memory clock (780M's
    # 1200 MHz used) and size (16 GiB assumed).
    "gfx1150": Product("Radeon 890M", "AMD Radeon 890M Graphics", "", 16, 2900, 1200, 128,
                       2 * MiB, 16 * GiB, integrated=True),
    # Radeon 8060S (Strix Halo): rocminfo 2900 MHz, L2 2048 KB (antirez/ds4#475); spec: 40 CUs,
    # 256-bit LPDDR5X, up to 96 GB of a 128 GB system as GPU memory (antirez/ds4#475).
    # Unsourced: memory clock (780M's 1200 MHz used).
    "gfx1151": Product("Radeon 8060S", "AMD Radeon 8060S Graphics", "", 40, 2900, 1200, 256,
                       2 * MiB, 96 * GiB, integrated=True),
    # Radeon 860M (Krackan Point): spec 8 CUs, 3.0 GHz, 128-bit LPDDR5X. Unsourced: L2 (2 MB as
    # Strix Point), memory clock (1200 MHz) and size (16 GiB); no rocminfo dump was found.
    "gfx1152": Product("Radeon 860M", "AMD Radeon 860M Graphics", "", 8, 3000, 1200, 128,
                       2 * MiB, 16 * GiB, integrated=True),
    # Radeon 820M (Krackan Point 2): spec 4 CUs, 2.8 GHz. Unsourced: L2, memory clock, bus
    # width and size as the 860M; no rocminfo dump was found.
    "gfx1153": Product("Radeon 820M", "AMD Radeon 820M Graphics", "", 4, 2800, 1200, 128,
                       2 * MiB, 16 * GiB, integrated=True),
    # RX 9060 XT (16 GB): spec 32 CUs, 3130 MHz boost, 128-bit GDDR6 at 20 Gbps, 4 MB L2.
    # Unsourced: memory clock (20/16); no rocminfo dump was found.
    "gfx1200": Product("RX 9060 XT", "AMD Radeon RX 9060 XT", "", 32, 3130, 1250, 128, 4 * MiB,
                       16 * GiB),
    # RX 9070 XT: rocminfo 64 CUs, L2 8192 KB (ROCm/librocdxg#17, ROCm/TheRock#7712; board
    # clocks 2400-2570 MHz); spec: 2970 MHz boost, 16 GB, 256-bit GDDR6 at 20 Gbps (memory
    # clock unsourced, 20/16).
    "gfx1201": Product("RX 9070 XT", "AMD Radeon RX 9070 XT", "", 64, 2970, 1250, 256, 8 * MiB,
                       16 * GiB),
    # gfx1170 ("RDNA 4m", LLVM PR llvm/llvm-project#180185): no public product. Placeholder
    # figures of the RX 9060 XT (the smallest RDNA4 board) so persistent-grid kernels run;
    # name says so.
    "gfx1170": Product("gfx1170 (no public product)", "AMD gfx1170 (no public product)", "",
                       32, 3130, 1250, 128, 4 * MiB, 16 * GiB),
    # gfx1250/gfx1251 (GFX12.5): public mentions name the MI455X (gfx1250), but no spec sheet
    # or rocminfo dump was found: every figure is an unsourced placeholder (CUs, clocks,
    # memory as the MI355X row); LDS 320 KiB comes from the Arch row (LLVM AMDGPU.td).
    "gfx1250": Product("gfx1250 (no public product figures)",
                       "AMD gfx1250 (no public product figures)", "", 256, 2400, 2000, 8192,
                       4 * MiB, 288 * GiB),
    "gfx1251": Product("gfx1251 (no public product)", "AMD gfx1251 (no public product)", "",
                       256, 2400, 2000, 8192, 4 * MiB, 288 * GiB),
}
assert tuple(_PRODUCTS) == ARCH_NAMES, "one product row per target, in table order"


@dataclass(frozen=True)
class DeviceProperties:
    """The `hipDeviceProp_t` / `cudaDeviceProp` fields a ported kernel reads, with their C names
    (so `prop.multiProcessorCount` ports as written). Sizes in bytes, clocks in kHz."""

    name: str
    gcnArchName: str  # noqa: N815 - hipDeviceProp_t field names
    totalGlobalMem: int  # noqa: N815
    sharedMemPerBlock: int  # noqa: N815
    regsPerBlock: int  # noqa: N815
    warpSize: int  # noqa: N815
    maxThreadsPerBlock: int  # noqa: N815
    maxThreadsDim: tuple[int, int, int]  # noqa: N815
    maxGridSize: tuple[int, int, int]  # noqa: N815
    clockRate: int  # noqa: N815
    memoryClockRate: int  # noqa: N815
    memoryBusWidth: int  # noqa: N815
    major: int
    minor: int
    multiProcessorCount: int  # noqa: N815
    l2CacheSize: int  # noqa: N815
    maxSharedMemoryPerMultiProcessor: int  # noqa: N815
    integrated: int  # 1 on an APU, as in hipDeviceProp_t


def product(arch: str) -> Product:
    """The representative product row of `arch` (unknown names raise `ArchError`)."""
    return _PRODUCTS[get_arch(arch).name]


def _version(name: str) -> tuple[int, int]:
    """(major, minor) of a target name as HIP reports them: gfx<major><minor><stepping>."""
    digits = name.removeprefix("gfx")
    return int(digits[:-2]), int(digits[-2], 16)


def device_properties(arch: str | None = None) -> DeviceProperties:
    """The device properties of `arch` (default: the running kernel's target inside a kernel,
    else the configured default target), those of its representative product.

    Raises:
        ArchError: `arch` names no emulated target.
    """
    from ..runtime.target import current_arch

    a = current_arch() if arch is None else get_arch(arch)
    p = _PRODUCTS[a.name]
    major, minor = _version(a.name)
    return DeviceProperties(
        name=p.name, gcnArchName=a.name + p.features, totalGlobalMem=p.memory_bytes,
        sharedMemPerBlock=a.lds_bytes, regsPerBlock=REGS_PER_BLOCK, warpSize=a.wave_size,
        maxThreadsPerBlock=MAX_THREADS_PER_BLOCK, maxThreadsDim=MAX_THREADS_DIM,
        maxGridSize=MAX_GRID_SIZE, clockRate=p.clock_mhz * 1000,
        memoryClockRate=p.memory_clock_mhz * 1000, memoryBusWidth=p.bus_bits, major=major,
        minor=minor, multiProcessorCount=p.cus, l2CacheSize=p.l2_bytes,
        maxSharedMemoryPerMultiProcessor=a.lds_bytes, integrated=int(p.integrated),
    )


def _check_device(device: int, api: str) -> None:
    if isinstance(device, bool) or not isinstance(device, int) or device != 0:
        raise DeviceError(f"{api}(device={device!r}): the emulator has one device, device 0 "
                          "(the current target; choose the target with use_arch or the "
                          "launch's 4th slot)")


def hipGetDeviceProperties(device: int = 0) -> DeviceProperties:  # noqa: N802 - HIP name
    """HIP's `hipGetDeviceProperties(&prop, 0)`, written `prop = hipGetDeviceProperties(0)`
    (Python has no out-pointers): the properties of the current target."""
    _check_device(device, "hipGetDeviceProperties")
    return device_properties()


def cudaGetDeviceProperties(device: int = 0) -> DeviceProperties:  # noqa: N802 - CUDA name
    """CUDA's `cudaGetDeviceProperties(&prop, 0)`, written `prop = cudaGetDeviceProperties(0)`:
    the properties of the current target."""
    _check_device(device, "cudaGetDeviceProperties")
    return device_properties()


def hipGetDeviceCount() -> int:  # noqa: N802 - HIP name
    """`hipGetDeviceCount(&n)` as `n = hipGetDeviceCount()`: the emulator has one device."""
    return 1


def cudaGetDeviceCount() -> int:  # noqa: N802 - CUDA name
    """`cudaGetDeviceCount(&n)` as `n = cudaGetDeviceCount()`: the emulator has one device."""
    return 1


