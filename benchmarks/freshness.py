"""What live serving costs (issue 30's live re-indexing rows; docs in README "Live re-indexing").

    python benchmarks/freshness.py [--rules 10000] [--checks 2000] [--samples 5]
        [--sizes 64,200,500,1000] [--root LAYER] [--format text|json]

On the generated layer of `--rules` rules, committed to git, with `vcs` discovery (or on
`--root`, such a layer already generated and committed, whose rules this run changes and
stages):

* the freshness check a server makes before each answer, nothing changed: median of
  `Workspace.refresh()` over `--checks` calls (the fixed set and `freshness.SLICE` files);
* what one check costs per number N of layer files it stats (`--sizes`; the bound
  `SLICE` is chosen from it against the 1 ms target), the sizes alternated in rounds;
* the re-index after one rule changed and was staged (what the next answer waits for), next
  to a full index build of the same layer in the same process (a new `Workspace`'s index).

`benchmarks/run.py` runs this script on a copy of its 10k-rule layer and reads its
`--format json` answer.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from majordomus.capabilities.workspace import Workspace
from majordomus.layer import freshness
from majordomus.synthetic import Shape, SyntheticRepository


def _cpu_ns() -> int:
    """CPU (user + system) of this process and its reaped children (git) so far."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return round((own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) * 1e9)


def checks_of(root: Path, checks: int) -> tuple[Workspace, list[int]]:
    """A server's workspace on `root` and the durations of `checks` checks, nothing changed."""
    ctx = Workspace(root)
    ctx.index  # noqa: B018
    ctx.registry  # noqa: B018 - a server has both before it answers
    assert not ctx.refresh(), "a fresh index must not look changed"
    return ctx, timed(ctx, checks)


def by_size(ctx: Workspace, sizes: list[int], checks: int) -> dict[str, float]:
    """Median of one check stating N layer files, per N, the sizes alternated in 10 rounds."""
    bound, spent = freshness.SLICE, {n: list[int]() for n in sizes}
    try:
        for _ in range(10):
            for n in sizes:
                freshness.SLICE = n
                spent[n] += timed(ctx, max(1, checks // 10))
    finally:
        freshness.SLICE = bound
    return {str(n): statistics.median(spent[n]) for n in sizes}


def timed(ctx: Workspace, checks: int) -> list[int]:
    """The durations of `checks` checks, nothing changed."""
    durations = []
    for _ in range(checks):
        start = time.perf_counter_ns()
        changed = ctx.refresh()
        durations.append(time.perf_counter_ns() - start)
        assert not changed
    return durations


def measure(
    repo: SyntheticRepository, checks: int, samples: int, sizes: list[int]
) -> dict[str, object]:
    """Every figure on `repo` (committed); rules 0..samples-1 are changed and staged."""
    root = repo.root
    subprocess.run(["git", "-C", str(root), "update-index", "-q", "--refresh"], check=False)
    ctx, durations = checks_of(root, checks)
    per_size = by_size(ctx, sizes, checks)
    assert ctx.watch is not None
    objects = len(ctx.index.objects)
    builds, reindexes, build_cpu, reindex_cpu = [], [], [], []
    for sample in range(samples):
        cpu, start = _cpu_ns(), time.perf_counter_ns()
        built = Workspace(root).index
        builds.append(time.perf_counter_ns() - start)
        build_cpu.append(_cpu_ns() - cpu)
        assert len(built.objects) == objects
        repo.touch_rule(sample, f"change {sample}")
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
        cpu, start = _cpu_ns(), time.perf_counter_ns()
        assert ctx.refresh(), "a staged change must be seen"
        reindexes.append(time.perf_counter_ns() - start)
        reindex_cpu.append(_cpu_ns() - cpu)
    ordered = sorted(durations)
    return {
        "load_average": os.getloadavg()[0],
        "objects": objects,
        "files": ctx.watch.files,
        "slice": freshness.SLICE,
        "checks": checks,
        "check_median_ns": statistics.median(durations),
        "check_p99_ns": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "by_size_median_ns": per_size,
        "samples": samples,
        "reindex_median_ns": statistics.median(reindexes),
        "build_median_ns": statistics.median(builds),
        "reindex_cpu_median_ns": statistics.median(reindex_cpu),
        "build_cpu_median_ns": statistics.median(build_cpu),
    }


def render(figures: dict[str, object]) -> str:
    ms = {
        k: float(v) / 1e6
        for k, v in figures.items()
        if k.endswith("_ns") and not isinstance(v, dict)
    }  # type: ignore[arg-type]
    sizes: dict[str, float] = figures["by_size_median_ns"]  # type: ignore[assignment]
    return (
        f"CPython {sys.version.split()[0]}; {figures['objects']} objects; "
        f"load average {figures['load_average']:.2f} at the end\n"
        f"freshness check, nothing changed ({figures['slice']} of {figures['files']} files): "
        f"median {ms['check_median_ns']:.4f} ms, p99 {ms['check_p99_ns']:.3f} ms "
        f"({figures['checks']} checks; target <= 1 ms)\n"
        "one check stating N files: "
        + ", ".join(f"N={n} {v / 1e6:.3f} ms" for n, v in sizes.items())
        + "\n"
        f"re-index after one staged change: median {ms['reindex_median_ns']:.0f} ms (CPU "
        f"{ms['reindex_cpu_median_ns']:.0f} ms); full index build {ms['build_median_ns']:.0f} ms "
        f"(CPU {ms['build_cpu_median_ns']:.0f} ms); ratio "
        f"{ms['reindex_median_ns'] / ms['build_median_ns']:.3f}, CPU "
        f"{ms['reindex_cpu_median_ns'] / ms['build_cpu_median_ns']:.3f} (target <= 0.10)\n"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--sizes", default="64,200,500,1000", help="N files per check")
    parser.add_argument("--root", type=Path, help="a generated, committed layer to change")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    if args.root is not None:
        figures = measure(
            SyntheticRepository(args.root.resolve(), None),
            args.checks,
            args.samples,
            sizes,
        )
    else:
        with SyntheticRepository.new(Shape.scaling(args.rules)) as repo:
            repo.commit()
            figures = measure(repo, args.checks, args.samples, sizes)
    if args.format == "json":
        sys.stdout.write(json.dumps(figures) + "\n")
    else:
        sys.stdout.write(render(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
