"""The rocWMMA layer's exceptions (defined with all others in `rocwmma_py.errors`)."""

from ..errors import FragmentError, LayoutError  # noqa: F401 - re-exported
