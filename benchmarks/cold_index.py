"""The cold `objects list` of issue 18, alone: the whole command next to its floor.

    python benchmarks/cold_index.py [--rules 10000] [--root LAYER] [--samples 7]
        [--instructions]

On the generated layer of `--rules` rules (or on `--root`, such a layer already generated
and committed), runs `majordomus objects list --format json` and its floor
(`benchmarks/probes.py floor`: `git ls-files`, then every listed file read) in turn, and
prints the medians of wall and CPU (user + system) time of both, their ratios and the load
average before and after. The row is the one `benchmarks/run.py scale` measures; this
script exists to compare one change quickly.

On a shared machine wall and CPU time move with the load. `--instructions` adds a figure
that does not: the user-space instructions of one run of each side under `valgrind
--tool=callgrind` (git's children are not counted, nor the kernel, which is most of the
floor), to compare two versions of the command, not the command with its floor.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROBES = str(Path(__file__).resolve().parent / "probes.py")


def _majordomus() -> str:
    found = shutil.which("majordomus", path=str(Path(sys.executable).parent))
    return found or "majordomus"


def sides() -> dict[str, list[str]]:
    return {
        "objects list": [_majordomus(), "objects", "list", "--format", "json"],
        "floor": [sys.executable, PROBES, "floor", "."],
    }


def timed(argv: list[str], root: Path) -> tuple[float, float]:
    """(wall ms, CPU ms of the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall * 1000, cpu * 1000


def instructions(argv: list[str], root: Path) -> int | None:
    """User-space instructions of one run under callgrind; None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def run(root: Path, samples: int, count: bool) -> None:
    argvs = sides()
    for argv in argvs.values():  # page cache and .pyc warm for both
        timed(argv, root)
    load_before = os.getloadavg()[0]
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in argvs}
    for _ in range(samples):
        for name, argv in argvs.items():
            figures[name].append(timed(argv, root))
    load_after = os.getloadavg()[0]
    wall = {n: statistics.median(w for w, _ in f) for n, f in figures.items()}
    cpu = {n: statistics.median(c for _, c in f) for n, f in figures.items()}
    for name in argvs:
        print(f"{name:13s} wall {wall[name]:7.1f} ms   CPU {cpu[name]:7.1f} ms")
    ours, floor = "objects list", "floor"
    print(
        f"ratio         wall {wall[ours] / wall[floor]:.2f}x   CPU {cpu[ours] / cpu[floor]:.2f}x"
        f"   ({samples} alternating samples, medians; load {load_before:.2f} -> {load_after:.2f})"
    )
    if count:
        for name, argv in argvs.items():
            print(f"{name:13s} {instructions(argv, root)} user-space instructions (callgrind)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", type=int, default=10000)
    parser.add_argument("--root", type=Path)
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args(argv)
    if args.root is not None:
        run(args.root, args.samples, args.instructions)
        return 0
    from majordomus.synthetic import Shape, SyntheticRepository

    with tempfile.TemporaryDirectory(prefix="mj-cold-") as folder:
        root = Path(folder) / f"layer-{args.rules}"
        SyntheticRepository.new(Shape.scaling(args.rules), at=root).commit()
        run(root, args.samples, args.instructions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
