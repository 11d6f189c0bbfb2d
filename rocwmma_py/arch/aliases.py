"""Product and generation names of the targets ("MI300X", "RX 7900 XTX", "CDNA3"): input aliases
of the gfx names, which stay the only names the emulator prints.

A name matches an alias case-insensitively, ignoring spaces, hyphens and underscores, an "AMD",
"Radeon" or "Instinct" prefix and a "Graphics" suffix: "mi300x", "AMD Instinct MI300X",
"rx7900xtx", "AMD Radeon 780M Graphics" all match. Unknown names get the closest gfx names and
aliases (difflib) as suggestions.

Sources (product -> target):
- LLVM AMDGPUUsage, "AMDGPU Processors" table (llvm/docs/AMDGPUUsage.rst; the RX 7800 XT /
  7700 XT / 7600 (XT) rows from llvm/llvm-project#170469): every product row below.
- Gentoo's amdgpu_targets USE flags (packages.gentoo.org/useflags/amdgpu_targets_gfx1150 ...),
  which name the dies: Navi31 = gfx1100, Navi32 = gfx1101, Navi33 = gfx1102, Phoenix (780M) =
  gfx1103, Strix Point (890M) = gfx1150, Strix Halo (8060S) = gfx1151.
- AMD product pages (the representative products of `arch/devices.py`): Radeon 860M
  (Krackan Point) = gfx1152, Radeon 820M = gfx1153, RX 9060 XT = gfx1200 (Navi44), RX 9070 (XT)
  = gfx1201 (Navi48), MI350X / MI355X = gfx950 (AMD CDNA 4 whitepaper).
- The AMD Matrix Instruction Calculator's `-a` aliases (its README, v1.3.2,
  "What it supports"): the generation names CDNA1/2/3, RDNA3/4 and the codenames ARCTURUS,
  ALDEBARAN, AQUA_VANJARAM, each meaning the gfx its README gives. Its MI200 / MI300 / CDNA /
  GFX940 / GFX941 are left out: product families and gfx940/941 are not one target here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

# display name -> gfx target, in target order
ALIASES: dict[str, str] = {
    # CDNA (gfx9, MFMA)
    "MI100": "gfx908", "CDNA1": "gfx908", "ARCTURUS": "gfx908",
    "MI210": "gfx90a", "MI250": "gfx90a", "MI250X": "gfx90a", "CDNA2": "gfx90a",
    "ALDEBARAN": "gfx90a",
    "MI300A": "gfx942", "MI300X": "gfx942", "MI325X": "gfx942", "CDNA3": "gfx942",
    "AQUA_VANJARAM": "gfx942",
    "MI350X": "gfx950", "MI355X": "gfx950", "CDNA4": "gfx950",
    # RDNA3 (gfx11, WMMA): Navi31, Navi32, Navi33, Phoenix
    "RX 7900 XTX": "gfx1100", "RX 7900 XT": "gfx1100", "RX 7900 GRE": "gfx1100",
    "RDNA3": "gfx1100",
    "RX 7800 XT": "gfx1101", "RX 7700 XT": "gfx1101",
    "RX 7600": "gfx1102", "RX 7600 XT": "gfx1102",
    "Radeon 780M": "gfx1103",
    # RDNA 3.5 APUs
    "Radeon 890M": "gfx1150", "Strix Point": "gfx1150",
    "Radeon 8060S": "gfx1151", "Strix Halo": "gfx1151",
    "Radeon 860M": "gfx1152", "Krackan Point": "gfx1152", "Krackan": "gfx1152",
    "Radeon 820M": "gfx1153",
    # RDNA4 (gfx12, WMMA)
    "RX 9060 XT": "gfx1200", "RDNA4": "gfx1200",
    "RX 9070": "gfx1201", "RX 9070 XT": "gfx1201",
    "RDNA4m": "gfx1170",  # "GFX11.7 (RDNA 4m)", llvm/llvm-project#180185
    "CDNA5": "gfx1250",  # GFX12.5; gfx1251 has no public name
}

_PREFIX = re.compile(r"^(amd|radeon|instinct)+")
_SUFFIX = re.compile(r"graphics$")


def normalize(name: str) -> str:
    """The matching key of a name: lower case, without spaces, hyphens, underscores, an
    AMD/Radeon/Instinct prefix or a Graphics suffix ("AMD Instinct MI300X" -> "mi300x")."""
    key = re.sub(r"[\s\-_]+", "", str(name).lower())
    return _SUFFIX.sub("", _PREFIX.sub("", key)) or key


_BY_KEY: dict[str, str] = {normalize(alias): alias for alias in ALIASES}


def target_of(name: str) -> str | None:
    """The gfx name an alias means, or None when `name` is no alias."""
    alias = _BY_KEY.get(normalize(name))
    return ALIASES[alias] if alias is not None else None


def closest(name: str, targets: Iterable[str]) -> list[str]:
    """Up to three targets or aliases close to `name`, best first (those it begins first),
    aliases shown with their target ("MI300X (gfx942)")."""
    shown = {normalize(t): t for t in targets}
    shown.update((key, f"{alias} ({ALIASES[alias]})") for key, alias in _BY_KEY.items())
    key = normalize(name)
    keys = difflib.get_close_matches(key, list(shown), n=len(shown), cutoff=0.8)
    keys.sort(key=lambda k: not k.startswith(key))  # stable: "rx7900" -> the RX 7900s first
    return [shown[k] for k in keys[:3]]


def either(names: list[str]) -> str:
    """ "A", "A or B", "A, B or C"."""
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))


def valid_names(targets: Iterable[str]) -> str:
    """`targets`, then every alias: the valid names of an error message."""
    return f"{', '.join(targets)}, or a product or generation name ({', '.join(ALIASES)})"


def unknown_target(name: object, targets: Iterable[str]) -> str:
    """The message for a name that is neither one of `targets` nor an alias: the closest
    names, then every valid one."""
    targets = list(targets)
    close = closest(str(name), targets)
    hint = f"; did you mean {either(close)}? Valid" if close else "; valid"
    return f"unknown architecture {name!r}{hint} names are: {valid_names(targets)}"
