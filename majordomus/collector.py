"""The one place the cyclic garbage collector is switched off, and why that is safe.

A bulk build (the index, a ledger replay) allocates tens of thousands of long-lived objects
and frees nothing, while the collector's generational passes traverse them again and again
for nothing (a third of an index build). Nothing the product builds relies on the collector
to run at a given moment; it only reclaims cycles later. Two edges use it, never a pure
derivation:

* `paused()` around a bulk load (`Store.load`, `build_index`, a re-index): off for the
  block, then as it was, so a server keeps collecting between requests.
* `off_for_process()` at the entry of a one-shot command (`majordomus.cli.entry`): the
  process exits long before garbage matters.

The same process exits without the interpreter's teardown, so what a one-shot command is
done with need not be freed either: `keep_until_exit` holds it instead (freeing a replayed
ledger's 10k records, or a workspace's 10k-object index, one object at a time costs about
20 ms). A server keeps nothing.

No I/O.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside the block; the previous setting afterwards.

    Where the collector was on, what the block made goes straight to the oldest generation
    (`gc.freeze()` then `gc.unfreeze()`, two list splices): it is long-lived, and the young
    generations' passes would traverse all of it twice on the next allocations for nothing
    (~50 ms after a 10k-file build). It is collected as the oldest generation is. Not done
    while any object is frozen (by other code, or by CPython 3.12 itself at its start):
    `unfreeze` would let them go."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


#: What a one-shot process was done with, held until it exits; None in any other process.
_kept: list[object] | None = None
#: How much of it there is, in the callers' own unit (record files, for a replay).
_weight = 0


def off_for_process() -> None:
    """No cyclic collection for the rest of a one-shot process, and nothing it is done with
    freed before its exit (`keep_until_exit`)."""
    global _kept
    gc.disable()
    if _kept is None:
        _kept = []


def keep_until_exit(value: object, *, weight: int = 1, at_most: int | None = None) -> None:
    """In a one-shot process, hold `value` until the exit, which frees nothing; elsewhere
    (a server, a library caller) let it go as usual. With `at_most`, a value is held only
    while all that is held weighs no more than that, so a command that replays several
    times holds a bounded amount, not one replay per call."""
    global _weight
    if _kept is None or (at_most is not None and _weight + weight > at_most):
        return
    _kept.append(value)
    _weight += weight
