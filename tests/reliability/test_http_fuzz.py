"""The HTTP API under schemathesis (every operation, positive and negative data, no 5xx, the
documented answers) and hostile headers, against a live `majordomus serve --port 0`
(docs/http.md, docs/RELIABILITY.md#http-guards). `positive_data_acceptance` is left out: a
well-typed input naming what the repository lacks is a documented 4xx."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis import checks as openapi_checks

from majordomus.capabilities.builtin import builtin_modules
from tests.conftest import Served, serve
from tests.reliability.conftest import soak

EXAMPLES = soak(40, 1000)
ROUTES = sorted(
    (cap.http[0], cap.http[1], bool(cap.input.model_fields))
    for module in builtin_modules()
    for cap in module.capabilities
    if cap.http is not None
)
CASES = [
    pytest.param(method, path, mode, id=f"{mode}-{method}-{path}")
    for method, path, has_input in ROUTES
    for mode in ("positive", "negative")
    if mode == "positive" or has_input  # an operation without input has no invalid input
]
CHECKS = [
    openapi_checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.negative_data_rejection,
    openapi_checks.missing_required_header,
]
RECORD = {"record": {"kind": "assessment", "subject": "guarded"}}


@pytest.fixture(scope="module")
def live(
    template: Path, suite_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    import shutil

    root = tmp_path_factory.mktemp("http") / "repo"
    shutil.copytree(template, root, symlinks=True)
    server = serve(root, env=suite_env)
    yield server
    assert server.stop() == 0


@pytest.fixture(scope="module")
def api(live: Served) -> Any:
    return schemathesis.openapi.from_url(live.url + "/openapi.json")


def test_the_document_has_every_route(api: Any) -> None:
    served = sorted(
        (result.ok().method.upper(), result.ok().path) for result in api.get_all_operations()
    )
    assert served == [(method, path) for method, path, _ in ROUTES]


@pytest.mark.parametrize(("method", "path", "mode"), CASES)
def test_schemathesis(live: Served, api: Any, method: str, path: str, mode: str) -> None:
    operation = api[path][method]
    statuses: dict[int, int] = {}

    @given(operation.as_strategy(generation_mode=GenerationMode(mode)))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        response = case.call_and_validate(base_url=live.url, checks=CHECKS)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

    run()
    assert statuses and max(statuses) < 500, statuses


# -- guards over the wire ------------------------------------------------------------------


def port_of(server: Served) -> str:
    return server.url.rsplit(":", 1)[1]


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1.evil.example",
        "localhost.evil.example",
        "localhost@evil.example",
        "[::1].evil.example",
        "0x7f.0.0.1",
        "attacker.localhost.evil",
        "",
    ],
)
@pytest.mark.parametrize("spoofed", [None, "203.0.113.5", "127.0.0.1"])
def test_the_dns_rebinding_guard(live: Served, host: str, spoofed: str | None) -> None:
    headers = {"Host": host.format(port=port_of(live))}
    if spoofed:
        headers["X-Forwarded-For"] = spoofed
        headers["Forwarded"] = f"for={spoofed}"
    with httpx.Client(base_url=live.url, timeout=30) as client:
        for method, target in (
            ("GET", "/"),
            ("GET", "/api/v1/repository"),
            ("GET", "/openapi.json"),
            ("POST", "/mcp"),
        ):
            answer = client.request(method, target, headers=headers)
            assert answer.status_code == 403, (host, spoofed, target, answer.text)
            assert answer.json()["error"]["code"] == "forbidden"
        answer = client.post("/api/v1/reasoning/records", json=RECORD, headers=headers)
        assert answer.status_code == 403


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "tool.localhost:{port}", "[::1]:{port}"]
)
def test_own_names_pass_the_host_guard(live: Served, host: str) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as client:
        answer = client.get("/api/v1/repository", headers={"Host": host.format(port=port_of(live))})
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",
        "http://127.0.0.1:1",
        "https://localhost.evil.example",
        "file://",
    ],
)
def test_a_foreign_origin_cannot_write(live: Served, origin: str) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as client:
        answer = client.post("/api/v1/reasoning/records", json=RECORD, headers={"Origin": origin})
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "forbidden"
        assert client.get("/api/v1/repository", headers={"Origin": origin}).status_code == 200


def test_the_own_origin_may_write(live: Served) -> None:
    host = f"127.0.0.1:{port_of(live)}"
    with live.client() as client:
        answer = client.post(
            "/api/v1/reasoning/records",
            json=RECORD,
            headers={"Origin": f"http://{host}", "Host": host},
        )
        assert answer.status_code == 200, answer.text


def test_the_body_limit(live: Served) -> None:
    limit = 1024 * 1024
    with live.client(timeout=60) as client:
        over = client.post("/api/v1/reasoning/records", content=b" " * (limit + 1))
        assert over.status_code == 413
        assert over.json()["error"]["code"] == "too_large"
        assert "over 1048576 bytes" in over.json()["error"]["message"]

        def chunks() -> Iterator[bytes]:
            for _ in range(17):
                yield b" " * (64 * 1024)

        streamed = client.post("/api/v1/reasoning/records", content=chunks())
        assert streamed.status_code == 413
        padded = b'{"record":{"kind":"assessment","subject":"at the limit"}}'
        at_limit = padded + b" " * (limit - len(padded))
        answer = client.post("/api/v1/reasoning/records", content=at_limit)
        assert answer.status_code == 200, answer.text
        huge_subject = {"record": {"kind": "assessment", "subject": "s" * limit}}
        assert client.post("/api/v1/reasoning/records", json=huge_subject).status_code == 413
        assert client.get("/api/v1/live").status_code == 200


def own_address() -> str | None:
    """This machine's non-loopback IPv4 address, if it has one (a UDP connect sends nothing)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def test_a_remote_caller_shows_the_token_on_every_request(
    fresh_repo: Callable[[str], Path], suite_env: dict[str, str]
) -> None:
    """A server bound to every interface, reached through this machine's own non-loopback
    address (the traffic never leaves the host): the caller is remote, and without the token
    it is answered 401 whatever it asks and whatever its forwarding headers claim."""
    address = own_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to call from")
    root = fresh_repo("remote")
    server = serve(root, "--host", "0.0.0.0", env=suite_env)
    url = f"http://{address}:{port_of(server)}"
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            spoofed = {"X-Forwarded-For": "127.0.0.1", "Forwarded": "for=127.0.0.1"}
            for headers in ({}, spoofed):
                for answer in (
                    client.post("/api/v1/reasoning/records", json=RECORD, headers=headers),
                    client.get("/api/v1/repository", headers=headers),
                    client.post("/mcp", json=ping, headers=headers),
                ):
                    assert answer.status_code == 401, answer.text
                    assert answer.json()["error"]["code"] == "unauthorized"
            assert not (root / ".ai/local/state/reasoning").exists()
            shown = {"Authorization": f"Bearer {server.token}"}
            assert client.get("/api/v1/repository", headers=shown).status_code == 200
            assert client.post("/mcp", json=ping, headers=shown).json()["result"] == {}
            written = client.post("/api/v1/reasoning/records", json=RECORD, headers=shown)
            assert written.status_code == 200, written.text
    finally:
        assert server.stop() == 0
