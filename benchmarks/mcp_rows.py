"""The MCP rows of the scale run alone: first answer for three tools, the handshake and the
steady call, each against the SDK peer (what `benchmarks/run.py scale` measures first).

    python benchmarks/mcp_rows.py [--samples N] [--calls N] [--work DIR] [--mcp-rules N]

The same code as the scale run (`benchmarks.scale.mcp_rows`, `majordomus mcp` driven by the
official client, alternating with the peer, medians, CPU of the whole session), in a minute
instead of the whole table: for work on the MCP start-up. The load average is printed before
and after.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.processes import bytecode_compiled, load_average
from benchmarks.scale import _commit, mcp_rows, prepare
from benchmarks.scale_table import Table, render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=7, help="samples per row")
    parser.add_argument("--calls", type=int, default=200, help="steady calls per session")
    parser.add_argument("--mcp-rules", type=int, default=100, help="the layer's rules")
    parser.add_argument("--work", type=Path, help="keep (and reuse) the generated layer here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mcp-rows-") as scratch:
        work = args.work or Path(scratch)
        layer = prepare(work, [args.mcp_rules], [])[f"layer-{args.mcp_rules}"]
        bytecode_compiled()
        before = load_average()
        table = Table()
        mcp_rows(table, layer, args.mcp_rules, args.samples, args.calls)
        after = load_average()
    document = {
        "rows": table.rows,
        "supplementary": table.supplementary,
        "commit": _commit(),
        "python": sys.version.split()[0],
        "samples": args.samples,
        "sizes": {
            "mcp_rules": args.mcp_rules,
            "calls": args.calls,
            "rules": "—",
            "records": "—",
            "rss_records": None,
        },
        "load_average": {"before": before, "after": after},
    }
    sys.stdout.write(render(document))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
