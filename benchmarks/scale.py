"""Scale ratios of issue 8 item 2 on inputs made by the project's own generators.

    python benchmarks/run.py scale [--samples N] [--work DIR] [--skip-100k] [--no-write]

Layers of 100, 1k and 10k rules (`Shape.scaling`, plus prompts, a document per ten rules, a
policy and a profile) and ledgers of 1k, 10k and 100k records (`synthetic_ledger`) are
written into `--work` (kept, and reused when present) or a temporary directory. Every
ratio is measured in this one run, as medians of samples that alternate the measured
command with its floor, so both see the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.runners import MAJORDOMUS
from benchmarks.stats import median
from benchmarks.targets import bench_environment
from majordomus import clock

HERE = Path(__file__).resolve().parent
PROBES = str(HERE / "probes.py")
LAYERS = (100, 1000, 10000)
LEDGERS = (1000, 10000, 100000)
INSPECT = [MAJORDOMUS, "mcp", "--inspect", "--format", "json"]
INTENT = "the context a session is given and the budget it costs"


# -- inputs --------------------------------------------------------------------------------------


def prepare(work: Path, skip_100k: bool) -> dict[str, Path]:
    """Generate what is missing under `work`; a finished input carries a `.ready` marker."""
    from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger

    made: dict[str, Path] = {}
    for rules in LAYERS:
        root = work / f"layer-{rules}"
        if not (root / ".ready").exists():
            sys.stderr.write(f"scale: generating a layer of {rules} rules\n")
            SyntheticRepository.new(Shape.scaling(rules), at=root).commit()
            (root / ".ready").write_text("")
        made[f"layer-{rules}"] = root
    for count in LEDGERS:
        if skip_100k and count == 100000:
            continue
        root = work / f"ledger-{count}"
        if not (root / ".ready").exists():
            sys.stderr.write(f"scale: generating a ledger of {count} records\n")
            SyntheticRepository.new(at=root).commit()
            synthetic_ledger(root, count)
            (root / ".ready").write_text("")
        made[f"ledger-{count}"] = root
    return made


# -- measuring -----------------------------------------------------------------------------------


def wall(argv: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)) -> int:
    """Nanoseconds from spawn to exit of one command, its output discarded; an exit code
    outside `ok` stops the run."""
    start = time.perf_counter_ns()
    done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter_ns() - start
    if done.returncode not in ok:
        raise SystemExit(f"scale: {' '.join(argv)} exited {done.returncode}: {done.stderr!r}")
    return elapsed


def printed_ns(argv: list[str], env: dict[str, str]) -> int:
    """The number a probe prints: the nanoseconds of its own work."""
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


def peak_rss_mb(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """The child's peak resident set (ru_maxrss) in MiB."""
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"scale: {' '.join(argv)} exited {process.returncode}")
    return usage.ru_maxrss / 1024


def paired(
    samples: int, measured: Callable[[], float], floor: Callable[[], float]
) -> tuple[float, float]:
    """Medians of alternating samples (one warm-up pair first, not counted)."""
    measured(), floor()
    ours, theirs = [], []
    for _ in range(samples):
        ours.append(measured())
        theirs.append(floor())
    return median(ours), median(theirs)


async def _sdk_session(
    command: str, args: list[str], cwd: Path, tool: str, arguments: dict[str, Any], calls: int
) -> tuple[int, list[int]]:
    """One session of the official client: (spawn → initialize result, call latencies)."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

    env = get_default_environment() | {"MAJORDOMUS_LOG": "warn"}
    params = StdioServerParameters(command=command, args=args, cwd=str(cwd), env=env)
    with open(os.devnull, "w") as quiet:
        start = time.perf_counter_ns()
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            handshake = time.perf_counter_ns() - start
            latencies = []
            for i in range(calls + 5):
                began = time.perf_counter_ns()
                result = await session.call_tool(tool, arguments)
                if i >= 5:
                    latencies.append(time.perf_counter_ns() - began)
                if result.is_error:
                    raise SystemExit(f"scale: {tool} answered an error: {result}")
    return handshake, latencies


def sdk_pair(
    layer: Path, uri: str, sessions: int, calls: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(handshake ours, theirs), (call latency ours, theirs): medians over sessions."""
    ours_hs, theirs_hs, ours_call, theirs_call = [], [], [], []
    for _ in range(sessions + 1):
        hs, lat = asyncio.run(
            _sdk_session(MAJORDOMUS, ["mcp"], layer, "majordomus_get", {"uri": uri}, calls)
        )
        ours_hs.append(hs)
        ours_call.append(median(lat))
        hs, lat = asyncio.run(
            _sdk_session(sys.executable, [PROBES, "sdk-server"], layer, "get", {"uri": uri}, calls)
        )
        theirs_hs.append(hs)
        theirs_call.append(median(lat))
    # the first session of each warms the file cache and is not counted
    return (median(ours_hs[1:]), median(theirs_hs[1:])), (
        median(ours_call[1:]),
        median(theirs_call[1:]),
    )


# -- the run -------------------------------------------------------------------------------------


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.1f} ms"


def measure(inputs: dict[str, Path], samples: int) -> dict[str, Any]:
    env = bench_environment()
    rows: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []

    def row(name: str, ours: float, floor: float, target: float, unit: str, command: str) -> None:
        ratio = ours / floor if floor else 0.0
        rows.append(
            {
                "name": name,
                "measured": ours,
                "floor": floor,
                "unit": unit,
                "ratio": round(ratio, 3),
                "target": target,
                "ok": ratio <= target,
                "command": command,
            }
        )

    here = inputs["layer-100"]
    ours, floor = paired(
        samples * 2,
        lambda: wall([MAJORDOMUS, "--version"], here, env),
        lambda: wall([sys.executable, "-c", "pass"], here, env),
    )
    row("--version vs python -c pass", ours, floor, 4, "ns", "majordomus --version")

    status = [MAJORDOMUS, "reasoning", "status", "--format", "json"]
    for count in LEDGERS:
        root = inputs.get(f"ledger-{count}")
        if root is None:
            continue
        n = samples if count <= 10000 else max(3, samples // 3)
        ours, floor = paired(
            n,
            lambda root=root: wall(status, root, env),
            lambda root=root: wall([sys.executable, PROBES, "ledger", str(root)], root, env),
        )
        if count == 10000:
            row(
                "reasoning status --format json, 10k records vs json.load + sort",
                ours,
                floor,
                1.5,
                "ns",
                "majordomus reasoning status --format json",
            )
            # the pre-commit hook runs `check` in text; it exits 10 on the synthetic findings
            check = [MAJORDOMUS, "reasoning", "check"]
            ours, floor = paired(
                n,
                lambda root=root, check=check: wall(check, root, env, ok=(0, 10)),
                lambda root=root: wall(status, root, env),
            )
            row(
                "reasoning check (pre-commit) vs reasoning status, 10k records",
                ours,
                floor,
                2,
                "ns",
                "majordomus reasoning check (the pre-commit hook's entry)",
            )
        else:
            name = f"reasoning status, {count} records"
            extra.append({"name": name, "ns": ours, "floor_ns": floor})

    for rules in LAYERS:
        root = inputs[f"layer-{rules}"]
        ours, floor = paired(
            samples,
            lambda root=root: printed_ns([sys.executable, PROBES, "index", str(root)], env),
            lambda root=root: printed_ns([sys.executable, PROBES, "floor", str(root)], env),
        )
        if rules == 10000:
            row(
                "build_index of a 10k layer vs git ls-files + read every file",
                ours,
                floor,
                2,
                "ns",
                "build_index(root, 'vcs') in a fresh process, imports excluded",
            )
        else:
            extra.append({"name": f"build_index, {rules} rules", "ns": ours, "floor_ns": floor})

    for rules in LAYERS:
        root = inputs[f"layer-{rules}"]
        for label, compile_argv in (
            ("no seed", [MAJORDOMUS, "devcontext", "compile", "--format", "json"]),
            (
                "intent",
                [MAJORDOMUS, "devcontext", "compile", "--intent", INTENT, "--format", "json"],
            ),
        ):
            ours, floor = paired(
                samples,
                lambda root=root, argv=compile_argv: wall(argv, root, env),
                lambda root=root: wall(INSPECT, root, env),
            )
            if rules == 10000 and label == "no seed":
                row(
                    "devcontext compile (cold CLI) vs mcp --inspect, 10k layer",
                    ours,
                    floor,
                    1.5,
                    "ns",
                    "majordomus devcontext compile --format json",
                )
            else:
                extra.append(
                    {
                        "name": f"devcontext compile ({label}) vs mcp --inspect, {rules} rules",
                        "ns": ours,
                        "floor_ns": floor,
                    }
                )

    big = inputs.get("ledger-100000")
    if big is not None:
        peaks = [peak_rss_mb(status, big, env) for _ in range(3)]
        rows.append(
            {
                "name": "peak RSS of reasoning status --format json, 100k records",
                "measured": median(peaks),
                "floor": 300.0,
                "unit": "MiB",
                "ratio": round(median(peaks) / 300.0, 3),
                "target": 1.0,
                "ok": median(peaks) <= 300.0,
                "command": "majordomus reasoning status --format json",
            }
        )

    layer = inputs["layer-100"]
    from majordomus.capabilities.context import Context

    first = Context(layer, environ=env).index.objects[0].uri
    (hs_ours, hs_theirs), (call_ours, call_theirs) = sdk_pair(layer, first, max(3, samples), 200)
    row(
        "MCP handshake (spawn → initialize result) vs the SDK's minimal server",
        hs_ours,
        hs_theirs,
        0.25,
        "ns",
        "majordomus mcp, driven by mcp.client.stdio",
    )
    row(
        "tools/call majordomus_get latency vs the SDK server's one tool",
        call_ours,
        call_theirs,
        0.5,
        "ns",
        f"tools/call majordomus_get {{'uri': '{first}'}}",
    )
    return {
        "schema": "majordomus/benchmark-scale/v1",
        "finished_at": clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "samples": samples,
        "ratios": rows,
        "supplementary": extra,
    }


def render(document: dict[str, Any]) -> str:
    lines = [f"{'ratio':<72} {'measured':>11} {'floor':>11} {'ratio':>7} {'target':>7}"]
    for r in document["ratios"]:
        if r["unit"] == "MiB":
            measured, floor = f"{r['measured']:.0f} MiB", f"{r['floor']:.0f} MiB"
            target = f"≤{r['floor']:.0f}"
        else:
            measured, floor = _ms(r["measured"]), _ms(r["floor"])
            target = f"≤{r['target']}x"
        verdict = "ok" if r["ok"] else "MISSED"
        lines.append(
            f"{r['name']:<72} {measured:>11} {floor:>11} {r['ratio']:>6.2f}x {target:>7}  {verdict}"
        )
    lines.append("")
    for e in document["supplementary"]:
        ratio = e["ns"] / e["floor_ns"] if e["floor_ns"] else 0.0
        ours, floor = _ms(e["ns"]), _ms(e["floor_ns"])
        lines.append(f"  {e['name']:<70} {ours:>11} {floor:>11} {ratio:>6.2f}x")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py scale")
    parser.add_argument("--samples", type=int, default=7, help="samples per ratio (default 7)")
    parser.add_argument("--work", type=Path, help="keep (and reuse) the generated inputs here")
    parser.add_argument("--skip-100k", action="store_true", help="no 100k-record ledger")
    parser.add_argument("--no-write", action="store_true", help="do not keep the result file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="majordomus-scale-") as scratch:
        work = (args.work or Path(scratch)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        document = measure(prepare(work, args.skip_100k), args.samples)
    sys.stdout.write(render(document))
    if not args.no_write:
        from benchmarks.run import RESULTS, SOURCE, write_atomically

        stamp = document["finished_at"].replace(":", "").replace("-", "")
        path = RESULTS / f"scale-{stamp}.json"
        write_atomically(path, document)
        sys.stderr.write(f"scale: wrote {path.relative_to(SOURCE)}\n")
    return 0
