"""The start of a stdio session on two cores: a forked helper reads the layer and answers the
handshake while the server imports what its first call needs.

A session's first answer costs two things that do not depend on each other: reading the
layer (the index, which the handshake's instructions need) and importing pydantic and the
tools' wire models (which every call needs). One process does them one after the other; here
they run at once. At spawn the server forks a helper that builds the index, reads the first
input line and, when it is an `initialize` request, answers it exactly as the server would
(the same `Server` over the same kind of workspace), then sends the server what it did and the
build it made (pickled). Meanwhile the server runs its preparation steps (`prep_steps`); then
it adopts the helper's build, or builds the index itself when the helper's is not there by
the end of its preparation (a large layer, whose pickle would cost more than a build running
beside the helper's), and serves the input from where the helper left it.

Nothing else changes: the answers are the server's own code, the index the server keeps is a
build of the layer with its freshness baseline (checked before every line as usual), and any
failure in the helper (a strict refusal, an unusable git, a first line that is not a plain
`initialize`) leaves the work to the server, which then behaves as without a helper. Only the
helper writes stdout until it has reported, and the server reads stdin only after that.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import logging
import os
import stat
import struct
import threading
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from majordomus.mcp.framing import clean_value, write

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

log = logging.getLogger("majordomus")

#: What the helper reports first: it read nothing, answered the first line, or read it and
#: left it to the server.
NOTHING, ANSWERED, LEFT = b"N", b"A", b"L"
_LENGTH = struct.Struct(">Q")
_REPORTS = {
    NOTHING: "read nothing",
    ANSWERED: "answered the handshake",
    LEFT: "left the first line to the server",
}
#: Bytes of the first line the helper reads at most (an `initialize` is a few hundred).
MAX_HANDSHAKE = 1 << 16


def usable(ctx: Workspace, inp: IO[bytes], out: IO[bytes]) -> bool:
    """Whether this session may start with a helper: a process that can fork, whose
    workspace has not read the layer yet, serving a client process over a pipe or a socket
    (not a file, a terminal or a test's buffers: there nobody waits on the first answer)."""
    if not hasattr(os, "fork") or "index" in ctx.__dict__:
        return False
    try:
        if inp.fileno() != 0 or out.fileno() < 0:
            return False
        mode = os.fstat(0).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Helper:
    """The server's side: what the forked helper reported, read by a thread as it arrives."""

    def __init__(self, pid: int, fd: int) -> None:
        self._pid = pid
        self._fd = fd
        #: Set once the helper said what it did with the input (or ended without saying).
        self.reported = threading.Event()
        #: Set once its build arrived (or it said it sends none).
        self.delivered = threading.Event()
        self.kind = NOTHING
        self.line = b""
        #: False once the server built its own index: the helper's is then read and dropped.
        self.wanted = True
        self._build = b""
        threading.Thread(target=self._read, name="majordomus-helper", daemon=True).start()

    def _read(self) -> None:
        with os.fdopen(self._fd, "rb") as pipe:
            try:
                head = pipe.read(1 + _LENGTH.size)
                if len(head) == 1 + _LENGTH.size:
                    line = pipe.read(_LENGTH.unpack(head[1:])[0])
                    self.kind, self.line = head[:1], line
                self.reported.set()
                size = pipe.read(_LENGTH.size)
                left = _LENGTH.unpack(size)[0] if len(size) == _LENGTH.size else 0
                parts = []
                while left > 0:
                    part = pipe.read(min(left, 1 << 20))
                    if not part:
                        break
                    left -= len(part)
                    if self.wanted:
                        parts.append(part)
                if self.wanted and left == 0:
                    self._build = b"".join(parts)
            finally:
                self.reported.set()
                self.delivered.set()
                _reap(self._pid)

    def build(self) -> tuple[Any, Any] | None:
        """The helper's (baseline, build), or None when it sent none or it does not load."""
        if not self._build:
            return None
        import pickle

        try:
            pair: tuple[Any, Any] = pickle.loads(self._build)
        except Exception as exc:
            log.debug("the helper's build did not load: %s: %s", type(exc).__name__, exc)
            return None
        finally:
            self._build = b""
        return pair

    def first_lines(self, inp: IO[bytes]) -> list[bytes]:
        """What the server must handle before reading on: the line the helper read and left
        (finished from `inp` when the helper stopped inside it), if any."""
        self.reported.wait()
        log.debug("helper: %s", _REPORTS.get(self.kind, "no report"))
        if self.kind != LEFT or not self.line:
            return []
        line = self.line
        if not line.endswith(b"\n"):
            line += inp.readline()
        return [line]

    @property
    def answered(self) -> bool:
        return self.kind == ANSWERED


def _reap(pid: int) -> None:
    """Wait for the helper's exit (a process that ignores SIGCHLD has no child to wait for)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def start(ctx: Workspace, read_only: bool, out: IO[bytes]) -> Helper:
    """Fork the helper; only the server returns."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _helper(ctx, read_only, out, write_end)
    os.close(write_end)
    return Helper(pid, read_end)


def _send(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _helper(ctx: Workspace, read_only: bool, out: IO[bytes], fd: int) -> None:
    """The helper process: build, answer a plain `initialize`, report, send the build, exit
    (without the interpreter's teardown, which belongs to the server)."""
    try:
        _help(ctx, read_only, out, fd)
    finally:
        os._exit(0)  # whatever happened here, the server carries on


def _help(ctx: Workspace, read_only: bool, out: IO[bytes], fd: int) -> None:
    from majordomus.mcp.server import Server

    try:
        built = ctx.read_layer()
        server = Server(ctx, read_only=read_only)
    except Exception:
        _send(fd, NOTHING + _LENGTH.pack(0))
        return
    line = _read_line()
    kind = LEFT
    if _is_initialize(line):
        lines = server.answer_lines(line)
        kind = ANSWERED
        for answer in lines:
            write(out, answer)
    _send(fd, kind + _LENGTH.pack(len(line)) + line)
    import pickle

    try:
        data = pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        data = b""
    _send(fd, _LENGTH.pack(len(data)) + data)


def _read_line() -> bytes:
    """The first input line, read a byte at a time so nothing after it is taken from the
    server (a client may send its next lines before the answer); a line longer than any
    handshake is left unfinished, for the server to read on."""
    got = bytearray()
    while len(got) < MAX_HANDSHAKE:
        byte = os.read(0, 1)
        if not byte:
            break
        got += byte
        if byte == b"\n":
            break
    return bytes(got)


def _is_initialize(line: bytes) -> bool:
    """A single `initialize` request: the one message whose answer changes no state."""
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return (
        isinstance(message, dict)
        and message.get("method") == "initialize"
        and message.get("id") is not None
    )


# -- the server's preparation ------------------------------------------------------------------


def _models_built(cap: Any) -> None:
    """A capability's request and answer models made ready (their validators and serialisers
    are built on first use otherwise, inside the call)."""
    cap.input.model_rebuild()
    cap.output.model_rebuild()


def _tool_namespaces() -> list[Callable[[], Any]]:
    """The namespaces that declare a tool, in the tools' id order (routes only)."""
    from majordomus.capabilities.builtin import NAMESPACES, builtin_routes

    modules = [r.module for r in builtin_routes() if r.tool is not None]
    return list(dict.fromkeys(NAMESPACES[m] for m in modules if m in NAMESPACES))


def prep_steps(read_only: bool) -> Iterator[Callable[[], object]]:
    """What any first call needs and the layer does not: pydantic and the executor, the
    redaction of an answer, then each tool's namespace and models in id order."""
    yield functools.partial(importlib.import_module, "majordomus.capabilities.executor")
    yield functools.partial(clean_value, {"prepared": True})
    for namespace in _tool_namespaces():
        yield namespace
        for module in namespace():
            for cap in module.capabilities:
                if cap.tool is not None and not (read_only and cap.kind == "command"):
                    yield functools.partial(_models_built, cap)


def prepare(helper: Helper, read_only: bool) -> None:
    """Run the preparation steps until the helper's build arrives or the steps run out; a
    failing step ends them (the call that needs the same work reports the failure)."""
    for step in prep_steps(read_only):
        if helper.delivered.is_set():
            return
        try:
            step()
        except Exception as exc:
            log.debug("preparation stopped: %s: %s", type(exc).__name__, exc)
            return
    if helper.reported.is_set():
        helper.delivered.wait()


def adopt(ctx: Workspace, helper: Helper) -> None:
    """Serve the helper's build when it is there; else the server builds its own."""
    pair = helper.build() if helper.delivered.is_set() else None
    if pair is None:
        helper.wanted = False
        log.debug("helper: the server reads the layer itself")
    else:
        ctx.adopt(*pair)
        log.debug("helper: the server serves the helper's index")
