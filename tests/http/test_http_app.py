"""The application in process (ASGI), with the probe module: error mapping, bindings, guards
with a set client address and the process cache (docs/http.md; the busy bound is in
test_http_whole_body.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from majordomus.capabilities.schemas import canonical_schema
from majordomus.capabilities.workspace import Workspace
from majordomus.http.app import create_app
from majordomus.http.door import Door
from majordomus.http.middleware import Guard
from tests.http.conftest import error_of

LOCAL = ("127.0.0.1", 50000)
REMOTE = ("10.0.0.5", 50000)
BASE = "http://127.0.0.1:8741"
TOKEN = "probe-token-" + "x" * 32
SHOWN = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def app(probe_context: Workspace) -> Guard:
    return create_app(probe_context, door=Door(TOKEN))


@pytest.fixture(scope="module")
def client(app: Guard) -> Iterator[TestClient]:
    """A loopback caller that shows the token."""
    with TestClient(app, base_url=BASE, client=LOCAL, headers=SHOWN) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("error", "status", "message"),
    [
        ("invalid_input", 400, "the probe says invalid_input"),
        ("not_found", 404, "the probe says not_found"),
        ("refused", 422, "the probe says refused"),
        ("forbidden", 403, "the probe says forbidden"),
        ("internal", 500, "the probe says internal"),
        ("crash", 500, "probe.fail failed: the probe crashed"),
        ("fatal", 404, "the probe's artifact is missing"),
    ],
)
def test_every_capability_error_maps_to_its_status(
    client: TestClient, error: str, status: int, message: str
) -> None:
    code = {"crash": "internal", "fatal": "not_found"}.get(error, error)
    got = error_of(client.get("/api/v1/probe/fail", params={"error": error}), status, code)
    assert message in got
    assert not got.startswith(("refused:", "not found:", "invalid input:"))


@pytest.mark.parametrize(
    "params",
    [
        {"error": "refused", "extra": "1"},
        {"error": "exploded"},
        {},
    ],
)
def test_inputs_the_type_refuses_are_invalid_input(
    client: TestClient, params: dict[str, str]
) -> None:
    error_of(client.get("/api/v1/probe/fail", params=params), 400, "invalid_input")


def test_query_parameters_are_coerced_by_declared_type(client: TestClient) -> None:
    params = {
        "text": "a b&c",
        "count": "-3",
        "ratio": "0.5",
        "flag": "true",
        "items": '["x","y"]',
        "mapping": '{"k":2}',
        "choice": "b",
    }
    answer = client.get("/api/v1/probe/echo", params=params)
    assert answer.status_code == 200
    assert answer.json() == {
        "input": {
            "text": "a b&c",
            "count": -3,
            "ratio": 0.5,
            "flag": True,
            "items": ["x", "y"],
            "mapping": {"k": 2},
            "choice": "b",
        }
    }
    assert client.get("/api/v1/probe/echo", params={"text": "12"}).json() == {
        "input": {"text": "12"}
    }


def test_post_bodies(client: TestClient) -> None:
    ok = client.post("/api/v1/probe/note", content=b'{"note": "hi"}')
    assert ok.status_code == 200 and ok.json() == {"input": {"note": "hi"}}
    assert "note" in error_of(client.post("/api/v1/probe/note", content=b""), 400, "invalid_input")
    error_of(client.post("/api/v1/probe/note", content=b"{nope"), 400, "invalid_input")
    extra = client.post("/api/v1/probe/note", content=b'{"note": "hi", "more": 1}')
    error_of(extra, 400, "invalid_input")


def test_routing_errors(client: TestClient) -> None:
    assert (
        error_of(client.get("/api/v1/nothing"), 404, "not_found")
        == "no route GET /api/v1/nothing; the routes are listed at /openapi.json"
    )
    assert "/elsewhere" in error_of(client.get("/elsewhere"), 404, "not_found")
    for path in ("/openapi.json/x", "/swagger/x", "/api/v1/probe/echo/", "/api/v1/probe"):
        error_of(client.get(path), 404, "not_found")
    wrong = client.post("/api/v1/probe/echo", content=b"{}")
    assert "method POST is not served" in error_of(wrong, 405, "method_not_allowed")
    assert wrong.headers["allow"] == "GET"
    error_of(client.get("/api/v1/probe/note"), 405, "method_not_allowed")
    error_of(client.put("/api/v1/nothing"), 405, "method_not_allowed")
    error_of(client.delete("/api/v1/probe/echo"), 405, "method_not_allowed")
    error_of(client.options("/api/v1/probe/echo"), 405, "method_not_allowed")
    error_of(client.post("/"), 405, "method_not_allowed")
    error_of(client.post("/openapi.json"), 405, "method_not_allowed")


def test_guards_on_the_asgi_path(app: Guard, probe_context: Workspace) -> None:
    with TestClient(app, base_url="http://evil.example", client=LOCAL) as rebinding:
        assert "DNS rebinding" in error_of(rebinding.get("/api/v1/live"), 403, "forbidden")
    with TestClient(app, base_url=BASE, client=LOCAL) as local:
        foreign = {"origin": "http://evil.example"}
        note = local.post("/api/v1/probe/note", content=b'{"note":"x"}', headers=foreign)
        error_of(note, 403, "forbidden")
        own = {"origin": BASE, **SHOWN}
        assert local.post("/api/v1/probe/note", content=b'{"note":"x"}', headers=own).is_success
        assert local.get("/api/v1/live", headers=foreign).status_code == 200
        before = probe_context.executor.handler_invocations
        unshown = local.post("/api/v1/probe/note", content=b'{"note":"x"}')
        assert "--open-loopback" in error_of(unshown, 401, "unauthorized")
        assert unshown.headers["www-authenticate"] == "Bearer"
        assert probe_context.executor.handler_invocations == before
    with TestClient(app, base_url="http://majordomus.internal", client=REMOTE) as remote:
        for method, path in (("GET", "/api/v1/live"), ("GET", "/"), ("POST", "/mcp")):
            error_of(remote.request(method, path), 401, "unauthorized")
        wrong = {"authorization": "Bearer " + "y" * 44}
        error_of(remote.get("/api/v1/live", headers=wrong), 401, "unauthorized")
        assert probe_context.executor.handler_invocations == before
        assert remote.get("/api/v1/live", headers=SHOWN).status_code == 200
        note = remote.post("/api/v1/probe/note", content=b'{"note":"x"}', headers=SHOWN)
        assert note.json() == {"input": {"note": "x"}}


def test_index_json_unless_html_is_asked_for(client: TestClient, served_repo: Path) -> None:
    for accept in ("application/json", "*/*", "text/html;q=0", ""):
        answer = client.get("/", headers={"accept": accept})
        assert answer.headers["content-type"] == "application/json"
        body = answer.json()
        assert body["name"] == "majordomus"
        assert body["repository"] == served_repo.name
        assert str(served_repo) not in answer.text
        paths = [s["path"] for s in body["surfaces"]]
        assert paths == ["/api/v1", "/openapi.json", "/swagger", "/mcp"]
    page = client.get("/", headers={"accept": "text/html,application/xhtml+xml;q=0.9"})
    assert page.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert "/api/v1/probe/echo" in page.text


def test_api_index(client: TestClient, probe_context: Workspace) -> None:
    first, second = client.get("/api/v1"), client.get("/api/v1/")
    assert first.status_code == 200 and first.content == second.content
    body = first.json()
    assert (body["openapi"], body["swagger"]) == ("/openapi.json", "/swagger")
    routed = {cap.id: cap for cap in probe_context.registry if cap.http}
    assert sorted(r["capability"] for r in body["routes"]) == sorted(routed)
    for row in body["routes"]:
        cap = routed[row["capability"]]
        assert [row["method"], row["path"], row["title"]] == [*cap.http, cap.title]
    paths = [row["path"] for row in body["routes"]]
    assert paths == sorted(paths, key=lambda p: p.lower())


def test_the_process_cache_is_effective_and_errors_are_not_cached(served_repo: Path) -> None:
    ctx = Workspace(served_repo)
    with TestClient(create_app(ctx), base_url=BASE, client=LOCAL) as fresh:
        executor = ctx.executor
        first = fresh.get("/api/v1/search", params={"query": "rule"})
        runs = executor.handler_invocations
        for _ in range(5):
            again = fresh.get("/api/v1/search", params={"query": "rule"})
            assert again.content == first.content
        assert executor.handler_invocations == runs
        other = fresh.get("/api/v1/search", params={"query": "rule", "limit": "1"})
        assert other.status_code == 200 and executor.handler_invocations == runs + 1
        for _ in range(2):
            error_of(fresh.get("/api/v1/search", params={"query": " "}), 422, "refused")
        assert executor.handler_invocations == runs + 3
        fresh.get("/api/v1/live")
        fresh.get("/api/v1/live")
        assert executor.handler_invocations == runs + 5


def test_nothing_is_rebuilt_per_request(served_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import majordomus.capabilities.registry as registry_module
    import majordomus.http.app as app_module
    import majordomus.layer.index as index_module

    ctx = Workspace(served_repo)
    app = create_app(ctx)
    calls: dict[str, int] = {"index": 0, "registry": 0, "openapi": 0}

    def counting(name: str, original: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(index_module, "build", counting("index", index_module.build))
    monkeypatch.setattr(
        registry_module, "build_registry", counting("registry", registry_module.build_registry)
    )
    monkeypatch.setattr(app_module, "build_openapi", counting("openapi", app_module.build_openapi))
    with TestClient(app, base_url=BASE, client=LOCAL) as client:
        for _ in range(20):
            for path in ("/", "/api/v1", "/openapi.json", "/api/v1/objects", "/api/v1/ready"):
                assert client.get(path).status_code == 200
    assert calls == {"index": 0, "registry": 0, "openapi": 1}


BAD_VALUES = ("", "x", "-1", "1e999", "null", "[1]", '{"a":', "\u00e9\u0000")


def test_no_malformed_parameter_answers_500(client: TestClient, probe_context: Workspace) -> None:
    """Every GET route, every declared parameter, a handful of values of the wrong shape: the
    answer is a success or a caller error, never 500 (issue 7, "Bad input")."""
    for cap in probe_context.registry:
        if cap.http is None or cap.http[0] != "GET" or cap.id == "probe.fail":
            continue
        schema = canonical_schema(cap.input, "validation")
        names = [*schema.get("properties", {}), "unknown_parameter"]
        required = {n: "x" for n in schema.get("required", [])}
        for name in names:
            for bad in BAD_VALUES:
                answer = client.get(cap.http[1], params={**required, name: bad})
                assert answer.status_code < 500, (cap.id, name, bad, answer.text)
                if answer.status_code != 200:
                    assert answer.json()["error"]["code"] in (
                        "invalid_input",
                        "not_found",
                        "refused",
                    )


def test_no_malformed_body_answers_500(client: TestClient, probe_context: Workspace) -> None:
    bodies = (b"", b"{", b"[]", b"1", b'{"record": 1}', b'{"record": {"kind": "nope"}}', b"\xff")
    for cap in probe_context.registry:
        if cap.http is None or cap.http[0] != "POST":
            continue
        for body in bodies:
            answer = client.post(cap.http[1], content=body)
            assert answer.status_code in (400, 422), (cap.id, body, answer.text)
