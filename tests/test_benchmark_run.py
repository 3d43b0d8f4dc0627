"""`benchmarks/run.py scale` runs end to end on tiny inputs and reports every row of issue 18.

Only the shape of the report is checked (a row per measure, its floor, ratio, target and
verdict); the figures themselves depend on the machine and are never asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.scale_table import render

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
ISSUE_18 = (
    "MCP first answer, majordomus_get",
    "MCP first answer, majordomus_search",
    "MCP first answer, majordomus_devcontext",
    "MCP handshake",
    "MCP steady tools/call",
    "reasoning status --format json",
    "objects list --format json",
    "peak RSS of reasoning status",
    "freshness check before an answer",
    "re-index after one layer file changed",
    "reasoning check vs reasoning status",
)


def test_scale_reports_every_row_with_its_floor_and_target(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "scale", *TINY, "--work", str(tmp_path)],
        cwd=SOURCE,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    rows = [r for r in document["rows"] if r["issue"] == 18]
    assert [next(r for r in rows if r["name"].startswith(p))["name"] for p in ISSUE_18]
    assert len(rows) == len(ISSUE_18)
    for row in rows:
        assert row["measured"] > 0, row
        assert isinstance(row["ok"], bool)
        if row["target_kind"] == "ratio":
            assert row["floor"] > 0 and row["ratio"] > 0, row
    table = render(document)
    for prefix in ISSUE_18:
        line = next(line for line in table.splitlines() if line.strip().startswith(prefix))
        assert line.rstrip().endswith(("met", "MISSED")), line
