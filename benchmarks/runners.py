"""The runners: direct (the executor in process), MCP (a spawned
`majordomus mcp`), HTTP (a spawned `majordomus serve --port 0`) and the system targets.

Durations come from `time.perf_counter_ns()` around exactly one call or round trip. Over a
process boundary the cache cannot be cleared, so there `cold` measures the warm process as
`warm` does (the spec says so for MCP; the spawned HTTP server is in the same position).
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from benchmarks.stats import summarise
from benchmarks.targets import Target
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import CapabilityError, Internal
from majordomus.version import __version__
from majordomus.wire import dumps_compact

MAJORDOMUS = shutil.which("majordomus", path=str(Path(sys.executable).parent)) or "majordomus"
PROTOCOL = "2025-06-18"
CLIENT_INFO = {"name": "majordomus-bench", "version": __version__}
_URL = re.compile(r" at (http://[0-9.:]+) ")


@dataclass(frozen=True)
class Profile:
    """Profiles: warmup calls, timed samples, fresh processes for a cold spawn."""

    name: str
    warmup: int
    samples: int
    cold_spawns: int


PROFILES = {
    "quick": Profile("quick", 3, 20, 2),
    "full": Profile("full", 10, 200, 10),
    "ci": Profile("ci", 5, 50, 3),
}


class BenchAbort(Exception):
    """A failure that ends the run: an internal error, a JSON-RPC error, an HTTP 5xx."""


def _timed(call: Callable[[], Any], count: int) -> list[int]:
    durations = []
    for _ in range(count):
        start = time.perf_counter_ns()
        call()
        durations.append(time.perf_counter_ns() - start)
    return durations


def _result(target: Target, mode: str, durations: list[int], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "key": target.key,
        "kind": target.kind,
        "cache_mode": mode,
        "stats": summarise(durations),
    }
    out.update(extra)
    return out


# -- direct --------------------------------------------------------------------------------------


class DirectRunner:
    """Calls through the executor of one context; cold clears the cache before every call."""

    def __init__(self, ctx: Workspace) -> None:
        self.ctx = ctx
        self.executor = ctx.executor

    def _call(self, target: Target) -> Callable[[], Any]:
        cap = self.executor.capability(target.id or "")

        def call() -> Any:
            try:
                return self.executor.answer(cap, target.input)
            except Internal as exc:
                raise BenchAbort(f"{target.key}: {exc.display}") from exc
            except CapabilityError as exc:
                return exc  # a refusal or not-found is a legitimate sample

        return call

    def measure(self, target: Target, profile: Profile) -> list[dict[str, Any]]:
        call = self._call(target)
        results = []
        for mode in target.modes:
            self.executor.cache.clear()
            for _ in range(profile.warmup):
                if mode == "cold":
                    self.executor.cache.clear()
                call()
            before = self.executor.handler_invocations
            durations = []
            for _ in range(profile.samples):
                if mode == "cold":
                    self.executor.cache.clear()
                start = time.perf_counter_ns()
                call()
                durations.append(time.perf_counter_ns() - start)
            invoked = self.executor.handler_invocations - before
            results.append(_result(target, mode, durations, handler_invocations=invoked))
        return results


# -- MCP -----------------------------------------------------------------------------------------


class McpChild:
    """One `majordomus mcp` child spoken to in newline-delimited JSON-RPC."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [MAJORDOMUS, "mcp"],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in: IO[bytes] = self.process.stdin
        self._out: IO[bytes] = self.process.stdout
        self._next = 0

    def frame(self, method: str, params: dict[str, Any] | None = None) -> bytes:
        self._next += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            message["params"] = params
        return (dumps_compact(message) + "\n").encode()

    def round_trip(self, frame: bytes) -> bytes:
        self._in.write(frame)
        self._in.flush()
        line = self._out.readline()
        if not line:
            raise BenchAbort("majordomus mcp closed its output")
        return line

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = json.loads(self.round_trip(self.frame(method, params)))
        if "error" in answer:
            raise BenchAbort(f"{method}: JSON-RPC error {answer['error']}")
        return answer

    def initialize(self) -> dict[str, Any]:
        answer = self.request(
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": CLIENT_INFO},
        )
        self._in.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self._in.flush()
        return answer

    def close(self) -> None:
        self._in.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._out.close()


def _checked(key: str, line: bytes) -> None:
    answer = json.loads(line)
    if "error" in answer:
        raise BenchAbort(f"{key}: JSON-RPC error {answer['error']}")


class McpRunner:
    """Tool calls and protocol methods over one warm child; process_cold spawns per sample."""

    def __init__(self, root: Path, env: dict[str, str], first_resource: str) -> None:
        self.root = root
        self.env = env
        self.first_resource = first_resource
        self.child = McpChild(root, env)
        self.child.initialize()

    def _measure_frames(
        self, target: Target, mode: str, make: Callable[[], bytes], profile: Profile
    ) -> dict[str, Any]:
        def call() -> None:
            _checked(target.key, self.child.round_trip(make()))

        for _ in range(profile.warmup):
            call()
        durations = []
        for _ in range(profile.samples):
            frame = make()
            start = time.perf_counter_ns()
            line = self.child.round_trip(frame)
            durations.append(time.perf_counter_ns() - start)
            _checked(target.key, line)
        return _result(target, mode, durations)

    def _system_frame(self, name: str) -> Callable[[], bytes]:
        params: dict[str, Any] | None = None
        method = {
            "initialize": "initialize",
            "ping": "ping",
            "tools_list": "tools/list",
            "resources_list": "resources/list",
            "resources_read": "resources/read",
        }[name]
        if name == "initialize":
            params = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": CLIENT_INFO}
        elif name == "resources_read":
            params = {"uri": self.first_resource}
        return lambda: self.child.frame(method, params)

    def process_cold(self, target: Target, profile: Profile) -> dict[str, Any]:
        """Spawn, initialize and the first tools/list, one fresh child per sample."""
        durations = []
        for _ in range(profile.cold_spawns):
            start = time.perf_counter_ns()
            child = McpChild(self.root, self.env)
            child.initialize()
            child.request("tools/list")
            durations.append(time.perf_counter_ns() - start)
            child.close()
        return _result(target, "not_applicable", durations)

    def measure(self, target: Target, profile: Profile) -> list[dict[str, Any]]:
        if target.kind == "system":
            if target.name == "process_cold":
                return [self.process_cold(target, profile)]
            return [
                self._measure_frames(
                    target, "not_applicable", self._system_frame(target.name or ""), profile
                )
            ]
        params = {"name": target.tool, "arguments": target.input}
        return [
            self._measure_frames(
                target, mode, lambda: self.child.frame("tools/call", params), profile
            )
            for mode in target.modes
        ]

    def close(self) -> None:
        self.child.close()


# -- HTTP ----------------------------------------------------------------------------------------


def query_string(value: dict[str, Any]) -> str:
    """The GET binding of docs/http.md: strings raw, everything else compact JSON."""
    pairs = [
        (key, item if isinstance(item, str) else dumps_compact(item))
        for key, item in value.items()
        if item is not None
    ]
    return urllib.parse.urlencode(pairs)


class HttpRunner:
    """Requests over one keep-alive connection to a spawned `majordomus serve --port 0`."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [MAJORDOMUS, "serve", "--port", "0"],
            cwd=root,
            env={**env, "MAJORDOMUS_LOG": "info"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert self.process.stderr is not None
        url = None
        for raw in self.process.stderr:
            found = _URL.search(raw.decode("utf-8", "replace"))
            if found:
                url = found.group(1)
                break
        if url is None:
            raise BenchAbort("majordomus serve did not announce its URL")
        threading.Thread(target=self._drain, daemon=True).start()
        parsed = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for _ in self.process.stderr:
            pass

    def _request(self, key: str, method: str, path: str, body: bytes | None, accept: str) -> None:
        headers = {"Accept": accept}
        if body is not None:
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        response.read()
        if response.status >= 500:
            raise BenchAbort(f"{key}: HTTP {response.status}")

    def _call(self, target: Target) -> Callable[[], None]:
        if target.kind == "system":
            path, accept = {
                "index": ("/", "application/json"),
                "openapi": ("/openapi.json", "application/json"),
                "docs": ("/swagger", "text/html"),
            }[target.name or ""]
            return lambda: self._request(target.key, "GET", path, None, accept)
        assert target.route is not None
        method, path = target.route
        if method == "GET":
            query = query_string(target.input)
            full = f"{path}?{query}" if query else path
            return lambda: self._request(target.key, "GET", full, None, "application/json")
        body = dumps_compact(target.input).encode()
        return lambda: self._request(target.key, method, path, body, "application/json")

    def measure(self, target: Target, profile: Profile) -> list[dict[str, Any]]:
        call = self._call(target)
        results = []
        for mode in target.modes:
            _timed(call, profile.warmup)
            results.append(_result(target, mode, _timed(call, profile.samples)))
        return results

    def close(self) -> None:
        self.connection.close()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
