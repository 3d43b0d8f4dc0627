"""The recall benchmark (issue 32, item 8): realistic queries over the layer and the ledger.

    python benchmarks/recall.py [--json] [--verbose] [--majordomus PATH] [--corpus DIR]
        [--queries FILE] [--ledger FILE] [--keep DIR]

Copies /work/shared/corpus/prismatic-layer into a fresh, committed git repository with an
`adr` class added to its `sources.yaml` (benchmarks/corpus_repo.py), plants a reasoning
ledger there (benchmarks/data/recall_ledger.json: records over five tasks, each admitted
with `majordomus reasoning record --task T`; their minted ids are resolved from the
answers) and runs every query of benchmarks/data/recall_queries.json through each method:

* substring: `majordomus objects search QUERY --format json` (layer objects only, URI order);
* recall: `majordomus recall QUERY --limit 10 --format json`, the ranked retrieval over the
  layer and the ledger that issue 32 asks for, when the executable has that command
  (otherwise its columns say `recall: not available`).

A query is found at rank r when the r-th hit's `uri` (or a record hit's `id`) is one of the
objects the query expects; a record's URI is `majordomus://reasoning/record/<id>`. It
prints recall@5 (the share of queries with a right object in the first five hits) and
MRR@10 (the mean of 1/r over the first ten, 0 when none is there) by query type and
overall, for the layer queries and the ledger queries separately, the two methods side by
side, and each method's median latency per query, whole process (spawn to exit).
`--verbose` lists every query with its ranks; `--json` prints everything, per query too.
The exit status is 0 whenever the run completed; without the corpus the script says so
and exits 0.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.corpus_repo import (  # noqa: E402
    CORPUS,
    MAJORDOMUS,
    check_adrs,
    corpus_repository,
    majordomus_environment,
    skip_unless_present,
)

QUERIES = HERE / "data" / "recall_queries.json"
LEDGER = HERE / "data" / "recall_ledger.json"
TYPES = ("keyword", "paraphrase", "scattered", "typo", "question")
TARGETS = ("layer", "ledger")
RECORD_URI = "majordomus://reasoning/record/"
MINTED = re.compile(
    r"\b(?:assessment|plan|consultation|disagreement|resolution|conclusion|validation|attempt)"
    r"-[0-9]{8}T[0-9]{9}Z-[0-9a-f]{6}\b"
)
USAGE_ERROR = 2


@dataclass(frozen=True)
class Query:
    id: str
    type: str
    target: str
    query: str
    expected: tuple[str, ...]


@dataclass
class Outcome:
    """One query through one method."""

    rank: int | None
    ms: float
    hits: list[str] = field(default_factory=list)
    error: str = ""


@dataclass(frozen=True)
class Method:
    """A command run as `COMMAND QUERY OPTIONS --format json`; on a usage error (exit 2,
    e.g. an option the command does not take) once more without the options."""

    name: str
    command: tuple[str, ...]
    options: tuple[str, ...] = ()


def majordomus(exe: str, root: Path, args: Iterable[str], stdin: str | None = None) -> Any:
    return subprocess.run(
        [exe, *args],
        cwd=root,
        env=majordomus_environment(),
        input=stdin,
        capture_output=True,
        text=True,
    )


# --- the planted ledger ---


def _resolved(value: Any, ids: dict[str, str]) -> Any:
    """The record with every "@KEY" string replaced by the id KEY was given."""
    if isinstance(value, str) and value.startswith("@"):
        if value[1:] not in ids:
            raise ValueError(f"{value} names no earlier record of the task")
        return ids[value[1:]]
    if isinstance(value, list):
        return [_resolved(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: _resolved(v, ids) for k, v in value.items()}
    return value


def _minted_id(stdout: str) -> str | None:
    try:
        answer = json.loads(stdout)
        record = answer.get("record", answer)
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            return str(record["id"])
    except ValueError:
        pass
    found = MINTED.search(stdout)
    return found.group(0) if found else None


def plant_ledger(exe: str, root: Path, entries: list[dict[str, Any]]) -> dict[str, str]:
    """Record every entry in order; {"TASK/KEY": id}. Raises RuntimeError on a refusal."""
    ids: dict[str, dict[str, str]] = {}
    planted: dict[str, str] = {}
    for entry in entries:
        task, key = entry["task"], entry["key"]
        record = _resolved(entry["record"], ids.setdefault(task, {}))
        done = majordomus(
            exe,
            root,
            ["reasoning", "record", "--task", task, "--format", "json"],
            stdin=json.dumps(record),
        )
        minted = _minted_id(done.stdout) if done.returncode == 0 else None
        if minted is None:
            why = done.stderr.strip() or done.stdout.strip()[:200]
            raise RuntimeError(f"{task}/{key} was not recorded (exit {done.returncode}): {why}")
        ids[task][key] = minted
        planted[f"{task}/{key}"] = minted
    return planted


# --- the queries ---


def load_queries(path: Path, planted: dict[str, str]) -> tuple[list[Query], list[str]]:
    """The queries with record references resolved to URIs, and what could not be."""
    problems: list[str] = []
    queries: list[Query] = []
    for raw in json.loads(path.read_text(encoding="utf-8"))["queries"]:
        expected: list[str] = []
        for name in raw["expected"]:
            if not name.startswith("record:"):
                expected.append(name)
            elif name[len("record:") :] in planted:
                expected.append(RECORD_URI + planted[name[len("record:") :]])
            else:
                problems.append(f"{raw['id']}: {name} was not planted")
        if raw["target"] == "ledger" and not planted:
            continue
        queries.append(Query(raw["id"], raw["type"], raw["target"], raw["query"], tuple(expected)))
    return queries, problems


def missing_objects(exe: str, root: Path, queries: list[Query]) -> list[str]:
    """Expected layer URIs the index does not hold (a renamed kind or identity would make
    a query unanswerable; the figures are then not comparable with earlier runs)."""
    done = majordomus(exe, root, ["objects", "list", "--format", "json"])
    try:
        listed = {o["uri"] for o in json.loads(done.stdout)["objects"]}
    except (ValueError, KeyError, TypeError):
        return ["objects list --format json did not answer a list of objects"]
    return [
        f"{q.id}: {uri}"
        for q in queries
        for uri in q.expected
        if not uri.startswith(RECORD_URI) and uri not in listed
    ]


def hit_names(answer: Any) -> list[str]:
    """Each hit's URI (and a record hit's id after it, as `id:<id>`), in answer order."""
    if not isinstance(answer, dict):
        return []
    hits = answer.get("hits") or answer.get("objects") or answer.get("results") or []
    names: list[str] = []
    for hit in hits if isinstance(hits, list) else []:
        if isinstance(hit, dict):
            names.append(str(hit.get("uri", "")) + (f" id:{hit['id']}" if "id" in hit else ""))
    return names


def first_rank(names: list[str], expected: tuple[str, ...]) -> int | None:
    ids = {uri[len(RECORD_URI) :] for uri in expected if uri.startswith(RECORD_URI)}
    for rank, name in enumerate(names, start=1):
        uri, _, rest = name.partition(" id:")
        if uri in expected or (rest and rest in ids):
            return rank
    return None


def ask(exe: str, root: Path, method: Method, query: Query) -> Outcome:
    began = time.perf_counter()
    done = majordomus(
        exe, root, [*method.command, query.query, *method.options, "--format", "json"]
    )
    if done.returncode == USAGE_ERROR and method.options:
        began = time.perf_counter()
        done = majordomus(exe, root, [*method.command, query.query, "--format", "json"])
    ms = (time.perf_counter() - began) * 1000
    if done.returncode != 0:
        return Outcome(None, ms, error=f"exit {done.returncode}: {done.stderr.strip()[:200]}")
    try:
        names = hit_names(json.loads(done.stdout))
    except ValueError:
        return Outcome(None, ms, error="the answer is not JSON")
    return Outcome(first_rank(names, query.expected), ms, hits=names[:10])


def recall_available(exe: str, root: Path) -> bool:
    return majordomus(exe, root, ["recall", "--help"]).returncode == 0


# --- the figures ---


def figures(outcomes: list[Outcome]) -> dict[str, float | int]:
    n = len(outcomes)
    at5 = sum(1 for o in outcomes if o.rank is not None and o.rank <= 5)
    rr = sum(1 / o.rank for o in outcomes if o.rank is not None and o.rank <= 10)
    return {"n": n, "recall@5": at5 / n if n else 0.0, "mrr@10": rr / n if n else 0.0}


def table(
    queries: list[Query], results: dict[str, dict[str, Outcome]], methods: list[str]
) -> dict[str, dict[str, dict[str, dict[str, float | int]]]]:
    """{target: {type or "overall": {method: figures}}}."""
    out: dict[str, dict[str, dict[str, dict[str, float | int]]]] = {}
    for target in TARGETS:
        chosen = [q for q in queries if q.target == target]
        if not chosen:
            continue
        out[target] = {}
        for kind in (*TYPES, "overall"):
            group = [q for q in chosen if kind in ("overall", q.type)]
            if group:
                out[target][kind] = {m: figures([results[m][q.id] for q in group]) for m in methods}
    return out


def latency(results: dict[str, Outcome]) -> dict[str, float]:
    times = [o.ms for o in results.values()]
    return {"median_ms": statistics.median(times), "max_ms": max(times)} if times else {}


def print_report(
    head: list[str],
    by_target: dict[str, dict[str, dict[str, dict[str, float | int]]]],
    methods: list[str],
    latencies: dict[str, dict[str, float]],
    recall_note: str,
) -> None:
    for line in head:
        print(line)
    columns = ("substring", "recall")
    for target, rows in by_target.items():
        print()
        print(f"{target}: {rows['overall'][methods[0]]['n']} queries")
        header = "".join(f"{c + ' R@5':>15} {'MRR@10':>7}" for c in columns)
        print(f"{'type':<11} {'n':>3}  {header}")
        for kind, per_method in rows.items():
            cells = ""
            for column in columns:
                f = per_method.get(column)
                cells += (
                    f"{f['recall@5']:>15.2f} {f['mrr@10']:>7.2f}"
                    if f is not None
                    else f"{'n/a':>15} {'n/a':>7}"
                )
            n = per_method[methods[0]]["n"]
            print(f"{kind:<11} {n:>3}  {cells}")
    print()
    for method in columns:
        if method in latencies:
            lat = latencies[method]
            print(
                f"latency {method}: median {lat['median_ms']:.0f} ms per query, "
                f"max {lat['max_ms']:.0f} ms (whole process)"
            )
    if recall_note:
        print(recall_note)


def print_verbose(queries: list[Query], results: dict[str, dict[str, Outcome]]) -> None:
    print()
    for q in queries:
        ranks = "  ".join(
            f"{m}={results[m][q.id].rank or '-'}"
            + (f" ({results[m][q.id].error})" if results[m][q.id].error else "")
            for m in results
        )
        print(f"{q.id} {q.target:<6} {q.type:<10} {ranks:<24} {q.query}")


# --- the run ---


def run(opts: argparse.Namespace) -> int:
    exe = opts.majordomus
    with corpus_repository(opts.corpus, opts.keep) as root:
        head = [check_adrs(exe, root).line()]
        entries = json.loads(opts.ledger.read_text(encoding="utf-8"))["records"]
        try:
            planted = plant_ledger(exe, root, entries)
            tasks = len({k.split("/")[0] for k in planted})
            head.append(f"ledger planted: {len(planted)} records over {tasks} tasks")
        except RuntimeError as exc:
            planted = {}
            head.append(f"ledger: not planted, its queries are left out: {exc}")
        queries, problems = load_queries(opts.queries, planted)
        problems += [f"not in the index: {m}" for m in missing_objects(exe, root, queries)]
        head += [f"warning: {p}" for p in problems]
        methods = [Method("substring", ("objects", "search"))]
        available = recall_available(exe, root)
        if available:
            methods.append(Method("recall", ("recall",), ("--limit", "10")))
        results = {m.name: {q.id: ask(exe, root, m, q) for q in queries} for m in methods}
    names = [m.name for m in methods]
    by_target = table(queries, results, names)
    latencies = {m: latency(results[m]) for m in names}
    note = "" if available else "recall: not available (this majordomus has no `recall` command)"
    if opts.json:
        report = {
            "majordomus": exe,
            "corpus": str(opts.corpus),
            "notes": head + ([note] if note else []),
            "methods": names,
            "figures": by_target,
            "latency": latencies,
            "queries": [
                asdict(q) | {"results": {m: asdict(results[m][q.id]) for m in names}}
                for q in queries
            ],
        }
        print(json.dumps(report, indent=2))
        return 0
    print_report(head, by_target, names, latencies, note)
    if opts.verbose:
        print_verbose(queries, results)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="list every query's ranks")
    parser.add_argument("--majordomus", default=MAJORDOMUS, help="the executable to ask")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the layer to copy")
    parser.add_argument("--queries", type=Path, default=QUERIES, help="the queries (JSON)")
    parser.add_argument("--ledger", type=Path, default=LEDGER, help="the planted ledger (JSON)")
    parser.add_argument("--keep", type=Path, help="build the repository here and keep it")
    opts = parser.parse_args(argv)
    skip_unless_present(opts.corpus, "recall", opts.json)
    return run(opts)


if __name__ == "__main__":
    raise SystemExit(main())
