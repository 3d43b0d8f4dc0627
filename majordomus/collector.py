"""Pausing the cyclic garbage collector around a bulk build (the index, a ledger replay).

A build allocates tens of thousands of long-lived objects and frees nothing, while the
collector's generational passes traverse them again and again for nothing (a third of an
index build). `paused()` disables it for the duration and restores what it found, so a
process that already runs without it (the one-shot CLI) is left as it is. No I/O.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside the block; the previous setting afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
