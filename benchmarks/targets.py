"""Benchmark targets derived from the registry's declarations and the repository they run on.

A target is one (capability, transport, case) or one system measurement; its key is
`<id>|<transport>|<case>` or `system.<transport>.<name>`. Nothing here measures anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from majordomus.capabilities.reference import benchmark_transports
from majordomus.capabilities.registry import EXECUTABLE_STABILITIES, Registry
from majordomus.capabilities.workspace import Workspace

#: System targets in a fixed order; the Swagger page keeps the older key.
SYSTEM_TARGETS = (
    ("mcp", "process_cold"),
    ("mcp", "initialize"),
    ("mcp", "ping"),
    ("mcp", "tools_list"),
    ("mcp", "resources_list"),
    ("mcp", "resources_read"),
    ("http", "index"),
    ("http", "openapi"),
    ("http", "docs"),
)
#: The benchmark repository: a generated layer of this many rules, and a small ledger.
SYNTHETIC_RULES = 100
SYNTHETIC_RECORDS = 64


@dataclass(frozen=True)
class Target:
    """One measurement; `modes` are the cache modes it is measured in."""

    key: str
    kind: str
    transport: str
    modes: tuple[str, ...]
    id: str | None = None
    module: str | None = None
    case: str | None = None
    input: dict[str, Any] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict)
    tool: str | None = None
    route: tuple[str, str] | None = None
    name: str | None = None

    def describe(self) -> dict[str, Any]:
        """The target as the benchmark report carries it."""
        if self.kind == "system":
            return {"kind": "system", "target": self.key}
        out: dict[str, Any] = {
            "kind": "capability",
            "id": self.id,
            "module": self.module,
            "transport": self.transport,
            "case": self.case,
            "input": self.input,
            "cache": self.cache,
        }
        if self.tool is not None:
            out["tool"] = self.tool
        if self.route is not None:
            out["route"] = list(self.route)
        return out


def derive_targets(ctx: Workspace, registry: Registry) -> list[Target]:
    """Every target in order: capabilities (id order), then the system targets."""
    targets: list[Target] = []
    for cap in registry:
        if cap.kind == "resource" or cap.stability not in EXECUTABLE_STABILITIES:
            continue
        if cap.waived is not None:
            continue
        modes = ("cold", "warm") if cap.cache.enabled else ("uncached",)
        cases = cap.benchmark_cases(ctx)
        for transport in benchmark_transports(cap):
            for case, value in cases:
                targets.append(
                    Target(
                        key=f"{cap.id}|{transport}|{case}",
                        kind="capability",
                        transport=transport,
                        modes=modes,
                        id=cap.id,
                        module=cap.module,
                        case=case,
                        input=value,
                        cache=cap.cache.to_json(),
                        tool=cap.tool if transport == "mcp" else None,
                        route=cap.http if transport == "http" else None,
                    )
                )
    for transport, name in SYSTEM_TARGETS:
        targets.append(
            Target(
                key=f"system.{transport}.{name}",
                kind="system",
                transport=transport,
                modes=("not_applicable",),
                name=name,
            )
        )
    return targets


def select(targets: list[Target], prefix: str | None, transport: str) -> list[Target]:
    """The targets a command line asks for: a key prefix or id, and a transport."""
    chosen = []
    for target in targets:
        if prefix and not (target.key.startswith(prefix) or target.id == prefix):
            continue
        if transport == "system" and target.kind != "system":
            continue
        if transport not in ("all", "system") and (
            target.kind == "system" or target.transport != transport
        ):
            continue
        chosen.append(target)
    return chosen


def bench_environment() -> dict[str, str]:
    """The environment every measured process gets: quiet logs, no CI-driven mode switch."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJORDOMUS_")}
    env.pop("CI", None)
    env["MAJORDOMUS_LOG"] = "warn"
    return env


@contextmanager
def repository(given: Path | None) -> Iterator[Path]:
    """The repository to measure: `given`, or a generated one removed afterwards."""
    if given is not None:
        yield given.resolve()
        return
    from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger

    with SyntheticRepository.new(Shape.scaling(SYNTHETIC_RULES)) as repo:
        repo.commit("benchmark repository")
        synthetic_ledger(repo.root, SYNTHETIC_RECORDS)
        yield repo.root
