"""The `majordomus` logger every module logs through: `from majordomus.logger import log`.

A library logs and its caller decides where the lines go, so the logger has a
`NullHandler` and prints nothing until a handler is installed (the command line's:
`majordomus.cli.logs`).
"""

from __future__ import annotations

import logging

log = logging.getLogger("majordomus")
log.addHandler(logging.NullHandler())
