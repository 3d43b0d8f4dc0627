"""Which modules one-shot commands import: a row per command.

    python benchmarks/imports.py

Builds a synthetic repository with a small ledger in a temporary directory, runs each
command below through the console entry point in a fresh interpreter, and prints, per
command, how many of our modules (`majordomus.*`) and modules in all it had imported when
it exited, and which of the heavy ones it imported: the HTTP stack, the SQLite copy and
PyYAML, which no one-shot reading command needs (`serve` imports the HTTP stack when it runs,
`reasoning export --sqlite` the SQLite copy, and only tests use PyYAML).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.processes import environment

#: Top-level packages no one-shot reading command imports.
HEAVY = ("fastapi", "starlette", "uvicorn", "sqlite_utils", "sqlite3", "yaml")

#: The command lines measured; `record` reads its record from stdin.
COMMANDS: dict[str, list[str]] = {
    "version": ["--version"],
    "objects list": ["objects", "list"],
    "objects list json": ["objects", "list", "--format", "json"],
    "reasoning status json": ["reasoning", "status", "--format", "json"],
    "reasoning status report": ["reasoning", "status", "--report"],
    "reasoning check": ["reasoning", "check"],
    "reasoning record": ["reasoning", "record"],
    "devcontext compile": ["devcontext", "compile", "--intent", "logging"],
    "mcp --inspect": ["mcp", "--inspect"],
}

RECORD = {
    "kind": "assessment",
    "subject": "which module imports what",
    "materiality": "low",
    "confidence": "high",
    "hypothesis": "the one path imports what its command needs",
}

#: The console entry point, then the sorted module names on stderr's last line.
PROBE = (
    "import atexit, json, sys\n"
    "atexit.register(lambda: sys.stderr.write("
    "'\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
    "sys.argv = ['majordomus', *sys.argv[1:]]\n"
    "from majordomus.cli.entry import console\n"
    "console()\n"
)


def imported(args: list[str], cwd: Path, feed: str) -> list[str]:
    """The modules a process running `majordomus <args>` in `cwd` had imported at its exit."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd,
        input=feed,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    if "MODULES " not in done.stderr:
        raise SystemExit(f"imports: {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return json.loads(done.stderr.rsplit("MODULES ", 1)[1])


def counts() -> dict[str, tuple[int, int, list[str]]]:
    """Per command: our modules, modules in all, and the heavy packages it imported."""
    from majordomus.synthetic import SyntheticRepository, synthetic_ledger

    out = {}
    with tempfile.TemporaryDirectory(prefix="majordomus-imports-") as tmp:
        root = Path(tmp) / "repo"
        SyntheticRepository.new(at=root).commit()
        synthetic_ledger(root, 48)
        for name, args in COMMANDS.items():
            feed = json.dumps(RECORD) if name == "reasoning record" else ""
            modules = imported(args, root, feed)
            ours = sum(1 for m in modules if m.split(".")[0] == "majordomus")
            heavy = sorted({m.split(".")[0] for m in modules} & set(HEAVY))
            out[name] = (ours, len(modules), heavy)
    return out


def main() -> int:
    print(f"{'command':26} {'ours':>5} {'all':>5}  heavy")
    for name, (ours, total, heavy) in counts().items():
        print(f"{name:26} {ours:5} {total:5}  {', '.join(heavy) or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
