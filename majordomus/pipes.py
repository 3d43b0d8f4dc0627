"""What a process does when its reader closes the output pipe: stop quietly, exit 0.

The stream is pointed at /dev/null so that the interpreter's flush at exit cannot fail
loudly with a second broken pipe.
"""

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
