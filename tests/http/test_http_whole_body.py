"""The Guard runs a request only once its body has arrived whole, and answers liveness
probes past the in-flight bound (in process; the same over real sockets is in
tests/reliability/test_http_slow_clients.py)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from majordomus.http.middleware import Guard

LOCAL = ("127.0.0.1", 50000)


def run(guard: Guard, method: str, path: str, messages: list[dict[str, Any]], length: int | None):
    """Drive one request through `guard`: what the app was given, and what was sent."""
    headers = [(b"host", b"127.0.0.1")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {"type": "http", "method": method, "path": path, "headers": headers, "client": LOCAL}
    pending = list(messages)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(guard, scope, receive, send)
    return sent


def chunk(body: bytes, more: bool) -> dict[str, Any]:
    return {"type": "http.request", "body": body, "more_body": more}


class App:
    """Records the body each run saw and answers 200."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        self.bodies.append(message["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


BODY = b'{"record":{"kind":"assessment","subject":"whole"}}'


@pytest.mark.parametrize(
    ("messages", "length"),
    [
        ([chunk(BODY, True), {"type": "http.disconnect"}], len(BODY) + 10),
        ([chunk(BODY[:10], True)], len(BODY)),
        ([chunk(BODY, False)], len(BODY) + 1),
    ],
    ids=["disconnect-after-the-json", "disconnect-mid-body", "shorter-than-declared"],
)
def test_a_body_that_does_not_arrive_whole_runs_nothing(
    messages: list[dict[str, Any]], length: int
) -> None:
    app = App()
    guard = Guard(app)
    assert run(guard, "POST", "/api/v1/reasoning/records", messages, length) == []
    assert app.bodies == []
    assert guard.in_flight == 0


def test_a_whole_body_in_chunks_runs_once() -> None:
    app = App()
    messages = [chunk(BODY[:7], True), chunk(BODY[7:], True), chunk(b"", False)]
    sent = run(Guard(app), "POST", "/api/v1/reasoning/records", messages, len(BODY))
    assert sent[0]["status"] == 200
    assert app.bodies == [BODY]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_liveness_probes_pass_the_in_flight_bound(method: str) -> None:
    """With the bound reached, anything but a liveness probe gets 503 `busy` and
    `Retry-After: 1`."""
    guard = Guard(App(), max_in_flight=0)
    for path in ("/", "/api/v1/live"):
        assert run(guard, method, path, [chunk(b"", False)], None)[0]["status"] == 200
    start, *body = run(guard, method, "/api/v1/health", [chunk(b"", False)], None)
    assert start["status"] == 503 and (b"retry-after", b"1") in start["headers"]
    if method == "GET":
        assert json.loads(body[0]["body"])["error"]["code"] == "busy"
