"""The HTTP application stays true while it lives: a change to the layer is served at the next
request, and `/` says `stale` while a change could not be read (README "Live re-indexing")."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from majordomus.capabilities.workspace import Workspace
from majordomus.http.app import create_app
from tests.conftest import command_env, git, initialised_repo

BASE = "http://127.0.0.1:8741"
ADR = """---
schema: adr/v1
id: ADR-0008
title: HTTP stays true
status: accepted
---

# HTTP stays true

Marker: wombat-marker.
"""


def test_a_commit_is_served_next_and_a_broken_layer_is_stale(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    ctx = Workspace(root, environ=command_env())
    app = create_app(ctx)
    with TestClient(app, base_url=BASE, client=("127.0.0.1", 50000)) as client:
        home = client.get("/").json()
        assert home["stale"] is False
        assert client.get("/api/v1/search", params={"query": "wombat-marker"}).json()["hits"] == []

        (root / ".ai/repo/adrs/0008-http.md").write_text(ADR, encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "ADR 0008")
        head = git(root, "rev-parse", "HEAD").strip()
        hits = client.get("/api/v1/search", params={"query": "wombat-marker"}).json()["hits"]
        assert [h["uri"] for h in hits] == ["majordomus://adr/ADR-0008"]
        home = client.get("/").json()
        assert home["stale"] is False and home["commit"] == head

        manifest = root / ".ai/manifest.yaml"
        good = manifest.read_text(encoding="utf-8")
        manifest.write_text("schema: [unclosed\n", encoding="utf-8")
        assert client.get("/").json()["stale"] is True
        hits = client.get("/api/v1/search", params={"query": "wombat-marker"}).json()["hits"]
        assert [h["uri"] for h in hits] == ["majordomus://adr/ADR-0008"]

        manifest.write_text(good, encoding="utf-8")
        assert client.get("/").json()["stale"] is False
