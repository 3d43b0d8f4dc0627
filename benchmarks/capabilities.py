"""The capability benchmark (issue 8): every capability whose benchmark policy is required,
on each declared transport, cold and warm, against the accepted baseline.

    python benchmarks/run.py capabilities [ID-or-key-prefix]
        [--transport all|direct|mcp|http|system] [--profile quick|full|ci]
        [--format text|json] [--check] [--no-write] [--repo PATH]
    python benchmarks/run.py capabilities baseline update [--profile full] [--allow-dirty]
        [--repo PATH]

Without `--repo` the measured repository is generated (`majordomus.synthetic`), so runs on
one host compare. A run writes `benchmarks/results/<finished_at>-<profile>.json` (unless
`--no-write`); `baseline update` writes `benchmarks/baseline.<platform>.json`; both
atomically. `--check` compares with the baseline and exits 10 on a regression.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.processes import publish
from majordomus import clock
from majordomus.version import __version__

if TYPE_CHECKING:
    from benchmarks.runners import Profile
    from benchmarks.targets import Target

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent
RESULTS = HERE / "results"
POLICY = HERE / "policy.yaml"
SCHEMA = "majordomus/benchmark-result/v1"
EXIT_REGRESSION = 10
EXIT_ABORT = 13


# -- provenance ----------------------------------------------------------------------------------


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(SOURCE), *args], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout


def _cpu_brand() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown-cpu"


def build_profile() -> str:
    """Python has no debug/release build of ours: the interpreter and its minor version."""
    return f"{platform.python_implementation().lower()}{sys.version_info[0]}.{sys.version_info[1]}"


def platform_key() -> str:
    return f"{platform.system().lower()}-{platform.machine().lower()}-{build_profile()}"


def provenance(fingerprint: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    head = _git("rev-parse", "HEAD")
    if head:
        out["commit"] = head.strip()
    out["dirty"] = bool(_git("status", "--porcelain", "--untracked-files=no"))
    out["build_profile"] = build_profile()
    out["os"] = platform.system().lower()
    out["arch"] = platform.machine().lower()
    out["version"] = __version__
    out["registry_fingerprint"] = fingerprint
    out["host"] = f"{_cpu_brand()}/{os.cpu_count() or 1}"
    return out


# -- the run -------------------------------------------------------------------------------------


def measure(root: Path, targets: list[Target], profile: Profile) -> list[dict[str, Any]]:
    """Every selected target, direct first, then over a spawned MCP child, then HTTP."""
    from benchmarks.runners import DirectRunner, HttpRunner, McpRunner
    from benchmarks.targets import bench_environment
    from majordomus.capabilities.workspace import Workspace

    env = bench_environment()
    ctx = Workspace(root, environ=env)
    results: list[dict[str, Any]] = []
    direct = [t for t in targets if t.transport == "direct"]
    if direct:
        runner = DirectRunner(ctx)
        for target in direct:
            results += runner.measure(target, profile)
    over_mcp = [t for t in targets if t.transport == "mcp"]
    if over_mcp:
        objects = ctx.index.objects
        first = objects[0].uri if objects else "majordomus://repository"
        mcp = McpRunner(root, env, first)
        try:
            for target in over_mcp:
                results += mcp.measure(target, profile)
        finally:
            mcp.close()
    over_http = [t for t in targets if t.transport == "http"]
    if over_http:
        http = HttpRunner(root, env)
        try:
            for target in over_http:
                results += http.measure(target, profile)
        finally:
            http.close()
    order = {t.key: i for i, t in enumerate(targets)}
    return sorted(results, key=lambda r: order[r["key"]])


def run_document(root: Path, targets: list[Target], profile: Profile) -> dict[str, Any]:
    from benchmarks.targets import bench_environment
    from majordomus.capabilities.workspace import Workspace

    ctx = Workspace(root, environ=bench_environment())
    from majordomus.capabilities.core import registry_fingerprint

    fingerprint = registry_fingerprint(ctx.registry)
    results = measure(root, targets, profile)
    return {
        "schema": SCHEMA,
        "finished_at": clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "profile": profile.name,
        "provenance": provenance(fingerprint),
        "results": results,
    }


def render(document: dict[str, Any]) -> str:
    """The table of medians and percentiles, in microseconds."""
    head = f"{'target':<58} {'mode':<14} {'n':>4} {'p50':>10} {'p90':>10} {'p95':>10} "
    head += f"{'p99':>10} {'max':>10}  handler"
    rows = [head, "-" * len(head)]
    for r in document["results"]:
        s = r["stats"]
        calls = r.get("handler_invocations")
        rows.append(
            f"{r['key']:<58} {r['cache_mode']:<14} {s['samples']:>4} {s['p50_us']:>10.1f} "
            f"{s['p90_us']:>10.1f} {s['p95_us']:>10.1f} {s['p99_us']:>10.1f} "
            f"{s['max_us']:>10.1f}  {'' if calls is None else calls}"
        )
    prov = document["provenance"]
    rows.append(
        f"profile {document['profile']} · {platform_key()} · host {prov['host']} · "
        f"registry {prov['registry_fingerprint'][:12]} · durations in µs (nearest-rank)"
    )
    return "\n".join(rows) + "\n"


def _selector(prefix: str | None, transport: str) -> Any:
    """Whether a baseline key falls inside this run's selection (for STALE lines)."""

    def selected(key: str) -> bool:
        if prefix and not key.startswith(prefix) and key.split("|", 1)[0] != prefix:
            return False
        system = key.startswith("system.")
        word = key.split(".")[1] if system else key.split("|")[1]
        if transport == "all":
            return True
        if transport == "system":
            return system
        return not system and word == transport

    return selected


def bench(args: argparse.Namespace) -> int:
    from benchmarks.compare import compare, load_policy
    from benchmarks.runners import PROFILES, BenchAbort
    from benchmarks.targets import bench_environment, derive_targets, repository, select
    from majordomus.capabilities.workspace import Workspace

    profile = PROFILES[args.profile]
    with repository(args.repo) as root:
        ctx = Workspace(root, environ=bench_environment())
        targets = select(derive_targets(ctx, ctx.registry), args.prefix, args.transport)
        if not targets:
            sys.stderr.write("benchmarks: no target matches\n")
            return 2
        try:
            document = run_document(root, targets, profile)
        except BenchAbort as exc:
            sys.stderr.write(f"benchmarks: aborted: {exc}\n")
            return EXIT_ABORT
    stamp = document["finished_at"].replace(":", "").replace("-", "")
    path = None if args.no_write else RESULTS / f"{stamp}-{profile.name}.json"
    publish(document, render, args.format == "json", path)
    if not args.check:
        return 0
    baseline_path = HERE / f"baseline.{platform_key()}.json"
    baseline = (
        json.loads(baseline_path.read_text(encoding="utf-8")) if baseline_path.is_file() else None
    )
    lines, failed = compare(
        document,
        baseline,
        load_policy(POLICY),
        platform_key(),
        _selector(args.prefix, args.transport),
    )
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_REGRESSION if failed else 0


def baseline_update(args: argparse.Namespace) -> int:
    from benchmarks.runners import PROFILES, BenchAbort
    from benchmarks.targets import bench_environment, derive_targets, repository
    from majordomus.capabilities.workspace import Workspace

    profile = PROFILES[args.profile]
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    if dirty and not args.allow_dirty:
        sys.stderr.write("benchmarks: the source tree is dirty; commit first or --allow-dirty\n")
        return 2
    with repository(args.repo) as root:
        ctx = Workspace(root, environ=bench_environment())
        targets = derive_targets(ctx, ctx.registry)
        try:
            document = run_document(root, targets, profile)
        except BenchAbort as exc:
            sys.stderr.write(f"benchmarks: aborted: {exc}\n")
            return EXIT_ABORT
    path = HERE / f"baseline.{platform_key()}.json"
    publish(document, render, False, path)
    return 0


def main(args_list: list[str]) -> int:
    from benchmarks.runners import PROFILES

    parser = argparse.ArgumentParser(
        prog="benchmarks/run.py capabilities", description=__doc__.split("\n")[0]
    )
    if args_list[:2] == ["baseline", "update"]:
        parser.add_argument("--profile", choices=sorted(PROFILES), default="full")
        parser.add_argument("--allow-dirty", action="store_true")
        parser.add_argument("--repo", type=Path)
        return baseline_update(parser.parse_args(args_list[2:]))
    parser.add_argument("prefix", nargs="?", help="a capability id or a target key prefix")
    parser.add_argument(
        "--transport", choices=["all", "direct", "mcp", "http", "system"], default="all"
    )
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--check", action="store_true", help="compare with the baseline")
    parser.add_argument("--no-write", action="store_true", help="do not keep the result file")
    parser.add_argument("--repo", type=Path, help="measure this repository instead")
    return bench(parser.parse_args(args_list))
