"""What each stage of recall's ranking adds, in process, on a repository recall.py kept.

    python benchmarks/recall.py --keep /tmp/recall-corpus     # builds and plants it once
    python benchmarks/recall_stages.py /tmp/recall-corpus [--queries FILE]

Stages, each with the ones before it: `bm25` (FTS5's BM25 with the field weights over every
optional word, per table, nothing else), `coverage` (the score: the share of the query's
information matched, by field, scaled by BM25), `trigram` (misspelt words matched by their
nearest spelling), `structure` (the bounded boost along the layer's and the ledger's links):
the last is what `majordomus recall` runs. Prints recall@5 and MRR@10 for the layer and the
ledger queries per stage. The stages are switched off by replacing the ranking module's
parts for the run; nothing in the product has a switch for them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.recall import LEDGER, QUERIES, RECORD_URI  # noqa: E402
from majordomus.layer import ranking  # noqa: E402

STAGES = ("bm25", "coverage", "trigram", "structure")


def planted(root: Path) -> dict[str, str]:
    """{"TASK/KEY": id}: each task's records in the order recall.py recorded them."""
    from majordomus.ledger.store import Store

    by_task: dict[str, list[str]] = defaultdict(list)
    for record in Store(root).load().records:
        by_task[record.task].append(record.id)
    keys: dict[str, list[str]] = defaultdict(list)
    for entry in json.loads(LEDGER.read_text(encoding="utf-8"))["records"]:
        keys[entry["task"]].append(entry["key"])
    return {f"{t}/{k}": i for t, ids in by_task.items() for k, i in zip(keys[t], ids, strict=False)}


def bm25_only(self: Any, terms: Any, idf: Any, keep: Any = None) -> list[Any]:
    """The BM25 stage: each table's hits scored by their BM25 relative to its best."""
    weights = ", ".join(str(w) for w in ranking.BM25_WEIGHTS)
    query = " OR ".join(f"({t.match})" for t in terms)
    rows = self.db.execute(
        f"select rowid, -bm25(docs, {weights}) from docs where docs match ? "
        f"order by bm25(docs, {weights}), rowid limit {ranking.CANDIDATES}",
        [query],
    ).fetchall()
    hits = [(row, raw) for row, raw in rows if keep is None or keep(self.documents[row])]
    best = max((raw for _, raw in hits), default=1.0) or 1.0
    return [
        ranking.Scored(self, row, raw / best, [[] for _ in ranking.COLUMNS]) for row, raw in hits
    ]


def switch(stage: str) -> None:
    index = STAGES.index(stage)
    if index < STAGES.index("structure"):
        ranking.BOOST_SHARE = 0.0
    if index < STAGES.index("trigram"):
        ranking.corrections = lambda *_a, **_k: ()  # type: ignore[assignment]
    if index < STAGES.index("coverage"):
        ranking.Ranking.score = bm25_only  # type: ignore[assignment,method-assign]


def run(root: Path, queries: Path, stage: str) -> dict[str, tuple[float, float, int]]:
    from majordomus.capabilities.workspace import Workspace

    switch(stage)
    os.chdir(root)
    ctx = Workspace(root)
    ids = planted(root)
    ranks: dict[str, list[int | None]] = defaultdict(list)
    for q in json.loads(queries.read_text(encoding="utf-8"))["queries"]:
        expected = {
            RECORD_URI + ids[e[len("record:") :]] if e.startswith("record:") else e
            for e in q["expected"]
        }
        answer = ctx.executor.call("recall.query", {"query": q["query"], "limit": 10})
        uris = [h["uri"] for h in answer["hits"]]
        ranks[q["target"]].append(next((i + 1 for i, u in enumerate(uris) if u in expected), None))
    return {
        target: (
            sum(1 for r in found if r and r <= 5) / len(found),
            sum(1 / r for r in found if r) / len(found),
            len(found),
        )
        for target, found in ranks.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a repository `recall.py --keep` left")
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--stage", choices=STAGES, help="one stage (the runner's child)")
    opts = parser.parse_args()
    if opts.stage:
        print(json.dumps(run(opts.root.resolve(), opts.queries.resolve(), opts.stage)))
        return 0
    import subprocess

    print(f"{'stage':<10} {'layer R@5':>9} {'MRR@10':>7} {'ledger R@5':>10} {'MRR@10':>7}")
    for stage in STAGES:
        argv = [sys.executable, __file__, str(opts.root), "--queries", str(opts.queries)]
        done = subprocess.run([*argv, "--stage", stage], capture_output=True, text=True)
        figures = json.loads(done.stdout)
        layer, ledger = figures.get("layer", (0, 0, 0)), figures.get("ledger", (0, 0, 0))
        print(f"{stage:<10} {layer[0]:>9.2f} {layer[1]:>7.2f} {ledger[0]:>10.2f} {ledger[1]:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
