"""Slow and vanishing HTTP clients over loopback against `majordomus serve` with a one-second
read timeout (docs/RELIABILITY.md, "Parsing and reading limits")."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Served, serve

READ_TIMEOUT = 1
#: How long a test waits for the server to drop a client: the deadline and a wide margin.
DROP_WITHIN = 20
SLOTS = 64
RECORD = json.dumps({"record": {"kind": "assessment", "subject": "arrived whole"}}).encode()


@pytest.fixture
def root(fresh_repo: Callable[[str], Path]) -> Path:
    return fresh_repo("repo")


@pytest.fixture
def live(root: Path, suite_env: dict[str, str]) -> Iterator[Served]:
    server = serve(root, env={**suite_env, "MAJORDOMUS_HTTP_READ_TIMEOUT": str(READ_TIMEOUT)})
    yield server
    assert server.stop() == 0, "".join(server.stderr)


def address(served: Served) -> tuple[str, int]:
    host, port = served.url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def connect(served: Served) -> socket.socket:
    return socket.create_connection(address(served), timeout=DROP_WITHIN)


def head(served: Served, method: str, path: str, length: int | None = None) -> bytes:
    host, port = address(served)
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}"]
    if length is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {length}"]
        lines.append(f"Authorization: Bearer {served.token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def dropped(sock: socket.socket) -> bool:
    """Whether the server closes `sock` (without answering) within `DROP_WITHIN` seconds."""
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def trickled_until_dropped(sock: socket.socket, piece: Callable[[int], bytes]) -> bool:
    """Send one piece each tenth of a second until the server drops `sock` (a closed or a
    reset connection, whichever the kernel reports first) or `DROP_WITHIN` seconds pass."""
    sock.settimeout(0.1)
    for n in range(DROP_WITHIN * 10):
        try:
            sock.sendall(piece(n))
            if sock.recv(65536) == b"":
                return True
        except (BrokenPipeError, ConnectionResetError):
            return True
        except TimeoutError:
            continue
    return False


def get(served: Served, path: str) -> httpx.Response:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        return client.get(path)


def records(root: Path) -> list[Path]:
    return sorted((root / ".ai/local/state/reasoning").rglob("*.json"))


def test_a_body_that_does_not_arrive_whole_commits_nothing(live: Served, root: Path) -> None:
    before = records(root)
    # A whole JSON record, but the declared length promises more: the client leaves.
    with connect(live) as sock:
        sock.sendall(head(live, "POST", "/api/v1/reasoning/records", len(RECORD) + 10))
        sock.sendall(RECORD)
        sock.shutdown(socket.SHUT_WR)
        assert dropped(sock)
    # The same record, but the client stays and sends no more: dropped at the deadline.
    with connect(live) as sock:
        sock.sendall(head(live, "POST", "/api/v1/reasoning/records", len(RECORD) + 1))
        sock.sendall(RECORD)
        assert dropped(sock)
    assert records(root) == before
    # The server still writes what arrives whole, exactly once.
    with connect(live) as sock:
        sock.sendall(head(live, "POST", "/api/v1/reasoning/records", len(RECORD)) + RECORD)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200 "), answer
    assert len(records(root)) == len(before) + 1


def test_a_slow_request_head_is_dropped(live: Served) -> None:
    with connect(live) as silent, connect(live) as trickling:
        trickling.sendall(b"GET / HTTP/1.1\r\n")
        # Bytes keep arriving, one each tenth of a second: they do not extend the deadline.
        assert trickled_until_dropped(trickling, lambda n: b"X-Pad-%d: y\r\n" % n), (
            "a client trickling its head was never dropped"
        )
        assert dropped(silent)
    assert get(live, "/api/v1/health").status_code == 200


def test_a_slow_body_is_dropped_even_while_bytes_arrive(live: Served) -> None:
    with connect(live) as sock:
        sock.sendall(head(live, "POST", "/api/v1/reasoning/records", 10_000))
        assert trickled_until_dropped(sock, lambda _: b" "), (
            "a client trickling its body was never dropped"
        )


def test_live_answers_while_every_slot_hangs_and_the_deadline_frees_them(live: Served) -> None:
    hanging = [connect(live) for _ in range(SLOTS)]
    try:
        for sock in hanging:
            sock.sendall(head(live, "POST", "/api/v1/reasoning/records", 1000) + b'{"record"')
        # Once the server has read every head, the other routes are busy...
        for _ in range(200):
            busy = get(live, "/api/v1/health")
            if busy.status_code == 503:
                break
        assert busy.status_code == 503, busy.text
        assert busy.json()["error"]["code"] == "busy"
        # ...and the liveness probes are still answered.
        assert get(live, "/api/v1/live").status_code == 200
        assert get(live, "/").status_code == 200
        # Each slow client is dropped at its deadline, which frees its slot.
        assert all(dropped(sock) for sock in hanging)
    finally:
        for sock in hanging:
            sock.close()
    assert get(live, "/api/v1/health").status_code == 200
