"""Where the CPU of `reasoning status --format json` goes, phase by phase, in one process.

    python benchmarks/replay_phases.py ROOT [--samples 7] [--task all]

ROOT is a repository with a ledger (`benchmarks/run.py` generates them under its `--work`
directory, `ledger-<n>`). Prints the CPU (user + system) milliseconds of each
phase, the median and the minimum of `--samples` repetitions in this one process, after
one warm-up that builds every validator and serializer:

* `load` — `Store.load()`: every record file read, validated, placed in canonical order;
* `situation` — the records indexed (`RecordIndex`, shared with the state), the advisors
  resolved against their consultation history;
* `derive` — the state of the task (every task with `--task all`) and its Markdown report;
* `serialise` — the pretty JSON of the answer, as the command writes it;
* `egress` — that text through the egress filter, as the command sends it.

The process's own start (interpreter, imports, validators built on first use) is not in
these figures: compare the whole command with `benchmarks/run.py` for it. Figures on
a loaded machine vary by tens of percent; compare medians taken in the same conditions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from majordomus.advisors.situation import AdvisorSituation, resolve_advisors
from majordomus.capabilities.reasoning import ReasoningStatus
from majordomus.capabilities.workspace import Workspace
from majordomus.egress import clean_json_bytes
from majordomus.ledger.loaded import RecordIndex, history
from majordomus.ledger.store import Store
from majordomus.projections.state import ALL_TASKS, derive, render_markdown
from majordomus.wire import dumps_model_pretty_bytes, dumps_pretty


def _cpu_ms(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = action()
    return (time.process_time() - start) * 1000, result


def _clean(data: bytes) -> bytes:
    return clean_json_bytes(data, dumps_pretty)


def one_pass(root: Path, task: str | None) -> dict[str, float]:
    """The CPU milliseconds of each phase of one replay, in the command's order."""
    spent: dict[str, float] = {}
    workspace = Workspace(root)
    store = Store(root)
    spent["load"], loaded = _cpu_ms(store.load)

    def situation() -> tuple[RecordIndex, AdvisorSituation]:
        index = RecordIndex(loaded.records)
        return index, resolve_advisors(root, workspace.environ, history(loaded))

    spent["situation"], (index, advisors) = _cpu_ms(situation)
    chosen = store.current_task() if task is None else task

    def derived() -> ReasoningStatus:
        state = derive(loaded, None if chosen == ALL_TASKS else chosen, index)
        return ReasoningStatus(
            mode=advisors.mode,
            advisors_available=advisors.available(),
            advisors_unavailable=advisors.unavailable(),
            state=state,
            report=render_markdown(state),
        )

    spent["derive"], answer = _cpu_ms(derived)
    spent["serialise"], text = _cpu_ms(lambda: dumps_model_pretty_bytes(answer))
    spent["egress"], _ = _cpu_ms(lambda: _clean(text))
    return spent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--task", default=None)
    args = parser.parse_args(argv)
    one_pass(args.root, args.task)
    runs = [one_pass(args.root, args.task) for _ in range(args.samples)]
    load = os.getloadavg()[0]
    print(f"{args.samples} samples, CPU ms (user + system), load average {load:.1f}")
    for phase in runs[0]:
        values = [run[phase] for run in runs]
        print(f"  {phase:<10} median {statistics.median(values):7.1f}  min {min(values):7.1f}")
    totals = [sum(run.values()) for run in runs]
    print(f"  {'total':<10} median {statistics.median(totals):7.1f}  min {min(totals):7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
