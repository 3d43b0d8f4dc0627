"""When the reader closes the output pipe: point it at /dev/null so the flush at exit
cannot fail loudly."""

from __future__ import annotations

import os
from typing import IO


def silence(out: IO[bytes] | IO[str]) -> None:
    """Point `out`'s file descriptor at /dev/null (a stream without one is left alone)."""
    try:
        fd = out.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
