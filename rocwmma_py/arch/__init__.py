"""Architectures as data: one `Arch` row per GPU target, each with its instruction table."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..errors import ArchError

LDS_BYTES = 64 * 1024
GFX950_LDS_BYTES = 160 * 1024  # CDNA4 raised LDS per CU to 160 KiB


@dataclass(frozen=True, eq=False)
class Arch:
    """One GPU target: its family, wave size, LDS size and the matrix instructions it has."""

    name: str
    family: str  # "gfx9" (CDNA, MFMA), "gfx11" (RDNA3, WMMA), "gfx12" (RDNA4, WMMA)
    wave_size: int
    arch_id: int
    lds_bytes: int
    # the validated bit-level model of its matrix cores ("cdna1", ...; `arch/models.py`), None
    # where no public one exists: those targets compute with the exact model
    silicon_model: str | None

    @cached_property
    def instructions(self) -> dict:
        """Instruction table of this target: builtin name -> `Instruction`."""
        from .instructions import instructions_for

        return instructions_for(self)

    def __str__(self) -> str:
        return self.name


_ROWS = [
    # name,     family,  wave, arch_id, LDS bytes per workgroup, silicon numerics model
    ("gfx908", "gfx9", 64, 0x0908, LDS_BYTES, "cdna1"),
    ("gfx90a", "gfx9", 64, 0x090A, LDS_BYTES, "cdna2"),
    ("gfx942", "gfx9", 64, 0x0942, LDS_BYTES, "cdna3"),
    ("gfx950", "gfx9", 64, 0x0950, GFX950_LDS_BYTES, None),
    ("gfx1100", "gfx11", 32, 0x1100, LDS_BYTES, None),
    ("gfx1101", "gfx11", 32, 0x1101, LDS_BYTES, None),
    ("gfx1102", "gfx11", 32, 0x1102, LDS_BYTES, None),
    ("gfx1200", "gfx12", 32, 0x1200, LDS_BYTES, None),
    ("gfx1201", "gfx12", 32, 0x1201, LDS_BYTES, None),
]

ARCH_NAMES: tuple[str, ...] = tuple(r[0] for r in _ROWS)


_ARCHS: dict[str, Arch] = {row[0]: Arch(*row) for row in _ROWS}


def get_arch(name: str | Arch) -> Arch:
    """Look up a target by name ("gfx942"); unknown names raise listing the valid ones."""
    if isinstance(name, Arch):
        return name
    try:
        return _ARCHS[str(name).lower()]
    except KeyError:
        raise ArchError(
            f"unknown architecture {name!r}; valid names are: {', '.join(ARCH_NAMES)}"
        ) from None
