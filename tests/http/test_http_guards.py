"""The request guards (docs/http.md#guards-and-limits) as pure functions (the ASGI path is in
`test_http_app.py`)."""

from __future__ import annotations

import pytest

from majordomus.http.door import Door
from majordomus.http.errors import HttpError
from majordomus.http.guards import MCP_PATH, check_request, is_loopback, local_host


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("10.0.0.5", False),
        ("::ffff:10.0.0.5", False),
        ("2001:db8::1", False),
        ("testclient", False),
        (None, False),
    ],
)
def test_loopback_addresses(address: str | None, loopback: bool) -> None:
    assert is_loopback(address) is loopback


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.0.0.1:8741", True),
        ("192.168.1.4:80", True),
        ("[::1]", True),
        ("[::1]:8741", True),
        ("localhost", True),
        ("LOCALHOST:8741", True),
        ("app.localhost", True),
        ("app.localhost:3000", True),
        ("evil.example", False),
        ("localhost.evil.example", False),
        ("127.0.0.1.evil.example", False),
        ("999.1.1.1", False),
        ("[nothex]", False),
        ("::1", False),
        ("", False),
    ],
)
def test_local_host_names(host: str, local: bool) -> None:
    assert local_host(host) is local


def _refused(client: str | None, method: str, headers: dict[str, str], path: str = "") -> str:
    with pytest.raises(HttpError) as caught:
        check_request(client, method, headers, path)
    assert (caught.value.status, caught.value.code) == (403, "forbidden")
    return caught.value.message


def test_dns_rebinding_guard_for_loopback_callers() -> None:
    check_request("127.0.0.1", "GET", {"host": "127.0.0.1:8741"})
    check_request("127.0.0.1", "GET", {})
    assert "Host 'evil.example'" in _refused("127.0.0.1", "GET", {"host": "evil.example"})
    # A remote caller reached the server by whatever name routes to it.
    check_request("10.0.0.5", "GET", {"host": "majordomus.internal"})


def test_origin_guard_on_non_get() -> None:
    own = {"host": "127.0.0.1:8741", "origin": "http://127.0.0.1:8741"}
    check_request("127.0.0.1", "POST", own)
    check_request("127.0.0.1", "POST", {**own, "origin": "https://127.0.0.1:8741"})
    check_request("127.0.0.1", "GET", {**own, "origin": "http://elsewhere.example"})
    check_request("127.0.0.1", "HEAD", {**own, "origin": "http://elsewhere.example"})
    message = _refused("127.0.0.1", "POST", {**own, "origin": "http://elsewhere.example"})
    assert "Origin 'http://elsewhere.example'" in message
    assert "Origin" in _refused("127.0.0.1", "OPTIONS", {**own, "origin": "null"})
    assert "Origin" in _refused("127.0.0.1", "POST", {"origin": "http://127.0.0.1:8741"})
    remote = {"host": "majordomus.internal", "origin": "http://majordomus.internal"}
    assert "Origin" in _refused("10.0.0.5", "POST", remote)


def test_origin_guard_on_every_mcp_request() -> None:
    own = {"host": "127.0.0.1:8741", "origin": "http://127.0.0.1:8741"}
    check_request("127.0.0.1", "GET", own, MCP_PATH)
    for method in ("GET", "HEAD", "POST", "DELETE"):
        foreign = {**own, "origin": "http://elsewhere.example"}
        assert "Origin" in _refused("127.0.0.1", method, foreign, MCP_PATH)


TOKEN = "t" * 43
SHOWN = {"authorization": f"Bearer {TOKEN}"}


def test_the_door_wants_the_token_off_loopback_and_for_writes() -> None:
    door = Door(TOKEN)
    door.admit("127.0.0.1", {})
    door.admit("::ffff:127.0.0.1", {})
    door.admit("10.0.0.5", SHOWN)
    door.admit("10.0.0.5", {"authorization": f"bearer  {TOKEN} "})
    for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": f"Basic {TOKEN}"}):
        with pytest.raises(HttpError) as caught:
            door.admit("10.0.0.5", headers)
        assert (caught.value.status, caught.value.code) == (401, "unauthorized")
    assert door.may_write("127.0.0.1", SHOWN) and door.may_write("10.0.0.5", SHOWN)
    assert not door.may_write("127.0.0.1", {})
    with pytest.raises(HttpError) as caught:
        door.check_write("127.0.0.1", {}, "probe.x")
    assert caught.value.status == 401 and "--open-loopback" in caught.value.message
    opened = Door(TOKEN, open_loopback=True)
    assert opened.may_write("127.0.0.1", {}) and not opened.may_write("10.0.0.5", {})
    closed = Door()
    assert not closed.may_write("127.0.0.1", {"authorization": "Bearer "})
    with pytest.raises(HttpError):
        closed.admit("10.0.0.5", {"authorization": "Bearer "})
