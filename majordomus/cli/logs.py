"""Logging to stderr only (layer §9.3): `MAJORDOMUS_LOG` sets the level.

Servers (`mcp`, `serve`) log at `info` by default; one-shot commands stay quiet unless asked,
so their stderr carries nothing but a failure's one line. Every log line is one line,
redacted, its control characters escaped (`majordomus.egress`).
"""

from __future__ import annotations

import logging
import os
import sys

TRACE = 5
_LEVELS = {
    "trace": TRACE,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warn": logging.WARNING,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "off": logging.CRITICAL + 10,
}


class _Format(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        level = {TRACE: "TRACE", logging.WARNING: "WARN"}.get(record.levelno, record.levelname)
        from majordomus.egress import clean_line

        return f"majordomus[{level}] {clean_line(record.getMessage())}"


def configure(server: bool) -> None:
    """Install the stderr handler once; the default level depends on the command kind."""
    logging.addLevelName(TRACE, "TRACE")
    logger = logging.getLogger("majordomus")
    wanted = os.environ.get("MAJORDOMUS_LOG", "").strip().lower()
    default = logging.INFO if server else _LEVELS["off"]
    level = _LEVELS.get(wanted, logging.INFO) if wanted else default
    logger.setLevel(level)
    logger.propagate = False
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_Format())
        logger.addHandler(handler)
