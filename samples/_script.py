"""`python samples/X.py` (a sample run as a file): run it as the module it is,
`rocwmma_py.samples.X`, whose relative imports then resolve."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import NoReturn

SAMPLES = Path(__file__).resolve().parent


def run_as_module(file: str) -> NoReturn:
    """Run the sample `file` as `rocwmma_py.samples.<name>` with the rocwmma_py beside it: a
    checkout's own (its samples/ serving as rocwmma_py.samples, as the wheel installs it), or
    the installed package whose samples these are."""
    name = ".".join(Path(file).resolve().relative_to(SAMPLES).with_suffix("").parts)
    module = "rocwmma_py.samples" + ("" if name == "__main__" else f".{name}")
    tree = SAMPLES.parent
    checkout = (tree / "rocwmma_py" / "__init__.py").is_file()
    sys.path[0] = str(tree if checkout else tree.parent)  # was the script's own directory
    try:
        import rocwmma_py
    except ImportError as exc:
        sys.exit(f"{exc}: install rocwmma_py (`pip install -e .` in the checkout), then run "
                 f"`python -m {module}` (or `rocwmma-sample`)")
    if checkout:
        rocwmma_py.__path__.append(str(tree))  # rocwmma_py.samples is <checkout>/samples
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    sys.exit(0)
