"""What the bounded JSON reader costs over `json.loads` (docs/RELIABILITY.md).

    python benchmarks/parse_limits.py

Three inputs: a typical MCP `tools/call` line (on the path of every MCP message), a 1 MiB
record-like body (the largest HTTP body), and 1 MiB of arrays nested exactly to the limit
(the most the depth measure ever has to do). Each figure is the median of alternating runs.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from majordomus.bounded_json import loads
from majordomus.limits import MAX_JSON_DEPTH

MIB = 1024 * 1024


def mcp_line() -> bytes:
    arguments = {"query": "scope rules", "kind": "rule", "limit": 20}
    message = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "majordomus_search", "arguments": arguments},
    }
    return json.dumps(message).encode()


def record_body() -> bytes:
    rng = random.Random(20261201)
    items: list[Any] = []
    body = b""
    while len(body) < MIB:
        items.extend(
            {
                "id": f"item-{len(items) + n}",
                "note": "word " * rng.randint(1, 30),
                "tags": ["a", "b"],
                "score": rng.random(),
                "count": rng.randint(0, 10**9),
                "nested": {"x": [1, 2, {"y": "z"}]},
            }
            for n in range(500)
        )
        body = json.dumps({"record": {"kind": "assessment", "items": items}}).encode()
    return body


def deep_body() -> bytes:
    unit = b"[" * (MAX_JSON_DEPTH - 1) + b"]" * (MAX_JSON_DEPTH - 1)
    return b"[" + b",".join([unit] * (MIB // (len(unit) + 1))) + b"]"


def median_pair(
    a: Callable[[], Any], b: Callable[[], Any], rounds: int, n: int
) -> tuple[float, float]:
    """Median seconds per call of `a` and of `b`, measured alternately."""
    times_a, times_b = [], []
    for _ in range(rounds):
        for fn, out in ((a, times_a), (b, times_b)):
            start = time.perf_counter()
            for _ in range(n):
                fn()
            out.append((time.perf_counter() - start) / n)
    return statistics.median(times_a), statistics.median(times_b)


def main() -> None:
    print(f"CPython {sys.version.split()[0]}")
    for name, data, rounds, n, unit, scale in (
        ("MCP tools/call line", mcp_line(), 9, 20_000, "µs", 1e6),
        ("1 MiB record body", record_body(), 9, 3, "ms", 1e3),
        (f"1 MiB nested {MAX_JSON_DEPTH} deep", deep_body(), 5, 1, "ms", 1e3),
    ):
        plain, bounded = median_pair(
            lambda d=data: json.loads(d), lambda d=data: loads(d), rounds, n
        )
        print(
            f"{name} ({len(data)} bytes): json.loads {plain * scale:.2f} {unit}, "
            f"bounded {bounded * scale:.2f} {unit} (+{(bounded - plain) * scale:.2f} {unit})"
        )


if __name__ == "__main__":
    main()
