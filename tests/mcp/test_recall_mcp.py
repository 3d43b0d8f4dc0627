"""`majordomus_recall` in one MCP session: a record written in the session is recalled by the
next call, and its URI reads as a resource."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import answered


def _attempt(text: str) -> dict[str, Any]:
    record = {"kind": "attempt", "attempt": text, "observed_failure": "the cache went stale"}
    return {"record": record, "task": "caching"}


def test_a_record_is_recalled_and_read_in_the_same_session(layer_repo: Path, pipes: Any) -> None:
    session = pipes.run(
        layer_repo,
        [
            pipes.request(1, "initialize", {"protocolVersion": "2025-06-18"}),
            pipes.call(2, "majordomus_recall", {"query": "registry cache"}),
            pipes.call(3, "majordomus_reasoning_record", _attempt("cache the registry on disk")),
            pipes.call(4, "majordomus_recall", {"query": "did we try caching the registry?"}),
            pipes.call(5, "majordomus_recall", {"query": "registry", "cursor": "nonsense"}),
        ],
    )
    assert session.result.code == 0, session.result.stderr
    by_id = {r["id"]: r for r in session.responses}
    before = answered(by_id[2]["result"])
    assert not any(h["uri"].startswith("majordomus://reasoning/") for h in before["hits"])
    recorded = answered(by_id[3]["result"])["record"]["id"]
    after = answered(by_id[4]["result"])
    [first, *_] = after["hits"]
    assert (first["id"], first["task"]) == (recorded, "caching")
    assert by_id[5]["result"]["isError"] is True
    assert by_id[5]["result"]["_meta"]["majordomus"]["error"]["code"] == "invalid_input"

    read = pipes.run(
        layer_repo,
        [
            pipes.request(1, "initialize", {"protocolVersion": "2025-06-18"}),
            pipes.request(2, "resources/read", {"uri": first["uri"]}),
            pipes.request(3, "resources/read", {"uri": "majordomus://reasoning/record/absent"}),
        ],
    )
    by_id = {r["id"]: r for r in read.responses}
    [content] = by_id[2]["result"]["contents"]
    assert content["mimeType"] == "application/json"
    assert json.loads(content["text"])["id"] == recorded
    assert by_id[3]["error"]["code"] == -32002
