"""The scale rows of issues 8 and 18, each next to its floor, in one run.

    python benchmarks/run.py scale [--quick] [--samples N] [--work DIR] [--skip-100k]
        [--rules N] [--records N] [--rss-records N] [--mcp-rules N] [--calls N]
        [--checks N] [--warmup N] [--format text|json] [--check] [--no-write]

Inputs come from the project's own generators (`majordomus.synthetic`): layers of
`Shape.scaling(n)` committed to git (`--mcp-rules`, 100, for the MCP rows; `--rules`, 10k,
for indexing) and ledgers of `synthetic_ledger` (`--records`, 10k; `--rss-records`, 100k,
for peak memory), written into `--work` (kept, reused when present) or a temporary
directory. Every figure is measured on whole processes through stable entry points only
(the installed `majordomus` CLI, `majordomus mcp` driven by the official MCP client, and
`benchmarks/freshness.py` over `Context(...).refresh()`), as medians of samples that
alternate the measured side with its floor, wall time and CPU (user + system) both.

The table says, for each row, the measured figure, its floor, the ratio, the target and
whether it is met. `--quick` takes fewer samples and drops the supplementary sizes (the 1k-record
ledger, the 100- and 1000-rule layers); `--warmup 0` drops the uncounted first pair of
each row (the smoke test's setting); `--check` exits 10 when an issue-18 target is missed.
The load average is recorded as each group of rows starts. A run writes
`benchmarks/results/scale-<finished_at>.json` unless `--no-write`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import mcp_client
from benchmarks.processes import (
    MAJORDOMUS,
    WARMUP,
    Pair,
    Sample,
    bytecode_compiled,
    environment,
    load_average,
    paired,
    run,
)
from benchmarks.scale_table import Table, render, size
from benchmarks.stats import median
from majordomus import clock

HERE = Path(__file__).resolve().parent
PROBES = str(HERE / "probes.py")
FRESHNESS = str(HERE / "freshness.py")
INTENT = "the context a session is given and the budget it costs"
STATUS = [MAJORDOMUS, "reasoning", "status", "--format", "json"]
CHECK = [MAJORDOMUS, "reasoning", "check"]
OBJECTS = [MAJORDOMUS, "objects", "list", "--format", "json"]
COMPILE = [MAJORDOMUS, "devcontext", "compile", "--format", "json"]
INSPECT = [MAJORDOMUS, "mcp", "--inspect", "--format", "json"]
EXIT_MISSED = 10


# -- inputs --------------------------------------------------------------------------------------


def prepare(work: Path, layers: list[int], ledgers: list[int]) -> dict[str, Path]:
    """Generate what is missing under `work`; a finished input carries a `.ready` marker."""
    from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger

    made: dict[str, Path] = {}
    for rules in sorted(set(layers)):
        root = work / f"layer-{rules}"
        if not (root / ".ready").exists():
            shutil.rmtree(root, ignore_errors=True)
            sys.stderr.write(f"scale: generating a layer of {rules} rules\n")
            SyntheticRepository.new(Shape.scaling(rules), at=root).commit()
            (root / ".ready").write_text("")
        made[f"layer-{rules}"] = root
    for count in sorted(set(ledgers)):
        root = work / f"ledger-{count}"
        if not (root / ".ready").exists():
            shutil.rmtree(root, ignore_errors=True)
            sys.stderr.write(f"scale: generating a ledger of {count} records\n")
            SyntheticRepository.new(at=root).commit()
            synthetic_ledger(root, count)
            (root / ".ready").write_text("")
        made[f"ledger-{count}"] = root
    return made


def printed(argv: list[str], env: dict[str, str]) -> Sample:
    """What an in-process probe prints: the wall and CPU nanoseconds of its own work."""
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    wall, cpu = done.stdout.split()
    return Sample(int(wall), int(cpu))


def first_uri(layer: Path, env: dict[str, str]) -> str:
    """The first object `objects list` names: what `majordomus_get` and the peer are asked."""
    done = subprocess.run(OBJECTS, cwd=layer, env=env, capture_output=True, check=True)
    return str(json.loads(done.stdout)["objects"][0]["uri"])


# -- the measurements ----------------------------------------------------------------------------


def mcp_rows(table: Table, layer: Path, rules: int, samples: int, calls: int) -> None:
    """First answer for three tools, the handshake and steady calls, vs the SDK peer."""
    env = environment()
    uri = first_uri(layer, env)
    peer = mcp_client.peer(uri)
    for tool, arguments in (
        ("majordomus_get", {"uri": uri}),
        ("majordomus_search", {"query": "rule"}),
        ("majordomus_devcontext", {"intent": INTENT}),
    ):
        server = mcp_client.ours(tool, arguments)
        # what the first call waits for after the handshake, per side (the deferred work)
        after: tuple[list[int], list[int]] = ([], [])

        def first(
            server: mcp_client.Server, side: int, after: tuple[list[int], list[int]] = after
        ) -> Sample:
            handshake, answer, _ = mcp_client.session(server, layer)
            after[side].append(answer.wall_ns - handshake.wall_ns)
            return answer

        pair = paired(samples, lambda server=server: first(server, 0), lambda: first(peer, 1))
        table.ratio(
            18,
            f"MCP first answer, {tool}, vs the SDK peer, {size(rules)} rules",
            pair,
            0.25,
            f"spawn → initialize → tools/call {tool} {json.dumps(arguments)}; CPU: whole session",
        )
        table.extra(
            f"MCP first tools/call {tool} after the handshake vs the peer's",
            Pair(median(after[0][WARMUP[0] :]), median(after[1][WARMUP[0] :])),
        )
    get = mcp_client.ours("majordomus_get", {"uri": uri})
    handshakes: tuple[list[Sample], list[Sample]] = ([], [])
    latencies: tuple[list[float], list[float]] = ([], [])
    for i in range(WARMUP[0] + samples):
        for side, server in enumerate((get, peer)):
            handshake, _, steady = mcp_client.session(server, layer, calls)
            if i >= WARMUP[0]:
                handshakes[side].append(handshake)
                latencies[side].append(median(steady))
    table.ratio(
        18,
        "MCP handshake (spawn → initialize result) vs the SDK peer",
        Pair(
            median([s.wall_ns for s in handshakes[0]]),
            median([s.wall_ns for s in handshakes[1]]),
        ),
        0.15,
        "majordomus mcp, driven by mcp.client.stdio + ClientSession",
    )
    table.ratio(
        18,
        f"MCP steady tools/call majordomus_get vs the SDK peer (median of {calls})",
        Pair(median(latencies[0]), median(latencies[1])),
        0.4,
        f"tools/call majordomus_get {{'uri': '{uri}'}}",
    )


def status_row(table: Table, ledger: Path, records: int, samples: int) -> None:
    env = environment()
    table.ratio(
        18,
        f"reasoning status --format json, {size(records)} records, vs json.load + sort",
        paired(
            samples,
            lambda: run(STATUS, ledger, env),
            lambda: run([sys.executable, PROBES, "ledger", str(ledger)], ledger, env),
        ),
        1.5,
        "majordomus reasoning status --format json; floor: benchmarks/probes.py ledger",
    )


def check_row(table: Table, ledger: Path, records: int, samples: int) -> None:
    """The pre-commit hook runs `check` in text; it exits 10 on the synthetic findings."""
    env = environment()
    table.ratio(
        18,
        f"reasoning check vs reasoning status, same {size(records)}-record ledger",
        paired(
            samples,
            lambda: run(CHECK, ledger, env, ok=(0, 10)),
            lambda: run(STATUS, ledger, env),
        ),
        2,
        "majordomus reasoning check (the pre-commit hook's entry)",
    )


def rss_row(table: Table, ledger: Path, records: int, samples: int) -> None:
    """Peak memory held to its bound; the same runs' times go to the supplementary rows."""
    env = environment()
    pair = paired(
        samples,
        lambda: run(STATUS, ledger, env),
        lambda: run([sys.executable, PROBES, "ledger", str(ledger)], ledger, env),
    )
    table.absolute(
        18,
        f"peak RSS of reasoning status --format json, {size(records)} records (floor: json.load)",
        pair.peak_kib / 1024,
        "MiB",
        300.0,
        "ru_maxrss of the child; floor: benchmarks/probes.py ledger",
        floor=pair.floor_peak_kib / 1024,
    )
    table.extra(f"reasoning status, {size(records)} records, vs json.load + sort", pair)


def objects_row(table: Table, layer: Path, rules: int, samples: int) -> None:
    env = environment()
    table.ratio(
        18,
        f"objects list --format json, {size(rules)} rules, cold, vs ls-files + read",
        paired(
            samples,
            lambda: run(OBJECTS, layer, env),
            lambda: run([sys.executable, PROBES, "floor", str(layer)], layer, env),
        ),
        2,
        "majordomus objects list --format json; floor: benchmarks/probes.py floor, whole process",
    )


def freshness_rows(table: Table, layer: Path, rules: int, checks: int, samples: int) -> None:
    """benchmarks/freshness.py on a copy of the layer (it changes and stages rules)."""
    with tempfile.TemporaryDirectory(prefix="scale-fresh-", dir=layer.parent) as scratch:
        copy = Path(scratch) / "layer"
        shutil.copytree(layer, copy, symlinks=True)
        argv = [sys.executable, FRESHNESS, "--root", str(copy), "--rules", str(rules)]
        argv += ["--checks", str(checks), "--samples", str(samples), "--format", "json"]
        done = subprocess.run(argv, env=environment(), capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"scale: freshness.py exited {done.returncode}: {done.stderr}")
        figures = json.loads(done.stdout)
    table.absolute(
        18,
        f"freshness check before an answer, nothing changed, {size(figures['objects'])} objects",
        figures["check_median_ns"] / 1e6,
        "ms",
        1.0,
        f"Context.refresh(), median of {checks}; p99 {figures['check_p99_ns'] / 1e6:.2f} ms",
    )
    table.ratio(
        18,
        "re-index after one layer file changed vs a full index build",
        Pair(
            figures["reindex_median_ns"],
            figures["build_median_ns"],
            figures["reindex_cpu_median_ns"],
            figures["build_cpu_median_ns"],
        ),
        0.10,
        "Context.refresh() after a rule changed and was staged; floor: a new Context's index",
    )


def held_rows(table: Table, small: Path, layer: Path, rules: int, samples: int) -> None:
    """The issue-8 rows this round must not lose."""
    env = environment()
    table.ratio(
        8,
        "--version vs python -c pass",
        paired(
            samples * 2,
            lambda: run([MAJORDOMUS, "--version"], small, env),
            lambda: run([sys.executable, "-c", "pass"], small, env),
        ),
        4,
        "majordomus --version",
    )
    table.ratio(
        8,
        f"index build, {size(rules)} rules, in-process, vs ls-files + read",
        paired(
            samples,
            lambda: printed([sys.executable, PROBES, "index", str(layer)], env),
            lambda: printed([sys.executable, PROBES, "floor", str(layer)], env),
        ),
        2,
        "Context(root).index in a fresh process, imports excluded",
    )
    table.ratio(
        8,
        f"devcontext compile (cold CLI) vs mcp --inspect, {size(rules)}-rule layer",
        paired(samples, lambda: run(COMPILE, layer, env), lambda: run(INSPECT, layer, env)),
        1.5,
        "majordomus devcontext compile --format json",
    )


def supplementary(
    table: Table, inputs: dict[str, Path], layers: list[int], ledgers: list[int], samples: int
) -> None:
    env = environment()
    intent = [*COMPILE, "--intent", INTENT]
    for count in ledgers:
        root = inputs[f"ledger-{count}"]
        table.extra(
            f"reasoning status, {size(count)} records, vs json.load + sort",
            paired(
                max(3, samples // 3) if count > 10000 else samples,
                lambda root=root: run(STATUS, root, env),
                lambda root=root: run([sys.executable, PROBES, "ledger", str(root)], root, env),
            ),
        )
    for rules in layers:
        root = inputs[f"layer-{rules}"]
        table.extra(
            f"objects list, {size(rules)}-rule layer, vs git ls-files + read",
            paired(
                samples,
                lambda root=root: run(OBJECTS, root, env),
                lambda root=root: run([sys.executable, PROBES, "floor", str(root)], root, env),
            ),
        )
        table.extra(
            f"devcontext compile --intent vs mcp --inspect, {size(rules)}-rule layer",
            paired(
                samples,
                lambda root=root: run(intent, root, env),
                lambda root=root: run(INSPECT, root, env),
            ),
        )


# -- the run -------------------------------------------------------------------------------------


def _commit() -> str | None:
    done = subprocess.run(
        ["git", "-C", str(HERE.parent), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or None


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Every row, in the issue's order, then the issue-8 rows held, then the extra sizes."""
    extra_layers = [] if args.quick else [n for n in (100, 1000) if n < args.rules]
    extra_ledgers = [] if args.quick else [n for n in (1000,) if n != args.records]
    ledgers = [args.records] + ([args.rss_records] if args.rss_records else [])
    inputs = prepare(work, [args.mcp_rules, args.rules, *extra_layers], ledgers + extra_ledgers)
    bytecode_compiled()
    small, layer = inputs[f"layer-{args.mcp_rules}"], inputs[f"layer-{args.rules}"]
    ledger = inputs[f"ledger-{args.records}"]
    load_before = load_average()
    table = Table()
    n = args.samples
    steps: list[tuple[str, Callable[[], None]]] = [
        ("MCP", lambda: mcp_rows(table, small, args.mcp_rules, n, args.calls)),
        ("status", lambda: status_row(table, ledger, args.records, n)),
        ("objects list", lambda: objects_row(table, layer, args.rules, n)),
    ]
    if args.rss_records:
        big = inputs[f"ledger-{args.rss_records}"]
        steps.append(("peak RSS", lambda: rss_row(table, big, args.rss_records, args.rss_samples)))
    steps += [
        (
            "freshness",
            lambda: freshness_rows(table, layer, args.rules, args.checks, args.fresh_samples),
        ),
        ("check", lambda: check_row(table, ledger, args.records, n)),
        ("issue-8 rows", lambda: held_rows(table, small, layer, args.rules, n)),
    ]
    if extra_layers or extra_ledgers:
        steps.append(
            ("extra sizes", lambda: supplementary(table, inputs, extra_layers, extra_ledgers, n))
        )
    loads: dict[str, str] = {}
    for name, step in steps:
        loads[name] = load_average()
        sys.stderr.write(f"scale: measuring {name} (load average {loads[name]})\n")
        step()
    return {
        "schema": "majordomus/benchmark-scale/v2",
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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py scale")
    parser.add_argument("--quick", action="store_true", help="fewer samples, no extra sizes")
    parser.add_argument("--samples", type=int, help="samples per ratio (default 7; quick 3)")
    parser.add_argument("--work", type=Path, help="keep (and reuse) the generated inputs here")
    parser.add_argument("--rules", type=int, default=10000, help="the indexing layer's rules")
    parser.add_argument("--records", type=int, default=10000, help="the replay ledger's size")
    parser.add_argument(
        "--rss-records", type=int, default=100000, help="the peak-memory ledger (0: skip)"
    )
    parser.add_argument("--skip-100k", action="store_true", help="the same as --rss-records 0")
    parser.add_argument("--mcp-rules", type=int, default=100, help="the MCP rows' layer")
    parser.add_argument("--calls", type=int, help="steady tools/call per session (default 200)")
    parser.add_argument("--checks", type=int, help="freshness checks (default 2000)")
    parser.add_argument(
        "--warmup", type=int, default=1, help="uncounted pairs before each row (default 1)"
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--check", action="store_true", help="exit 10 if an issue-18 row missed")
    parser.add_argument("--no-write", action="store_true", help="do not keep the result file")
    args = parser.parse_args(argv)
    if args.skip_100k:
        args.rss_records = 0
    args.samples = args.samples or (3 if args.quick else 7)
    args.calls = args.calls or (50 if args.quick else 200)
    args.checks = args.checks or (500 if args.quick else 2000)
    args.fresh_samples = 3 if args.quick else 5
    args.rss_samples = 1 if args.quick else 3
    WARMUP[0] = max(0, args.warmup)
    with tempfile.TemporaryDirectory(prefix="majordomus-scale-") as scratch:
        work = (args.work or Path(scratch)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        document = measure(args, work)
    if args.format == "json":
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        sys.stdout.write(render(document))
    if not args.no_write:
        from benchmarks.run import RESULTS, SOURCE, write_atomically

        stamp = document["finished_at"].replace(":", "").replace("-", "")
        path = RESULTS / f"scale-{stamp}.json"
        write_atomically(path, document)
        sys.stderr.write(f"scale: wrote {path.relative_to(SOURCE)}\n")
    missed = [r for r in document["rows"] if r["issue"] == 18 and not r["ok"]]
    return EXIT_MISSED if args.check and missed else 0
