"""CUDA wmma samples ported by namespace: `nvcuda::wmma` -> `rocwmma_py.wmma`."""
