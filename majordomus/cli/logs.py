"""Logging to stderr only: `--log-level`, `--quiet` or `MAJORDOMUS_LOG` set the level.

Servers (`mcp`, `serve`) log at `info` by default; one-shot commands at `warn`, so their
stderr carries a failure's one line and, when the layer has diagnostics, one line counting
them (`--quiet` drops it; `majordomus lint` lists them). Every log line is one line,
redacted, its control characters escaped (`majordomus.egress`). What is set here is done on
the logger when the first line could be emitted (`majordomus.logger`): a command with
nothing to say does not import `logging`.
"""

from __future__ import annotations

import os
import sys
from functools import partial
from typing import TYPE_CHECKING, TextIO

from majordomus.logger import CRITICAL, DEBUG, ERROR, INFO, WARNING, setup

if TYPE_CHECKING:
    import logging

TRACE = 5
_LEVELS = {
    "trace": TRACE,
    "debug": DEBUG,
    "info": INFO,
    "warn": WARNING,
    "warning": WARNING,
    "error": ERROR,
    "off": CRITICAL + 10,
}


LEVEL_NAMES = ("trace", "debug", "info", "warn", "error", "off")


_chosen = {"explicit": False}


def _set_level(level: int, logger: logging.Logger) -> None:
    logger.setLevel(level)


def set_level(name: str) -> None:
    """Set the level by name (an option given on the command line wins over the variable)."""
    _chosen["explicit"] = True
    level = _LEVELS.get(name.strip().lower(), INFO)
    setup(partial(_set_level, level), level)


def quiet_by_default() -> None:
    """For a command whose output is the diagnostics themselves: drop the summary line unless
    a level was asked for."""
    if not _chosen["explicit"]:
        setup(partial(_set_level, ERROR), ERROR)


def configure(server: bool) -> None:
    """Install the stderr handler once; the default level depends on the command kind."""
    wanted = os.environ.get("MAJORDOMUS_LOG", "").strip().lower()
    default = INFO if server else WARNING
    level = _LEVELS.get(wanted, INFO) if wanted else default
    _chosen["explicit"] = bool(wanted)
    setup(partial(_install, level, sys.stderr), level)


def _install(level: int, stream: TextIO, logger: logging.Logger) -> None:
    """The level, no propagation, and the one handler writing to `stream` (the stderr of
    the time `configure` was called)."""
    import logging

    from majordomus.cli.log_lines import LineFormat

    logging.addLevelName(TRACE, "TRACE")
    logger.setLevel(level)
    logger.propagate = False
    if not logger.handlers:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(LineFormat())
        logger.addHandler(handler)
