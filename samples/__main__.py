"""`rocwmma-sample NAME [args]` (or `python -m rocwmma_py.samples NAME [args]`): run a sample.

`rocwmma-sample --list` names them; `rocwmma-sample NAME --help` shows a sample's options.
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import importlib
import pkgutil
import sys
from collections.abc import Sequence

from rocwmma_py import __version__

_HELPERS = {"common", "simple_gemm_common", "simple_gemv_common", "perf_gemm_common",
            "cuda.common"}


def sample_names() -> list[str]:
    """Every runnable sample module, `cuda.` ones with their prefix, sorted."""
    here = importlib.import_module(__package__)
    names = []
    for info in pkgutil.walk_packages(here.__path__, prefix=f"{__package__}."):
        name = info.name.removeprefix(f"{__package__}.")
        if info.ispkg or name.split(".")[-1].startswith("_") or name in _HELPERS:
            continue
        names.append(name)
    return sorted(names)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names = sample_names()
    usage = "usage: rocwmma-sample NAME [options]   (rocwmma-sample --list; NAME --help)"
    if not args or args[0] in ("-h", "--help"):
        print(f"{usage}\n\nsamples: {', '.join(names)}")
        return 0 if args else 2
    if args[0] == "--version":
        print(f"rocwmma-sample (rocwmma_py {__version__})")
        return 0
    if args[0] == "--list":
        print("\n".join(names))
        return 0
    if args[0] not in names:
        print(f"rocwmma-sample: unknown sample {args[0]!r}; samples are: {', '.join(names)}",
              file=sys.stderr)
        return 2
    module = importlib.import_module(f"{__package__}.{args[0]}")
    return module.main(args[1:])


if __name__ == "__main__":
    raise SystemExit(main())
