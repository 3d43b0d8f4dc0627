"""Instructions of whole `majordomus mcp` sessions, counted by callgrind: the handshake alone,
then the handshake and one first call of each measured tool (what `mcp_rows.py` times).

    python benchmarks/mcp_instructions.py [--mcp-rules N] [--work DIR] [--tree DIR ...]

Wall time on a shared, loaded machine moves by tens of percent from run to run; the
instructions a process executes do not, so this decides between two versions of the start
path. Each session is one process reading its input from a file (initialize, initialized,
the call) until EOF, under `valgrind --tool=callgrind` (child processes, git among them, are
not counted), with `PYTHONHASHSEED=0` and the idle warm-up held off (valgrind makes every
answer slower than the quiet time that would let it in). `--tree` names other source trees
(a checkout of another commit) to count beside the installed one, run through this same
interpreter with the tree first on `PYTHONPATH`; compile their bytecode first
(`python -m compileall -q <tree>/majordomus`), and name this checkout with `--tree` too when
comparing, so both run with the same search path.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.processes import bytecode_compiled, environment
from benchmarks.scale import INTENT, first_uri, prepare

#: The session's process: `majordomus mcp` with the warm-up held off.
RUNNER = (
    "import sys\n"
    "from majordomus.mcp import session\n"
    "session.QUIET_SECONDS = 1e9\n"
    "from majordomus.cli.entry import console\n"
    "sys.argv = ['majordomus', 'mcp']\n"
    "console()\n"
)
_COLLECTED = re.compile(r"Collected : (\d+)")


def _lines(call: tuple[str, dict[str, object]] | None) -> bytes:
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "mcp_instructions", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    if call is not None:
        name, arguments = call
        params = {"name": name, "arguments": arguments}
        messages.append({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def count(layer: Path, feed: bytes, tree: Path | None, scratch: Path) -> int:
    """Instructions of one whole session over `layer` (the installed package, or `tree`)."""
    env = environment() | {"PYTHONHASHSEED": "0"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    out = scratch / "callgrind.out"
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    done = subprocess.run(
        [*valgrind, sys.executable, "-c", RUNNER],
        cwd=layer,
        env=env,
        input=feed,
        capture_output=True,
        check=True,
    )
    found = _COLLECTED.search(done.stderr.decode("utf-8", "replace"))
    if found is None:
        raise SystemExit("mcp_instructions: callgrind reported no count")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mcp-rules", type=int, default=100, help="the layer's rules")
    parser.add_argument("--work", type=Path, help="keep (and reuse) the generated layer here")
    parser.add_argument("--tree", type=Path, action="append", default=[], help="another tree")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mcp-instructions-") as temporary:
        scratch = Path(temporary)
        work = args.work or scratch
        layer = prepare(work, [args.mcp_rules], [])[f"layer-{args.mcp_rules}"]
        bytecode_compiled()
        uri = first_uri(layer, environment())
        sessions: list[tuple[str, tuple[str, dict[str, object]] | None]] = [
            ("initialize", None),
            ("majordomus_get", ("majordomus_get", {"uri": uri})),
            ("majordomus_search", ("majordomus_search", {"query": "rule"})),
            ("majordomus_devcontext", ("majordomus_devcontext", {"intent": INTENT})),
        ]
        trees: list[Path | None] = [None, *args.tree]
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"instructions of whole sessions, {args.mcp_rules}-rule layer (load {load})")
        for tree in trees:
            label = "installed" if tree is None else str(tree)
            handshake = 0
            for name, call in sessions:
                total = count(layer, _lines(call), tree, scratch)
                if call is None:
                    handshake = total
                    print(f"  {label}: {name:24} {total / 1e6:8.1f} M")
                else:
                    first = (total - handshake) / 1e6
                    print(f"  {label}: {name:24} {total / 1e6:8.1f} M  (first call {first:.1f} M)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
