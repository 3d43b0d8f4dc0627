"""The benchmark entry point: every row of issue 30 next to its floor, in one run.

    python benchmarks/run.py [--quick] [--rows NAME,...] [--samples N] [--work DIR]
        [--rules N] [--records N] [--rss-records N] [--mcp-rules N] [--calls N] [--checks N]
        [--warmup N] [--format text|json] [--check] [--no-write]
    python benchmarks/run.py capabilities ...   every capability on each transport (issue 8)

Every figure is measured on whole processes through stable entry points (the installed
`majordomus` CLI, `majordomus mcp` driven by the official MCP client against the SDK's own
minimal server, `Workspace(...).refresh()` in `benchmarks/freshness.py`), as medians of
samples that alternate the measured side with its floor (benchmarks/rows.py says what each
floor is), wall time and CPU both. The table gives, per row, the figure, its floor, the
ratio, the target and whether it is met; supplementary figures follow (among them what the
one switch at process start, no cyclic collector in one-shot commands, buys).

`--rows` picks groups (mcp, objects, status, check, rss, freshness, imports, collector);
`--quick` takes fewer samples; `--check` exits 10 when a row is missed. A run writes
`benchmarks/results/<finished_at>.json` unless `--no-write`. The load average is recorded as
each group of rows starts: the machine is shared.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import rows
from benchmarks.processes import WARMUP, bytecode_compiled, load_average, publish
from benchmarks.table import Table, render, size
from majordomus import clock

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GROUPS = ("mcp", "objects", "status", "check", "rss", "freshness", "imports", "collector")
EXIT_MISSED = 10


def _commit() -> str | None:
    done = subprocess.run(
        ["git", "-C", str(HERE.parent), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or None


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Every chosen group of rows, in the issue's order."""
    chosen = set(args.rows)
    ledgers = [args.records] + ([args.rss_records] if args.rss_records else [])
    inputs = rows.prepare(work, [args.mcp_rules, args.rules], ledgers)
    bytecode_compiled()
    n = args.samples
    table = Table()
    steps: list[tuple[str, Callable[[], None]]] = [
        (
            "mcp",
            lambda: rows.mcp_rows(
                table, inputs[f"layer-{args.mcp_rules}"], args.mcp_rules, n, args.calls
            ),
        ),
        ("objects", lambda: rows.objects_row(table, inputs, "init", "`init` layer", 1.3, n)),
        ("status", lambda: rows.status_row(table, inputs, args.records, n)),
        ("check", lambda: rows.check_row(table, inputs, args.records, n)),
        ("rss", lambda: rows.rss_row(table, inputs, args.rss_records, args.rss_samples)),
        (
            "objects",
            lambda: rows.objects_row(
                table, inputs, f"layer-{args.rules}", f"{size(args.rules)} rules", 2, n
            ),
        ),
        (
            "freshness",
            lambda: rows.freshness_rows(
                table, inputs[f"layer-{args.rules}"], args.rules, args.checks, args.fresh_samples
            ),
        ),
        ("imports", lambda: rows.imports_rows(table)),
        (
            "collector",
            lambda: rows.collector_rows(
                table, inputs, args.records, args.rules, args.rss_records, n
            ),
        ),
    ]
    load_before = load_average()
    loads: dict[str, str] = {}
    for name, step in steps:
        if name not in chosen or (name == "rss" and not args.rss_records):
            continue
        loads[name] = load_average()
        sys.stderr.write(f"benchmarks: measuring {name} (load average {loads[name]})\n")
        step()
    return {
        "schema": "majordomus/benchmark-run/v3",
        "finished_at": clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _commit(),
        "python": sys.version.split()[0],
        "load_average": {"before": load_before, "steps": loads, "after": load_average()},
        "samples": n,
        "sizes": {
            "mcp_rules": args.mcp_rules,
            "rules": args.rules,
            "records": args.records,
            "rss_records": args.rss_records,
            "calls": args.calls,
            "checks": args.checks,
        },
        "rows": table.rows,
        "supplementary": table.supplementary,
    }


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--rows", default=",".join(GROUPS), help="groups of rows, comma-separated")
    parser.add_argument("--samples", type=int, help="samples per row (default 7; quick 3)")
    parser.add_argument("--work", type=Path, help="keep (and reuse) the generated inputs here")
    parser.add_argument("--rules", type=int, default=10000, help="the indexing layer's rules")
    parser.add_argument("--records", type=int, default=10000, help="the replay ledger's size")
    parser.add_argument(
        "--rss-records", type=int, default=100000, help="the peak-memory ledger (0: skip)"
    )
    parser.add_argument("--mcp-rules", type=int, default=100, help="the MCP rows' layer")
    parser.add_argument("--calls", type=int, help="steady tools/call per session (default 200)")
    parser.add_argument("--checks", type=int, help="freshness checks (default 2000)")
    parser.add_argument(
        "--warmup", type=int, default=1, help="uncounted pairs before each row (default 1)"
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--check", action="store_true", help="exit 10 if a row is missed")
    parser.add_argument("--no-write", action="store_true", help="do not keep the result file")
    args = parser.parse_args(argv)
    args.rows = [g.strip() for g in args.rows.split(",") if g.strip()]
    unknown = sorted(set(args.rows) - set(GROUPS))
    if unknown:
        parser.error(f"unknown rows {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    args.samples = args.samples or (3 if args.quick else 7)
    args.calls = args.calls or (50 if args.quick else 200)
    args.checks = args.checks or (500 if args.quick else 2000)
    args.fresh_samples = 3 if args.quick else 5
    args.rss_samples = 1 if args.quick else 3
    return args


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["capabilities"]:
        from benchmarks.capabilities import main as capabilities_main

        return capabilities_main(given[1:])
    args = parse(given)
    WARMUP[0] = max(0, args.warmup)
    with tempfile.TemporaryDirectory(prefix="majordomus-bench-") as scratch:
        work = (args.work or Path(scratch)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        document = measure(args, work)
    stamp = document["finished_at"].replace(":", "").replace("-", "")
    path = None if args.no_write else RESULTS / f"{stamp}.json"
    publish(document, render, args.format == "json", path)
    missed = [r for r in document["rows"] if not r["ok"]]
    return EXIT_MISSED if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
