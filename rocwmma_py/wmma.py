"""`rocwmma_py.wmma` is `rocwmma_py.cuda.wmma`, CUDA's nvcuda::wmma (kept at this path)."""

from .cuda.wmma import *  # noqa: F403
from .cuda.wmma import __all__  # noqa: F401
