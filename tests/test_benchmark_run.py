"""`benchmarks/run.py` runs end to end on tiny inputs and reports every row of issue 30 (only
the report's shape is checked, never the machine's figures)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.table import render

SOURCE = Path(__file__).resolve().parent.parent
TINY = [
    "--quick",
    "--samples",
    "1",
    "--mcp-rules",
    "4",
    "--rules",
    "12",
    "--records",
    "16",
    "--rss-records",
    "24",
    "--calls",
    "2",
    "--checks",
    "3",
    "--warmup",
    "0",
    "--format",
    "json",
    "--no-write",
]
ROWS = (
    "MCP first answer, majordomus_get",
    "MCP first answer, majordomus_search",
    "MCP first answer, majordomus_devcontext",
    "MCP handshake",
    "MCP steady tools/call",
    "objects list --format json, `init` layer",
    "reasoning status --format json",
    "reasoning check vs reasoning status",
    "peak RSS of reasoning status",
    "objects list --format json, 12 rules",
    "freshness check before an answer",
    "re-index after one layer file changed",
    "modules imported: reasoning status --report beyond --format json",
    "one-shot commands importing the HTTP stack or PyYAML",
    "modules imported: reasoning record",
)
RATIOS = {"MCP", "objects", "reasoning", "re-index"}


def test_one_run_reports_every_row_with_its_floor_and_target(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", *TINY, "--work", str(tmp_path)],
        cwd=SOURCE,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    names = [r["name"] for r in document["rows"]]
    assert [next(n for n in names if n.startswith(prefix)) for prefix in ROWS] == names
    for row in document["rows"]:
        assert isinstance(row["ok"], bool)
        if row["target_kind"] == "ratio":
            assert row["name"].split()[0] in RATIOS
            assert row["measured"] > 0 and row["floor"] > 0 and row["ratio"] > 0, row
    collector = [e for e in document["supplementary"] if e["name"].startswith("collector")]
    assert len(collector) == 4 and all(e["peak_mib"] > 0 for e in collector)
    table = render(document)
    for prefix in ROWS:
        line = next(line for line in table.splitlines() if line.strip().startswith(prefix))
        assert line.rstrip().endswith(("met", "MISSED")), line


def test_the_capability_benchmark_derives_a_target_for_every_runnable_capability() -> None:
    from benchmarks.targets import derive_targets
    from majordomus.capabilities.workspace import Workspace
    from majordomus.synthetic import Shape, SyntheticRepository

    with SyntheticRepository.new(Shape()) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ids = {target.id for target in derive_targets(ctx, ctx.registry)}
    assert {"objects.list", "reasoning.status", "recall.query"} <= ids
