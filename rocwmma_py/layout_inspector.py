"""`rocwmma_py.layout_inspector` is `rocwmma_py.inspector.tables` (kept at this path)."""

from .inspector.tables import *  # noqa: F403
from .inspector.tables import __all__  # noqa: F401
