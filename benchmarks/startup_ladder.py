"""What the fixed start of a one-shot command costs, piece by piece, in instructions.

    python benchmarks/startup_ladder.py [--root ROOT] [status|objects]

Runs, each in a fresh interpreter under `valgrind --tool=callgrind` (user-space
instructions, which the machine's load does not move), a ladder of programs that each import
a little more of what the command imports, in the order it does, then the whole command
(`reasoning status --format json`, or `objects list --format json`) in ROOT (default: the
current directory). Each rung prints its total and what it adds to the one before:

* `python` — the interpreter and `site` (`python -c pass`);
* `stdlib` — the standard modules every command imports anyway (pathlib, re, logging, ...);
* `pydantic` — `pydantic` with `BaseModel`, `Field` and the validators the models use;
* `click` — the command-line library;
* `cli shell` — the entry point, the application, the settings, the registry and routes, the
  capability command builder with its egress filter;
* `domain` — the capability namespace, its views and the modules its handler needs;
* `command` — the whole command, which adds the run itself (and what it imports on the way).

The rungs share their prefixes, so an addition is that piece's own import cost, given the
ones before. Attribute a change with two runs of this script (or `--rungs command` alone).
A run takes ten to twenty seconds per rung.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

STDLIB = "import pathlib, re, logging, json, dataclasses, typing, enum"
PYDANTIC = "from pydantic import BaseModel, Field, AfterValidator, ValidationError, TypeAdapter"
CLICK = "import click"
SHELL = (
    "import majordomus.cli.entry, majordomus.cli.app, majordomus.capabilities.builtin,"
    " majordomus.cli.capability_commands, majordomus.capabilities.executor"
)
DOMAIN = {
    "status": "import majordomus.capabilities.reasoning, majordomus.cli.views.reasoning",
    "objects": "import majordomus.capabilities.core, majordomus.cli.views.core,"
    " majordomus.layer.index",
}
ARGS = {
    "status": ["reasoning", "status", "--format", "json"],
    "objects": ["objects", "list", "--format", "json"],
}
#: The console script's own start, with the command line given after `-c`.
COMMAND = (
    "import sys; from majordomus.cli.entry import console;"
    " sys.argv[0] = 'majordomus'; sys.exit(console())"
)


def instructions(program: str, args: list[str], cwd: Path) -> int:
    """User-space instructions of `python -c program args...` in `cwd`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {k: v for k, v in os.environ.items() if not k.startswith("MAJORDOMUS_")}
        env["MAJORDOMUS_LOG"] = "warn"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                program,
                *args,
            ],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        found = re.search(r"^summary: (\d+)$", out.read_text(), re.MULTILINE)
        if found is None:
            raise SystemExit(f"callgrind wrote no summary for {program!r}")
        return int(found.group(1))


def rungs(command: str) -> list[tuple[str, str, list[str]]]:
    """(name, program, arguments) of each rung, each program a prefix of the next."""
    imports = [
        ("python", "pass"),
        ("stdlib", STDLIB),
        ("pydantic", PYDANTIC),
        ("click", CLICK),
        ("cli shell", SHELL),
        ("domain", DOMAIN[command]),
    ]
    out: list[tuple[str, str, list[str]]] = []
    program: list[str] = []
    for name, line in imports:
        program.append(line)
        out.append((name, "; ".join(program), []))
    out.append(("command", COMMAND, ARGS[command]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", choices=sorted(ARGS), default="status")
    parser.add_argument("--root", type=Path, default=Path.cwd())
    parser.add_argument("--rungs", nargs="*", help="only these rungs (by name)")
    args = parser.parse_args()
    before = 0
    for name, program, extra in rungs(args.command):
        if args.rungs and name not in args.rungs:
            continue
        total = instructions(program, extra, args.root)
        share = f"+{(total - before) / 1e6:8.1f} M" if before else " " * 11
        print(f"{name:10} {total / 1e6:8.1f} M instructions {share}", flush=True)
        before = total
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
