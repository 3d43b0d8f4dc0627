"""What live serving costs (issue 18's live re-indexing row; docs in README "Live re-indexing").

    python benchmarks/freshness.py [--rules 10000] [--checks 2000]

On the generated layer of `--rules` rules, committed to git, with `vcs` discovery:

* the freshness check a server makes before each answer, nothing changed: median of
  `Context.refresh()` over `--checks` calls (it walks the rotating slice of layer files, so
  the median covers every slice position);
* the re-index after one rule changed and was staged (what the next answer waits for), next
  to a full index build of the same layer in the same process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from majordomus.capabilities.context import Context
from majordomus.layer.freshness import SLICE
from majordomus.layer.index import build_index
from majordomus.synthetic import Shape, SyntheticRepository


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args(argv)
    with SyntheticRepository.new(Shape.scaling(args.rules)) as repo:
        repo.commit()
        ctx = Context(repo.root)
        objects = len(ctx.index.objects)
        ctx.registry  # noqa: B018 - a server has both before it answers
        assert ctx.watch is not None
        assert not ctx.refresh(), "a fresh index must not look changed"
        checks = []
        for _ in range(args.checks):
            start = time.perf_counter_ns()
            changed = ctx.refresh()
            checks.append(time.perf_counter_ns() - start)
            assert not changed
        builds, reindexes = [], []
        for sample in range(args.samples):
            start = time.perf_counter_ns()
            build_index(repo.root, "vcs")
            builds.append(time.perf_counter_ns() - start)
            repo.touch_rule(sample, f"change {sample}")
            repo._git("add", "-A")
            start = time.perf_counter_ns()
            assert ctx.refresh()
            reindexes.append(time.perf_counter_ns() - start)
        check = statistics.median(checks) / 1e6
        worst = sorted(checks)[int(len(checks) * 0.99)] / 1e6
        build = statistics.median(builds) / 1e6
        reindex = statistics.median(reindexes) / 1e6
        print(f"CPython {sys.version.split()[0]}; {objects} objects, {ctx.watch.files} files")
        print(
            f"freshness check, nothing changed: median {check:.3f} ms, p99 {worst:.3f} ms "
            f"({args.checks} checks, {SLICE} files stat'ed per check; target <= 1 ms)"
        )
        print(
            f"re-index after one staged change: median {reindex:.0f} ms; full build_index "
            f"{build:.0f} ms; ratio {reindex / build:.2f} (target <= 0.10)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
