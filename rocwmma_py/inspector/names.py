"""Names the inspector accepts (targets, element types, instructions), with "did you mean"
suggestions (difflib) in the error for a misspelt one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from .. import types as T
from ..arch import ARCH_NAMES, Arch, get_arch
from ..arch.aliases import closest, either, valid_names
from ..arch.instructions import Instruction
from ..errors import ArchError, LayoutQueryError

SM80 = "sm_80"  # NVIDIA's documented mma.m16n8k16 fragments, for comparison
TARGETS = (*ARCH_NAMES, SM80)
_DTYPE_ALIASES = {"float": "f32", "half": "f16", "tf32": "xf32", "double": "f64"}
DTYPES = ("f16", "bf16", "f32", "f64", "i8", "u8", "i32", "u32", "i4", "u4", "f8", "bf8",
          "f8_fnuz", "bf8_fnuz", "xf32")


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """' (did you mean X or Y?)' for the closest candidates, or ''."""
    close = difflib.get_close_matches(word.lower(), list(candidates), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def target_name(name: str) -> str:
    """A target name, lower-cased, or the gfx name of a product/generation alias ("MI300X");
    unknown ones raise with the closest and the valid names."""
    key = str(name).lower()
    if key in TARGETS:
        return key
    try:
        return get_arch(name).name
    except ArchError:
        close = closest(name, TARGETS)
        hint = f" (did you mean {either(close)}?)" if close else ""
        raise LayoutQueryError(f"unknown architecture {name!r}{hint}; valid names are: "
                               f"{valid_names(TARGETS)}") from None


def arch(name: str) -> Arch:
    """The `Arch` row of an AMD target (not sm_80)."""
    key = target_name(name)
    if key == SM80:
        raise LayoutQueryError("sm_80 has no AMD instruction table; give an AMD target "
                               f"({', '.join(ARCH_NAMES)})")
    return get_arch(key)


def dtype(name: str) -> type:
    """An element type by name ("f16", "float", "bf16", ...), with a suggestion if misspelt."""
    key = str(name).lower()
    key = _DTYPE_ALIASES.get(key, key)
    try:
        return T.resolve(key)
    except TypeError:
        known = [*DTYPES, *_DTYPE_ALIASES]
        raise LayoutQueryError(f"unknown element type {name!r}{did_you_mean(key, known)}; "
                               f"valid names are: {', '.join(known)}") from None


def instruction(name: str, target: Arch, wave: int | None = None) -> Instruction:
    """An instruction of `target` by ISA mnemonic or builtin name (with or without
    `__builtin_amdgcn_`); a builtin fixes the wave size, a mnemonic takes `wave` (default:
    the target's). Misses raise naming the waves it exists for or the closest names."""
    key = str(name).lower().removeprefix("__builtin_amdgcn_")
    table = target.instructions.values()
    waves = sorted({i.wave for i in table})
    if wave is not None and wave not in waves:
        raise LayoutQueryError(f"--wave must be {' or '.join(map(str, waves))} on "
                               f"{target.name}; got {wave}")
    by_builtin = [i for i in table if i.builtin == key]
    if by_builtin:
        found = by_builtin[0]
        if wave is not None and wave != found.wave:
            raise LayoutQueryError(f"{found.builtin} is the wave{found.wave} builtin; drop "
                                   f"--wave or give the ISA name {found.isa} with --wave {wave}")
        return found
    wave = wave or target.wave_size
    by_isa = [i for i in table if i.isa == key]
    for i in by_isa:
        if i.wave == wave:
            return i
    if by_isa:
        have = " and ".join(f"wave{w}" for w in sorted({i.wave for i in by_isa}))
        raise LayoutQueryError(f"{key} on {target.name} exists for {have}, not wave{wave}")
    names = sorted({i.isa for i in table} | {i.builtin for i in table})
    elsewhere = [a for a in ARCH_NAMES if a != target.name and any(
        key in (i.isa, i.builtin) for i in get_arch(a).instructions.values())]
    where = f"; it exists on {', '.join(elsewhere)}" if elsewhere else ""
    raise LayoutQueryError(f"{target.name} has no instruction {key!r}{did_you_mean(key, names)}"
                           f"{where}; `--list-instructions --arch {target.name}` lists them")
