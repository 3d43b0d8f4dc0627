"""Every transport bounds its input before it buffers it, and a client that does not take its
answer cannot hold memory (docs/RELIABILITY.md, "Parsing and reading limits")."""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from majordomus.ledger.store import STATE_DIR
from majordomus.synthetic import Shape, SyntheticRepository
from tests.conftest import Served, serve
from tests.mcp.conftest import Pipes
from tests.reliability.test_http_slow_clients import DROP_WITHIN, address, connect, dropped
from tests.reliability.test_mcp_sweep import Session

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

OVER_LONG = Pipes.error(None, -32600, "the line is over the 1 MiB limit (1048576 bytes)")


def _memory(pid: int, field: str) -> int:
    """`VmRSS` or `VmHWM` of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def test_an_mcp_line_over_the_limit_is_answered_without_being_held(
    template: Path, suite_env: dict[str, str]
) -> None:
    mcp = Session(template, suite_env)
    assert mcp.case(b"") == []
    before = _memory(mcp.process.pid, "VmHWM")
    piece = b"x" * (1 << 20)
    for _ in range(63):
        mcp.send(piece)
    assert mcp.one(piece) == OVER_LONG
    grown = _memory(mcp.process.pid, "VmHWM") - before
    assert grown < 16 * 1024, f"a 64 MiB line raised the peak by {grown} KiB"
    assert mcp.finish(b"") == ([], 0)


@pytest.fixture
def live(fresh_repo: Callable[[str], Path], suite_env: dict[str, str]) -> Iterator[Served]:
    served = serve(fresh_repo("repo"), env={**suite_env, "MAJORDOMUS_HTTP_WRITE_TIMEOUT": "1"})
    yield served
    assert served.stop() == 0, "".join(served.stderr)


def _answer(served: Served, request: bytes) -> tuple[bytes, bool]:
    """The raw answer to `request`, and whether the server then closed the connection."""
    with connect(served) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            chunk = sock.recv(65536)
            assert chunk, data
            data += chunk
        return data, dropped(sock)


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


@pytest.mark.parametrize(
    "framing",
    [
        b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
        b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
        b"Content-Length: 2\r\nContent-Length: 3\r\n",
    ],
    ids=["te-then-cl", "cl-then-te", "two-lengths"],
)
def test_conflicting_framing_is_a_400_json_error_and_the_connection_closes(
    live: Served, framing: bytes
) -> None:
    host, port = address(live)
    request = (
        (
            f"POST /api/v1/reasoning/records HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Content-Type: application/json\r\n"
        ).encode()
        + framing
        + b"\r\n2\r\n{}\r\n0\r\n\r\n"
    )
    data, closed = _answer(live, request)
    head, body = data.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 400 "), head
    assert b"content-type: application/json" in head.lower()
    assert json.loads(body)["error"]["code"] == "invalid_input"
    assert "RFC 9112" in json.loads(body)["error"]["message"]
    assert closed
    assert not (live.root / STATE_DIR).exists()


def _soon(done: Callable[[], bool]) -> bool:
    """Whether `done()` holds within `DROP_WITHIN` seconds (the server acts on its own
    deadlines, a second here)."""
    for _ in range(DROP_WITHIN * 20):
        if done():
            return True
        time.sleep(0.05)
    return done()


def _non_reader(host: str, port: int, path: str, requests: int = 1) -> socket.socket:
    """A client that sends GETs and never reads (a small receive buffer, so the answers
    stay in the server)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(DROP_WITHIN)
    sock.connect((host, port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode() * requests)
    return sock


def _rest(sock: socket.socket) -> bytes:
    """What the client can still read; the connection was reset or closed."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def test_a_client_that_never_reads_is_dropped_at_the_write_deadline(live: Served) -> None:
    host, port = address(live)
    # More answers than the kernel's socket buffers hold, so some wait in the server.
    with _non_reader(host, port, "/openapi.json", requests=40) as sock:
        with httpx.Client(base_url=live.url, timeout=30) as other:
            assert other.get("/api/v1/live").status_code == 200
        assert _soon(lambda: any("did not take its answer" in x for x in live.stderr))
        whole = _length(received := _rest(sock)) * 40
        assert len(received) < whole, "the connection ended before every answer was taken"


def test_memory_comes_back_after_three_hundred_clients_that_never_read(
    tmp_path: Path, suite_env: dict[str, str]
) -> None:
    root = tmp_path / "big"
    SyntheticRepository.new(Shape.scaling(2000), at=root).commit()
    served = serve(root, env={**suite_env, "MAJORDOMUS_HTTP_WRITE_TIMEOUT": "1"})
    pid = served.process.pid
    try:
        with served.client() as client:
            for _ in range(10):
                answer = client.get("/api/v1/objects")
                assert answer.status_code == 200
        start = _memory(pid, "VmRSS")
        # Holding the 300 answers would cost 300 of them; the allocator may keep a few freed
        # pages, so the bound is a tenth of that.
        bound = start + 30 * len(answer.content) // 1024
        host, port = address(served)
        clients = [_non_reader(host, port, "/api/v1/objects") for _ in range(300)]
        for sock in clients:
            _rest(sock)
            sock.close()
        assert _soon(lambda: _memory(pid, "VmRSS") <= bound), (
            f"RSS {start} KiB before, {_memory(pid, 'VmRSS')} KiB after the clients left "
            f"(bound {bound} KiB)"
        )
        with served.client() as client:
            assert client.get("/api/v1/live").status_code == 200
    finally:
        assert served.stop() == 0, "".join(served.stderr)
