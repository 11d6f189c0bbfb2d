"""Exceptions of the rocWMMA layer."""


class FragmentError(TypeError):
    """A fragment type or use rocWMMA does not allow (message names what and why)."""
