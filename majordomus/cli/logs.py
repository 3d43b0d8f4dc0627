"""Logging to stderr only: `--log-level`, `--quiet` or `MAJORDOMUS_LOG` set the level.

Servers (`mcp`, `serve`) log at `info` by default; one-shot commands at `warn`, so their
stderr carries a failure's one line and, when the layer has diagnostics, one line counting
them (`--quiet` drops it; `majordomus lint` lists them). Every log line is one line,
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


LEVEL_NAMES = ("trace", "debug", "info", "warn", "error", "off")


_chosen = {"explicit": False}


def set_level(name: str) -> None:
    """Set the level by name (an option given on the command line wins over the variable)."""
    _chosen["explicit"] = True
    logging.getLogger("majordomus").setLevel(_LEVELS.get(name.strip().lower(), logging.INFO))


def quiet_by_default() -> None:
    """For a command whose output is the diagnostics themselves: drop the summary line unless
    a level was asked for."""
    if not _chosen["explicit"]:
        logging.getLogger("majordomus").setLevel(logging.ERROR)


def configure(server: bool) -> None:
    """Install the stderr handler once; the default level depends on the command kind."""
    logging.addLevelName(TRACE, "TRACE")
    logger = logging.getLogger("majordomus")
    wanted = os.environ.get("MAJORDOMUS_LOG", "").strip().lower()
    default = logging.INFO if server else logging.WARNING
    level = _LEVELS.get(wanted, logging.INFO) if wanted else default
    _chosen["explicit"] = bool(wanted)
    logger.setLevel(level)
    logger.propagate = False
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_Format())
        logger.addHandler(handler)
