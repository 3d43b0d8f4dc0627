"""The console entry point: answers `--version` before importing anything heavy.

Everything else is handed to the click application, whose failures are rendered once, by
`majordomus.cli.errors`.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        from majordomus import __version__

        sys.stdout.write(f"majordomus {__version__}\n")
        return 0
    from majordomus.cli.app import run

    return run(args)
