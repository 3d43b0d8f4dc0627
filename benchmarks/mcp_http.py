"""MCP over Streamable HTTP against stdio, and `serve` under a burst of MCP POSTs (issue 35).

    python benchmarks/mcp_http.py [--work DIR] [--calls 300] [--burst 500]

1. The round trip: one warm `majordomus mcp` (pipes) and one warm `majordomus serve` (one
   keep-alive connection) in the same run over the same repository; the same `tools/call`
   is asked of each in turn, alternating, so both see the same load, for three tools from
   the cheapest up. Both clients are equally thin, so the ratio is the transport's and the
   server's: a line written to the pipe and one read back, against a request written to the
   socket and the answer read by its `Content-Length`. Printed per tool: the median wall time
   of each, the server's CPU (user + system) per call, and the ratios HTTP / stdio (target
   <= 2x); then the HTTP round trip through `http.client`, whose own CPU a client library
   adds on top.
2. The burst: `--burst` MCP POSTs at once, each on its own connection, against the warm
   server. Printed: how many were answered 200 and 503 (the in-flight bound is 64), that
   the server still answers, and its RSS before, at its peak and after (target: back
   within 10% of before).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.processes import MAJORDOMUS, bytecode_compiled
from benchmarks.stats import median

CALLS = (
    {"name": "majordomus_get", "arguments": {"uri": "majordomus://prompt/continue"}},
    {"name": "majordomus_search", "arguments": {"query": "handover"}},
    {"name": "majordomus_devcontext", "arguments": {"intent": "hand over a task"}},
)
CALL = CALLS[0]
TICK = os.sysconf("SC_CLK_TCK")
URL = re.compile(r"http://127\.0\.0\.1:([0-9]+)")
LENGTH = re.compile(rb"content-length: ([0-9]+)", re.IGNORECASE)
GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b"}


def message(id_: int, method: str, params: dict[str, Any] | None = None) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}})


def repository(work: Path) -> Path:
    root = work / "repo"
    root.mkdir(parents=True)
    env = {**GIT, "GIT_COMMITTER_EMAIL": "b@b", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([MAJORDOMUS, "init", "-q"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "layer"], cwd=root, check=True, env=env)
    return root


class Stdio:
    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [MAJORDOMUS, "mcp", "-q"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.ask(message(0, "initialize", {"protocolVersion": "2025-06-18"}))

    def ask(self, line: str | bytes) -> bytes:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


class Http:
    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [MAJORDOMUS, "serve", "--port", "0"], cwd=root, stderr=subprocess.PIPE
        )
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            found = URL.search(raw.decode())
            if found:
                self.port = int(found.group(1))
                break
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        self.started = self.rss_kib()
        self.token = (root / ".ai/local/serve-token").read_text().strip()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        self.socket = socket.create_connection(("127.0.0.1", self.port), timeout=120)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def ask(self, body: str) -> bytes:
        """One POST on the thin client's keep-alive socket; the answer's body."""
        data = body.encode()
        self.socket.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            b"MCP-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s"
            % (self.port, len(data), data)
        )
        received = b""
        while b"\r\n\r\n" not in received:
            received += self.socket.recv(65536)
        head, _, rest = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 "), head
        length = int(LENGTH.search(head).group(1))  # type: ignore[union-attr]
        while len(rest) < length:
            rest += self.socket.recv(65536)
        return rest

    def post(self, body: str, connection: http.client.HTTPConnection | None = None) -> int:
        sent = connection or self.connection
        headers = {"Content-Type": "application/json", "MCP-Protocol-Version": "2025-06-18"}
        sent.request("POST", "/mcp", body=body, headers=headers)
        answer = sent.getresponse()
        answer.read()
        return answer.status

    def rss_kib(self, field: str = "VmRSS") -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(rf"{field}:\s+([0-9]+)", status).group(1))  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


def cpu(pid: int) -> float:
    """The process's user + system seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def round_trips(stdio: Stdio, served: Http, call: dict[str, Any], calls: int) -> None:
    line = message(1, "tools/call", call)
    for _ in range(20):  # warm both: lists, caches, the connections
        stdio.ask(line)
        served.ask(line)
        served.post(line)
    sides = {"stdio": stdio.ask, "http": served.ask, "http.client": served.post}
    walls: dict[str, list[float]] = {name: [] for name in sides}
    spent = dict.fromkeys(sides, 0.0)
    pids = {"stdio": stdio.process.pid, "http": served.process.pid}
    pids["http.client"] = served.process.pid
    for _ in range(calls):
        for name, ask in sides.items():
            before = cpu(pids[name])
            start = time.perf_counter()
            ask(line)
            walls[name].append(time.perf_counter() - start)
            spent[name] += cpu(pids[name]) - before
    print(f"tools/call {call['name']}, {calls} round trips each, alternating")
    for name, wall in walls.items():
        print(
            f"  {name:<11} median {median(wall) * 1000:.2f} ms (p90 {p90(wall) * 1000:.2f}), "
            f"server CPU {spent[name] / calls * 1000:.2f} ms a call"
        )
    print(
        f"  http / stdio: wall {median(walls['http']) / median(walls['stdio']):.2f}x, "
        f"CPU {spent['http'] / max(spent['stdio'], 1 / TICK):.2f}x (target <= 2x); "
        f"through http.client {median(walls['http.client']) / median(walls['stdio']):.2f}x"
    )


def burst(served: Http, count: int) -> dict[str, int]:
    line = message(1, "tools/call", CALL)
    statuses: list[int] = []
    ready = threading.Barrier(count)

    def one() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=300)
        ready.wait()
        try:
            statuses.append(served.post(line, connection))
        except OSError:
            statuses.append(0)
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {str(s): statuses.count(s) for s in sorted(set(statuses))}


def p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--burst", type=int, default=500)
    args = parser.parse_args()
    bytecode_compiled()
    work = args.work or Path(tempfile.mkdtemp(prefix="mj-mcp-http-"))
    root = repository(work)
    stdio, served = Stdio(root), Http(root)
    try:
        print(f"load average {Path('/proc/loadavg').read_text().split()[0]}")
        for call in CALLS:
            round_trips(stdio, served, call, args.calls)
        before = served.rss_kib()
        answered = burst(served, args.burst)
        after_burst = served.rss_kib()
        time.sleep(11)  # worker threads idle this long end at the next request
        fresh = http.client.HTTPConnection("127.0.0.1", served.port)
        still = served.post(message(2, "ping"), fresh)
        settled = served.rss_kib()
        print(f"burst of {args.burst} MCP POSTs at once: statuses {answered}; ping after: {still}")
        print(
            f"  RSS at start {served.started / 1024:.1f} MiB, warm {before / 1024:.1f}, "
            f"peak {served.rss_kib('VmHWM') / 1024:.1f}, right after {after_burst / 1024:.1f}, "
            f"settled {settled / 1024:.1f} ({(settled - before) / before:+.1%} of warm; "
            "target within 10%)"
        )
    finally:
        stdio.stop()
        served.stop()


if __name__ == "__main__":
    main()
