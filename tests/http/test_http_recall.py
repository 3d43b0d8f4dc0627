"""`GET /api/v1/recall` answers what `majordomus recall --format json` prints."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.testclient import TestClient

from majordomus.capabilities.workspace import Workspace
from majordomus.http.app import create_app
from tests.conftest import command_env, initialised_repo, run_majordomus


def test_the_route_answers_as_the_command_does(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    cli = run_majordomus(
        ["recall", "handover prompt", "--limit", "3", "--format", "json"], cwd=root
    )
    assert cli.code == 0, cli.stderr
    app = create_app(Workspace(root, environ=command_env()))
    with TestClient(app, base_url="http://127.0.0.1:8741", client=("127.0.0.1", 50000)) as client:
        answer = client.get("/api/v1/recall", params={"query": "handover prompt", "limit": 3})
        assert answer.status_code == 200
        assert answer.json() == json.loads(cli.stdout)
        assert answer.json()["hits"][0]["uri"] == "majordomus://prompt/handover"
        refused = client.get("/api/v1/recall", params={"query": "x", "kind": "nonsense"})
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "invalid_input"
