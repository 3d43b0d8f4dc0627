"""Logging to stderr only: `--log-level`, `--quiet` or `MAJORDOMUS_LOG` set the level."""

from __future__ import annotations

import logging
import os
import sys

from majordomus.egress import clean_line

log = logging.getLogger("majordomus")

#: Below `debug`: every line there is.
TRACE = 5
logging.addLevelName(TRACE, "TRACE")

LEVELS = {
    "trace": TRACE,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warn": logging.WARNING,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "off": logging.CRITICAL + 10,
}

#: Whether the level was asked for (an option or the variable), which `quiet_by_default` keeps.
_explicit = False


class LineFormat(logging.Formatter):
    """`majordomus[LEVEL] message`, the message on one line, redacted and escaped."""

    def format(self, record: logging.LogRecord) -> str:
        level = "WARN" if record.levelno == logging.WARNING else record.levelname
        return f"majordomus[{level}] {clean_line(record.getMessage())}"


def set_level(name: str) -> None:
    """Set the level by name (an option given on the command line wins over the variable)."""
    global _explicit
    _explicit = True
    log.setLevel(LEVELS[name])


def quiet_by_default() -> None:
    """For lint, whose output is the diagnostics: no summary line unless a level was asked for."""
    if not _explicit:
        log.setLevel(logging.ERROR)


def configure(server: bool) -> None:
    """The default level, which depends on the command kind, and the one stderr handler."""
    global _explicit
    wanted = os.environ.get("MAJORDOMUS_LOG", "").strip().lower()
    _explicit = bool(wanted)
    default = logging.INFO if server else logging.WARNING
    log.setLevel(LEVELS.get(wanted, logging.INFO) if wanted else default)
    log.propagate = False
    if not any(isinstance(handler.formatter, LineFormat) for handler in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(LineFormat())
        log.addHandler(handler)
