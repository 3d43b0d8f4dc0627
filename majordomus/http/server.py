"""Running the application under uvicorn: bind, announce the URL, serve until signalled."""

from __future__ import annotations

import errno
import logging
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any

import uvicorn

from majordomus.capabilities.registry import RegistryBuildFailed
from majordomus.errors import ContractUnmet, ProtocolFailure
from majordomus.http.app import create_app
from majordomus.http.deadlines import protocol_class
from majordomus.http.door import TOKEN_FILE, Door, TokenUnusable, server_token
from majordomus.http.guards import MCP_PATH, is_loopback

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace


GRACE_SECONDS = 30


class _Server(uvicorn.Server):
    """uvicorn's server without re-raising the stop signal: a graceful stop exits 0."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        if self.should_exit:
            self.force_exit = True
        self.should_exit = True


def bind(host: str, port: int, *, fallback: bool = False) -> socket.socket:
    """A listening TCP socket on (host, port); with `fallback`, a free port when it is taken."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise ProtocolFailure(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        if fallback and exc.errno == errno.EADDRINUSE and port != 0:
            sock.close()
            log.warning("port %s is taken; binding a free one (--fallback)", port)
            return bind(host, 0)
        sock.close()
        raise ProtocolFailure(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)
    return sock


def route_uvicorn_logs() -> None:
    """uvicorn's own lines (an invalid request, a failure) go through our handler and level:
    one line each, redacted, control characters escaped, never a traceback."""
    ours, theirs = logging.getLogger("majordomus"), logging.getLogger("uvicorn")
    theirs.handlers = list(ours.handlers)
    theirs.setLevel(ours.getEffectiveLevel())
    theirs.propagate = False


def serve(
    ctx: Workspace,
    host: str,
    port: int,
    *,
    fallback: bool = False,
    mcp_only: bool = False,
    open_loopback: bool = False,
) -> int:
    """Build the index and registry once, then serve until SIGTERM / SIGINT."""
    try:
        registry = ctx.registry
    except RegistryBuildFailed as failed:
        raise ContractUnmet(
            f"refusing to serve: {failed}; run `majordomus capabilities validate`"
        ) from None
    ctx.index  # noqa: B018 - a strict refusal comes before anything is bound or written
    sock = bind(host, port, fallback=fallback)
    bound = sock.getsockname()[0]
    loopback = is_loopback(bound)
    door = Door(None if loopback and open_loopback else _token(ctx, bound), open_loopback)
    if not loopback:
        log.warning(
            "listening on %s, which is not loopback: a caller from another host must send the "
            "token on every request",
            bound,
        )
    app = create_app(ctx, door=door, mcp_only=mcp_only)
    route_uvicorn_logs()
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=False,
        lifespan="off",
        server_header=False,
        # The guards judge the real peer: an `X-Forwarded-For` must neither make a
        # loopback caller look remote (skipping the DNS-rebinding guard) nor the reverse.
        proxy_headers=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
        # A client slow to send its request head or body, or to take its answer, is dropped
        # (deadlines.py), so slow clients hold neither the in-flight slots nor memory.
        http=protocol_class(),
    )
    server = _Server(config)
    # A stop signal that arrives between the announcement and uvicorn's own handlers still
    # stops the server gracefully.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, server.handle_exit)
    shown = f"[{bound}]" if sock.family == socket.AF_INET6 else bound
    url = f"http://{shown}:{sock.getsockname()[1]}"
    served = (
        f"MCP at {url}{MCP_PATH} only"
        if mcp_only
        else f"{sum(1 for c in registry if c.http)} routes; OpenAPI at {url}/openapi.json; "
        f"MCP at {url}{MCP_PATH}"
    )
    sys.stderr.write(f"majordomus[INFO] serving {ctx.index.root.name} at {url} ({served})\n")
    if door.token is not None:
        sys.stderr.write(
            f"majordomus[INFO] token (for writes and callers off loopback, as "
            f"'Authorization: Bearer <token>'; kept in {TOKEN_FILE}): {door.token}\n"
        )
    sys.stderr.flush()
    server.run(sockets=[sock])
    return 0


def _token(ctx: Workspace, bound: str) -> str | None:
    """The server's token; off loopback there is no serving without it, on loopback the
    server serves and refuses writes until one can be made."""
    try:
        return server_token(ctx.root)
    except TokenUnusable as exc:
        if not is_loopback(bound):
            raise TokenUnusable(
                f"refusing to listen on {bound} without a token: {exc.message}"
            ) from None
        log.warning("%s; every write is refused (or start with --open-loopback)", exc.message)
        return None
