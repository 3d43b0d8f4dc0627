"""Whole processes measured from outside: wall time, CPU (user + system) and peak memory.

The scale run holds every command to a floor on a shared, loaded machine, so each figure is
a median of samples that alternate the measured process with its floor (both see the same
load), and each sample keeps the child's own CPU time next to its wall time (CPU moves less
with the load than wall time does). Nothing here imports the product: only the installed
`majordomus` executable is run, so these helpers keep working whatever its modules become.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.stats import median

#: The `majordomus` installed next to this interpreter (the virtual environment's own).
MAJORDOMUS = shutil.which("majordomus", path=str(Path(sys.executable).parent)) or "majordomus"


def bytecode_compiled() -> None:
    """Compile the installed package's bytecode, as `pip install` does, before anything is
    timed: an editable install under `PYTHONDONTWRITEBYTECODE=1` (this machine's setting)
    otherwise compiles every changed module from source in every measured process."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import compileall, majordomus, os;"
            "compileall.compile_dir(os.path.dirname(majordomus.__file__), quiet=1)",
        ],
        check=True,
    )


def environment() -> dict[str, str]:
    """What every measured process gets: quiet logs, no CI-driven mode switch."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJORDOMUS_")}
    env.pop("CI", None)
    env["MAJORDOMUS_LOG"] = "warn"
    return env


@dataclass(frozen=True)
class Sample:
    """One process: nanoseconds from spawn to exit, its CPU nanoseconds, its peak RSS (KiB)."""

    wall_ns: int
    cpu_ns: int
    peak_kib: int = 0


#: A small interpreter that runs the measured process and reports its figures: Linux carries
#: a process's peak RSS over `exec`, so a process spawned by this (large) one would count our
#: size as its own; spawned by this helper, it counts only the helper's few MiB.
_SPAWN = (
    "import os, subprocess, sys, time\n"
    "start = time.perf_counter_ns()\n"
    "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "wall = time.perf_counter_ns() - start\n"
    "cpu = round((usage.ru_utime + usage.ru_stime) * 1e9)\n"
    "print(wall, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status))\n"
)


def run(argv: Sequence[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)) -> Sample:
    """Run `argv` in `cwd`, its output discarded: its wall time from spawn to exit, its CPU
    and its peak RSS.

    An exit code outside `ok` stops the run with the command's error output."""
    with tempfile.TemporaryFile() as errors:
        done = subprocess.run(
            [sys.executable, "-S", "-c", _SPAWN, *argv],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=errors,
            check=True,
        )
        wall_ns, cpu_ns, peak_kib, code = (int(x) for x in done.stdout.split())
        if code not in ok:
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace").strip()[-400:]
            raise SystemExit(f"benchmarks: {' '.join(argv)} exited {code}: {said}")
    return Sample(wall_ns, cpu_ns, peak_kib)


@dataclass(frozen=True)
class Pair:
    """Medians of the measured side and of its floor (wall and CPU nanoseconds, peak KiB)."""

    wall: float
    floor_wall: float
    cpu: float | None = None
    floor_cpu: float | None = None
    peak_kib: float = 0.0
    floor_peak_kib: float = 0.0


#: Warm-up pairs before the counted samples (they fill the file cache); the smoke test sets 0.
WARMUP = [1]


def paired(samples: int, measured: Callable[[], Sample], floor: Callable[[], Sample]) -> Pair:
    """Medians of alternating samples, after `WARMUP[0]` pairs that are not counted."""
    for _ in range(WARMUP[0]):
        measured(), floor()
    ours: list[Sample] = []
    theirs: list[Sample] = []
    for _ in range(max(1, samples)):
        ours.append(measured())
        theirs.append(floor())
    return Pair(
        median([s.wall_ns for s in ours]),
        median([s.wall_ns for s in theirs]),
        median([s.cpu_ns for s in ours]),
        median([s.cpu_ns for s in theirs]),
        median([s.peak_kib for s in ours]),
        median([s.peak_kib for s in theirs]),
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as `uptime` prints them."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def publish(
    document: dict[str, Any],
    render: Callable[[dict[str, Any]], str],
    as_json: bool,
    path: Path | None,
) -> None:
    """Print a result document (JSON or rendered) and, given `path`, keep it there."""
    sys.stdout.write(json.dumps(document, indent=2) + "\n" if as_json else render(document))
    if path is not None:
        write_atomically(path, document)
        sys.stderr.write(f"benchmarks: wrote {path.relative_to(Path(__file__).parent.parent)}\n")


def write_atomically(path: Path, document: dict[str, Any]) -> None:
    """Write a result document under its final name in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)
