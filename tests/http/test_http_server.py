"""A real `majordomus serve --port 0` on loopback, spoken to over HTTP (docs/http.md)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from majordomus.capabilities.workspace import Workspace
from majordomus.cli.logs import LineFormat
from majordomus.http.openapi import build_openapi
from majordomus.http.server import route_uvicorn_logs
from tests.conftest import git, make_git_repo, run_majordomus
from tests.http.conftest import error_of


def test_the_url_is_printed_and_the_index_answers(server: Any, served_repo: Path) -> None:
    assert any(server.url in line for line in server.stderr)
    with server.client() as client:
        index = client.get("/")
        assert index.status_code == 200
        body = index.json()
        assert body["name"] == "majordomus" and body["repository"] == served_repo.name
        assert body["dirty"] is False and len(body["commit"]) == 40
        assert index.headers["cache-control"] == "no-store"


def test_error_mapping_over_http(server: Any) -> None:
    with server.client() as client:
        limit = error_of(
            client.get("/api/v1/search", params={"query": "x", "limit": "abc"}),
            400,
            "invalid_input",
        )
        assert limit == "parameter 'limit': 'abc' is not a signed 64-bit integer"
        unknown = client.get("/api/v1/search", params={"query": "x", "colour": "red"})
        assert "colour" in error_of(unknown, 400, "invalid_input")
        error_of(client.get("/api/v1/search"), 400, "invalid_input")
        missing = client.get("/api/v1/object", params={"uri": "majordomus://rule/nothing@1"})
        assert "majordomus://rule/nothing@1" in error_of(missing, 404, "not_found")
        blank = client.get("/api/v1/search", params={"query": "  "})
        blank_message = "argument 'query' is required and must not be blank"
        assert error_of(blank, 422, "refused") == blank_message
        kind = client.get("/api/v1/objects", params={"kind": "nothing"})
        assert "nothing" in error_of(kind, 400, "invalid_input")


def test_head_and_content_length(server: Any) -> None:
    with server.client() as client:
        get = client.get("/api/v1/ready")
        head = client.head("/api/v1/ready")
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(get.content))
        assert "transfer-encoding" not in get.headers
        assert client.head("/api/v1/nothing").status_code == 404


def test_openapi_is_served(server: Any, served_repo: Path, server_env: dict[str, str]) -> None:
    with server.client() as client:
        served = client.get("/openapi.json")
        assert served.status_code == 200 and served.text.endswith("}\n")
        ctx = Workspace(served_repo, environ=server_env)
        expected = build_openapi(ctx.registry, lambda cap: cap.benchmark_cases(ctx))
        assert served.json() == json.loads(json.dumps(expected))


def test_a_non_loopback_bind_warns_and_sigterm_stops_with_zero(
    served_repo: Path, launch: Callable[..., Any]
) -> None:
    running = launch(served_repo, "--host", "0.0.0.0")
    assert running.url.startswith("http://")
    assert running.stop() == 0
    log = "".join(running.stderr)
    assert "not loopback" in log and "WARN" in log


def test_strict_refuses_to_serve_a_degraded_index(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", commit=False)
    assert run_majordomus(["init"], cwd=root).code == 0
    (root / ".ai/repo/rules/broken.md").write_text("---\nid: [unclosed\n---\nbody\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a broken rule")
    done = run_majordomus(["serve", "--strict", "--port", "0"], cwd=root)
    assert done.code == 10
    assert done.stderr.splitlines()[-1].startswith("majordomus: refusing to serve under --strict")


def test_uvicorn_lines_pass_our_filter() -> None:
    ours = logging.getLogger("majordomus")
    saved = (list(ours.handlers), ours.level)
    sink = io.StringIO()
    handler = logging.StreamHandler(sink)
    handler.setFormatter(LineFormat())
    ours.handlers = [handler]
    ours.setLevel(logging.INFO)
    try:
        route_uvicorn_logs()
        token = "ghp_" + "a" * 36
        logging.getLogger("uvicorn.error").warning("bad request from %s\x1b[2J", token)
    finally:
        ours.handlers, level = saved
        ours.setLevel(level)
    line = sink.getvalue()
    assert token not in line and "\x1b" not in line
    assert line.startswith("majordomus[WARN] ") and line.count("\n") == 1


def test_no_answer_shows_the_absolute_root(server: Any, served_repo: Path) -> None:
    with server.client() as client:
        for path in ("/", "/api/v1/repository", "/api/v1/health", "/api/v1/objects"):
            answer = client.get(path)
            assert answer.status_code == 200, path
            assert str(served_repo) not in answer.text, path
        repository = client.get("/api/v1/repository").json()["repository"]
        assert repository["root"] == served_repo.name
        assert repository["git"]["toplevel"] == served_repo.name
