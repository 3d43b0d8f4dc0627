"""Redaction and egress figures: recall, false positives, throughput and the egress cost.

    python benchmarks/redaction.py [--work DIR] [--rules 10000] [--samples 5]

Prints, from the corpora of `tests/reliability/secret_samples.py`:

* recall over the secret corpus (a sample counts when none of its material is left and a
  marker stands in its place);
* the false-positive rate over the ordinary corpus (lines the redactor changes), with the
  lines it changes;
* the redactor's throughput (MB/s) on ordinary text, on keyword-dense prose and on the JSON
  `objects list --format json` prints for a synthetic layer of `--rules` rules (generated
  under `--work`, reused when present), and the cost of the filter on one 2 KB MCP answer;
* the wall time of `objects list --format json` on that layer next to what the filter costs
  on its output (the in-process `clean_json_bytes` of the very bytes the command printed).

Every figure is a median of `--samples` runs. docs/RELIABILITY.md records the latest ones.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from majordomus.egress import clean_json, clean_json_bytes
from majordomus.redaction.redactor import redact_secrets, redact_text
from majordomus.wire import dumps_pretty
from tests.reliability.secret_samples import FAMILIES, ORDINARY, SAMPLES, leaks_in


def median_seconds(run: Callable[[], object], samples: int) -> float:
    run()
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def recall() -> tuple[int, list[str]]:
    missed = [
        f"{sample.family}: {sample.text[:60]!r}"
        for sample in SAMPLES
        if leaks_in(redact_text(sample.text), [sample])
        or "[redacted:" not in redact_text(sample.text)
    ]
    return len(SAMPLES) - len(missed), missed


def false_positives() -> list[str]:
    return [f"{line!r} -> {redact_text(line)!r}" for line in ORDINARY if redact_text(line) != line]


def throughput(text: str, samples: int) -> tuple[float, float]:
    seconds = median_seconds(lambda: redact_secrets(text), samples)
    return seconds * 1000, len(text.encode()) / 1e6 / seconds


def keyword_prose(size: int) -> str:
    words = [
        "the",
        "rule",
        "says",
        "a",
        "key",
        "for",
        "each",
        "token",
        "must",
        "be",
        "rotated",
        "and",
        "the",
        "password",
        "policy",
        "applies",
        "to",
        "every",
        "secret",
        "service",
        "api",
        "config",
        "value",
    ]
    chooser = random.Random(1)
    lines = []
    total = 0
    while total < size:
        line = " ".join(chooser.choice(words) for _ in range(12))
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def layer(work: Path, rules: int) -> Path:
    from majordomus.synthetic import Shape, SyntheticRepository

    root = work / f"layer-{rules}"
    if not (root / ".ready").exists():
        shutil.rmtree(root, ignore_errors=True)
        sys.stderr.write(f"redaction: generating a layer of {rules} rules\n")
        SyntheticRepository.new(Shape.scaling(rules), at=root).commit()
        (root / ".ready").write_text("")
    return root


def command_figures(root: Path, samples: int) -> dict[str, float]:
    majordomus = shutil.which("majordomus") or str(Path(sys.executable).parent / "majordomus")
    argv = [majordomus, "objects", "list", "--format", "json"]
    output = subprocess.run(argv, cwd=root, capture_output=True, check=True).stdout
    wall = median_seconds(
        lambda: subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, check=True), samples
    )
    filtered = median_seconds(lambda: clean_json_bytes(output, dumps_pretty), samples)
    return {
        "objects": json.loads(output)["count"],
        "bytes": len(output),
        "wall_ms": wall * 1000,
        "filter_ms": filtered * 1000,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--rules", type=int, default=10000)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument(
        "--peers-python", help="an interpreter with detect-secrets and credsweeper installed"
    )
    parser.add_argument("--gitleaks", help="a gitleaks binary")
    args = parser.parse_args(argv)
    if args.peers_python or args.gitleaks:
        from benchmarks.redaction_peers import compare

        print("\n".join(compare(args.peers_python, args.gitleaks)))
        return 0

    found, missed = recall()
    print(
        f"recall            {found}/{len(SAMPLES)} samples ({found / len(SAMPLES):.1%}), "
        f"{len(FAMILIES)} families"
    )
    for line in missed:
        print(f"  missed          {line}")
    changed = false_positives()
    print(
        f"false positives   {len(changed)}/{len(ORDINARY)} ordinary lines "
        f"({len(changed) / len(ORDINARY):.2%})"
    )
    for line in changed:
        print(f"  changed         {line}")

    ordinary = "\n".join(ORDINARY) * max(1, 2_000_000 // len("\n".join(ORDINARY)))
    ms, rate = throughput(ordinary, args.samples)
    print(
        f"throughput        ordinary corpus, {len(ordinary) / 1e6:.1f} MB: {ms:.0f} ms, "
        f"{rate:.1f} MB/s"
    )
    prose = keyword_prose(2_000_000)
    ms, rate = throughput(prose, args.samples)
    print(
        f"throughput        keyword-dense prose, {len(prose) / 1e6:.1f} MB: {ms:.0f} ms, "
        f"{rate:.1f} MB/s"
    )
    answer = json.dumps(
        {
            "objects": [
                {"uri": f"majordomus://rule/r{n}@1", "title": f"Rule {n}"} for n in range(30)
            ]
        },
        indent=2,
    )
    seconds = median_seconds(lambda: clean_json(answer, dumps_pretty), max(args.samples, 200))
    print(f"per answer        clean_json of a {len(answer)} B answer: {seconds * 1e6:.0f} µs")

    work = args.work or Path(tempfile.mkdtemp(prefix="mjredact"))
    figures = command_figures(layer(work, args.rules), args.samples)
    output_mb = figures["bytes"] / 1e6
    share = figures["filter_ms"] / figures["wall_ms"]
    rate = output_mb / figures["filter_ms"] * 1000
    print(
        f"objects list      {figures['objects']} objects, {output_mb:.1f} MB of JSON: command "
        f"{figures['wall_ms']:.0f} ms, of which the filter {figures['filter_ms']:.0f} ms "
        f"({share:.0%}; {rate:.1f} MB/s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
