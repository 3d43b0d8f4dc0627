"""The `majordomus` command and `python -m majordomus`: argv goes to the click application
(`majordomus.cli.app`), which parses it once and renders every failure once."""

from __future__ import annotations

import gc
import os
import sys

from majordomus.cli.app import run
from majordomus.cli.commands import is_server
from majordomus.egress import silence


def console() -> None:
    """The console script: run the process's command line and exit with its code."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if not is_server(sys.argv[1:]):
        gc.disable()  # a one-shot command ends before its cycles matter (benchmarks/RESULTS.md)
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence(sys.stdout)  # the reader left; the exit's own flush must not fail again
    sys.exit(code)


def main(argv: list[str] | None = None) -> int:
    """The exit code of one command line (default: the process's)."""
    return run(sys.argv[1:] if argv is None else argv)
