"""`python -m rocwmma_py layout ...`: the layout inspector's command line."""

from .inspector.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
