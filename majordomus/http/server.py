"""Running the application under uvicorn: bind, announce the URL, serve until signalled.

The socket is bound and listening before the URL is printed, so a client that reads the line
can connect at once. SIGTERM and SIGINT stop gracefully (in-flight requests get up to 30 s)
and the process exits 0.
"""

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
from majordomus.http.deadlines import protocol_class, timeouts
from majordomus.http.guards import is_loopback
from majordomus.logger import log

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


def url_of(sock: socket.socket) -> str:
    address = sock.getsockname()
    host = f"[{address[0]}]" if sock.family == socket.AF_INET6 else address[0]
    return f"http://{host}:{address[1]}"


def route_uvicorn_logs() -> None:
    """uvicorn's own lines (an invalid request, a failure) go through our handler and level:
    one line each, redacted, control characters escaped, never a traceback."""
    theirs = logging.getLogger("uvicorn")
    theirs.handlers = list(log.handlers)
    theirs.setLevel(log.getEffectiveLevel())
    theirs.propagate = False


def serve(ctx: Workspace, host: str, port: int, *, fallback: bool = False) -> int:
    """Build the index and registry once, then serve until SIGTERM / SIGINT."""
    try:
        registry = ctx.registry
    except RegistryBuildFailed as failed:
        raise ContractUnmet(
            f"refusing to serve: {failed}; run `majordomus capabilities validate`"
        ) from None
    app = create_app(ctx)
    route_uvicorn_logs()
    sock = bind(host, port, fallback=fallback)
    bound = sock.getsockname()[0]
    if not is_loopback(bound):
        log.warning(
            "listening on %s, which is not loopback: every host that reaches it can read the "
            "layer (remote callers may run read capabilities only)",
            bound,
        )
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
        http=protocol_class(*timeouts()),
    )
    server = _Server(config)
    # A stop signal that arrives between the announcement and uvicorn's own handlers still
    # stops the server gracefully.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, server.handle_exit)
    url = url_of(sock)
    sys.stderr.write(
        f"majordomus[INFO] serving {ctx.index.root.name} at {url} "
        f"({sum(1 for c in registry if c.http)} routes; OpenAPI at {url}/openapi.json)\n"
    )
    sys.stderr.flush()
    server.run(sockets=[sock])
    return 0
