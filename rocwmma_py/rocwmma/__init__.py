"""rocWMMA itself: fragment templates, their register maps, schedulers, load/store/mma_sync,
transforms and helpers. The public names are re-exported by `rocwmma_py`."""
