"""The one place the cyclic garbage collector is switched off, and why that is safe.

A bulk build (the index, a ledger replay) allocates tens of thousands of long-lived objects
and frees nothing, while the collector's generational passes traverse them again and again
for nothing (a third of an index build). Nothing the product builds relies on the collector
to run at a given moment; it only reclaims cycles later. Two edges use it, never a pure
derivation:

* `paused()` around a bulk load (`Store.load`, `build_index`): off for the block, then as
  it was, so a server keeps collecting between requests.
* `off_for_process()` at the entry of a one-shot command (`majordomus.cli.entry`): the
  process exits long before garbage matters.

No I/O.
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


def off_for_process() -> None:
    """No cyclic collection for the rest of a one-shot process."""
    gc.disable()
