"""The console entry point: answers `--version` before importing anything heavy.

Everything else is handed to the click application, whose failures are rendered once, by
`majordomus.cli.errors`. A one-shot command of the console script runs without the cyclic
garbage collector: it exits long before garbage matters, and replaying a large ledger
otherwise spends a third of its time in collections that free nothing. The servers keep it.
"""

from __future__ import annotations

import gc
import sys

SERVERS = ("mcp", "serve")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        from majordomus import __version__

        sys.stdout.write(f"majordomus {__version__}\n")
        return 0
    if argv is None and not (args and args[0] in SERVERS and "--inspect" not in args):
        gc.disable()
    from majordomus.cli.app import run

    return run(args)
