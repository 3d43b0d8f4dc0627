"""Maintained secret detectors measured on the corpus of `tests/reliability/secret_samples.py`
beside majordomus' own redactor (`benchmarks/redaction.py --peers-python … --gitleaks …`).

None of them is a dependency: each runs from where it was installed (a virtual environment
holding `detect-secrets` and `credsweeper`, the `gitleaks` binary), on one file per sample
and per ordinary line. A detector reports values; as a redactor would, every value it
reports is replaced in the text, and a sample counts as found when none of its material is
left. An ordinary line counts as touched when anything is reported in it. Speed is the wall
time of one scan of a 1 MiB file (process start included for the command-line tools; the
import alone is given for detect-secrets, the one usable in process).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from majordomus.redaction.redactor import redact_secrets, redact_text
from tests.reliability.secret_samples import ORDINARY, SAMPLES, leaks_in

#: Run by the detectors' interpreter: the values detect-secrets reports, by file.
_DETECT_SECRETS = """
import json, sys, time
started = time.perf_counter()
from detect_secrets import SecretsCollection
from detect_secrets.settings import default_settings
imported = time.perf_counter() - started
found = {}
with default_settings():
    collection = SecretsCollection()
    collection.scan_files(*sys.argv[1:])
    for name, secret in collection:
        found.setdefault(name, []).append(secret.secret_value or "")
print(json.dumps({"import": imported, "found": found}))
"""


def _files(work: Path) -> dict[str, str]:
    """One file per sample (`s<n>.txt`) and per ordinary line (`o<n>.txt`): name → text."""
    texts = {f"s{n}.txt": s.text for n, s in enumerate(SAMPLES)}
    texts.update({f"o{n}.txt": line for n, line in enumerate(ORDINARY)})
    for name, text in texts.items():
        (work / name).write_text(text + "\n", encoding="utf-8")
    return texts


def _detect_secrets(python: str, paths: list[Path]) -> tuple[dict[str, list[str]], float]:
    done = subprocess.run(
        [python, "-c", _DETECT_SECRETS, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    return {Path(k).name: v for k, v in answer["found"].items()}, answer["import"]


def _credsweeper(python: str, paths: list[Path]) -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as out:
        report = Path(out) / "report.json"
        argv = [python, "-m", "credsweeper", "--path", *map(str, paths)]
        argv += ["--save-json", str(report), "--no-stdout", "--log", "silence"]
        subprocess.run(argv, capture_output=True, check=True)
        found: dict[str, list[str]] = {}
        for finding in json.loads(report.read_text(encoding="utf-8")):
            for line in finding["line_data_list"]:
                found.setdefault(Path(line["path"]).name, []).append(line["value"] or "")
        return found


def _gitleaks(binary: str, paths: list[Path]) -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as out:
        report = Path(out) / "report.json"
        found: dict[str, list[str]] = {}
        directory = paths[0].parent if len(paths) > 1 else paths[0]
        argv = [binary, "dir", str(directory), "--no-banner", "--exit-code", "0"]
        argv += ["--report-format", "json", "--report-path", str(report), "--log-level", "error"]
        subprocess.run(argv, capture_output=True, check=True)
        for finding in json.loads(report.read_text(encoding="utf-8")):
            found.setdefault(Path(finding["File"]).name, []).append(finding["Secret"] or "")
        return found


def _ours(paths: list[Path]) -> dict[str, list[str]]:
    """majordomus' redactor as the others are scored: the texts it changes, by file (its
    own replacement stands in for the values it found)."""
    found: dict[str, list[str]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8").removesuffix("\n")
        if redact_text(text) != text:
            found[path.name] = [text]
    return found


def _score(texts: dict[str, str], found: dict[str, list[str]]) -> tuple[int, int]:
    """(samples whose material is all gone, ordinary lines touched)."""
    caught = touched = 0
    for name, text in texts.items():
        values = [v for v in found.get(name, []) if v]
        if name.startswith("o"):
            touched += bool(values)
            continue
        for value in sorted(values, key=len, reverse=True):
            text = text.replace(value, "[redacted]")
        caught += bool(values) and not leaks_in(text, [SAMPLES[int(name[1:-4])]])
    return caught, touched


def _mebibyte(work: Path) -> Path:
    """A 1 MiB file of the ordinary lines with a sample every 40 lines."""
    lines: list[str] = []
    while sum(map(len, lines)) + len(lines) < 1 << 20:
        at = len(lines)
        lines.append(SAMPLES[at // 40 % len(SAMPLES)].text if at % 40 == 0 else ORDINARY[at % 400])
    path = work / "mebibyte.txt"
    path.write_text("\n".join(lines)[: 1 << 20], encoding="utf-8")
    return path


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def compare(python: str | None, gitleaks: str | None) -> list[str]:
    """The table's rows: detector, recall, false positives, the 1 MiB scan, what it brings."""
    rows = ["detector | recall | ordinary lines touched | 1 MiB scan | brings"]
    with tempfile.TemporaryDirectory() as held:
        work = Path(held)
        texts = _files(work)
        paths = sorted(work.glob("*.txt"))
        big = _mebibyte(work)
        text = big.read_text(encoding="utf-8")
        runs: list[tuple[str, Callable[[list[Path]], dict[str, list[str]]], str]] = [
            ("majordomus (this table)", _ours, "nothing (standard library re)")
        ]
        if python:
            runs.append(
                (
                    "detect-secrets 1.5",
                    lambda p: _detect_secrets(python, p)[0],
                    "6 packages (requests, pyyaml …), 1.6 MB",
                )
            )
            runs.append(
                (
                    "CredSweeper 1.19",
                    lambda p: _credsweeper(python, p),
                    "~50 packages (onnxruntime, numpy, pandas …), 104 MB of wheels",
                )
            )
        if gitleaks:
            runs.append(
                ("gitleaks 8 (binary)", lambda p: _gitleaks(gitleaks, p), "a 22 MB Go binary")
            )
        for name, run, brings in runs:
            caught, touched = _score(texts, run(paths))
            if run is _ours:
                seconds = _timed(lambda: redact_secrets(text))
            else:
                seconds = _timed(lambda run=run: run([big]))
            rows.append(
                f"{name} | {caught}/{len(SAMPLES)} ({caught / len(SAMPLES):.1%}) | "
                f"{touched}/{len(ORDINARY)} ({touched / len(ORDINARY):.2%}) | "
                f"{seconds:.2f} s | {brings}"
            )
        if python:
            rows.append(f"(detect-secrets import: {_detect_secrets(python, [big])[1]:.2f} s)")
    return rows
