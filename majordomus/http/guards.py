"""The request guards of docs/http.md, as functions over (client address, headers)."""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Mapping

from majordomus.http.errors import HttpError

#: The MCP endpoint (`majordomus.http.mcp`).
MCP_PATH = "/mcp"

_PORT = r"(?::[0-9]{1,5})?"
_IPV4 = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}" + _PORT + r"\Z")
_IPV6 = re.compile(r"\[([0-9A-Fa-f:.]+(?:%[A-Za-z0-9._~-]+)?)\]" + _PORT + r"\Z")
_LOCALHOST = re.compile(r"(?:[A-Za-z0-9-]+\.)*localhost\.?" + _PORT + r"\Z", re.IGNORECASE)


@functools.lru_cache(maxsize=1024)
def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and their IPv4-mapped forms; anything unparseable is remote.
    Kept per address: every request asks it of its peer, and peers are few."""
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def local_host(host: str) -> bool:
    """An IPv4 literal, a bracketed IPv6 literal, `localhost` or `*.localhost`, port optional."""
    bracketed = _IPV6.match(host)
    try:
        if bracketed:
            ipaddress.IPv6Address(bracketed.group(1).split("%", 1)[0])
        elif _IPV4.match(host):
            ipaddress.IPv4Address(host.partition(":")[0])
        else:
            return bool(_LOCALHOST.match(host))
    except ValueError:
        return False
    return True


def check_request(
    client: str | None, method: str, headers: Mapping[str, str], path: str = ""
) -> None:
    """Guards 1 and 2 (`headers` lower-case), before routing; a refusal is a 403 `forbidden`."""
    host = headers.get("host")
    if is_loopback(client) and host is not None and not local_host(host):
        raise HttpError(
            403,
            "forbidden",
            f"Host '{host}' is not an IP literal or localhost; a loopback server answers only "
            "to its own names (DNS rebinding guard)",
        )
    origin = headers.get("origin")
    if origin is None or (method in ("GET", "HEAD") and path != MCP_PATH):
        return
    if host is not None and local_host(host) and origin in (f"http://{host}", f"https://{host}"):
        return
    raise HttpError(
        403,
        "forbidden",
        f"Origin '{origin}' is not this server's own origin; cross-origin {method} is refused",
    )
