"""Asynchronous exceptions during a launch: signal handlers' exceptions and stopping threads.

The batched engine answers an ordinary exception by undoing the batch and rerunning it wave
by wave (so the per-wave engine's error comes out). An exception raised by a Python signal
handler (a timeout's `signal.alarm` handler raising TimeoutError) is not the kernel's: it
must propagate at once. For the launch's duration, on the main thread, every Python-level
signal handler is wrapped so that what it raises is marked asynchronous
(`is_asynchronous`), and the engine re-raises marked exceptions after undoing the running
batch. KeyboardInterrupt, SystemExit and other BaseExceptions are never rerun anyway.

`stop_thread` raises an exception inside another Python thread (CPython's
PyThreadState_SetAsyncExc): one Ctrl-C stops the per-wave engine's wave threads even when a
wave spins in kernel code and never reaches a wait.
"""

from __future__ import annotations

# the C module: getsignal without signal.py's enum conversions (once per launch)
import _signal  # type: ignore[import-not-found]
import ctypes
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

_MARK = "_rocwmma_py_asynchronous"
_SIGNALS = tuple(int(sig) for sig in signal.valid_signals())


def is_asynchronous(err: BaseException) -> bool:
    """Whether `err` came from a signal handler during a launch (not from kernel code)."""
    return bool(getattr(err, _MARK, False))


def _marking(handler: Callable) -> Callable:
    def wrapper(signum, frame):
        try:
            return handler(signum, frame)
        except BaseException as err:
            with suppress(AttributeError):  # an exception type without a __dict__
                setattr(err, _MARK, True)
            raise

    setattr(wrapper, _MARK, True)
    return wrapper


@contextmanager
def signal_exceptions_marked() -> Iterator[None]:
    """Mark exceptions of Python signal handlers as asynchronous for the with-block (main
    thread only: other threads can neither install handlers nor receive their exceptions)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    installed: dict[int, tuple[Callable, Callable]] = {}
    for sig in _SIGNALS:
        try:
            handler = _signal.getsignal(sig)
        except (OSError, ValueError):
            continue
        if (not callable(handler) or handler is signal.default_int_handler
                or getattr(handler, _MARK, False)):
            continue
        wrapper = _marking(handler)
        try:
            signal.signal(sig, wrapper)
        except (OSError, ValueError, RuntimeError):
            continue
        installed[sig] = (handler, wrapper)
    try:
        yield
    finally:
        for sig, (handler, wrapper) in installed.items():
            if _signal.getsignal(sig) is wrapper:  # the kernel may have installed its own
                signal.signal(sig, handler)


def stop_thread(thread: threading.Thread, exc_type: type[BaseException]) -> None:
    """Raise `exc_type` in `thread` at its next Python instruction (no-op once it ended)."""
    ident = thread.ident
    if ident is None or not thread.is_alive():
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc_type))
