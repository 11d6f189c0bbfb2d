"""`python samples/cuda/X.py`: the samples' script mode, ../_script.py."""

import runpy
from pathlib import Path

run_as_module = runpy.run_path(str(Path(__file__).resolve().parents[1] / "_script.py"))[
    "run_as_module"]
