"""The `majordomus` logger: silent (`NullHandler`) until a caller installs a handler."""

from __future__ import annotations

import logging

log = logging.getLogger("majordomus")
log.addHandler(logging.NullHandler())
