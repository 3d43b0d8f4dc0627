"""The regression check: a run against the accepted baseline.

Pure: documents and a policy in, report lines and a verdict out. The run fails only when
the baseline was recorded on the same (non-empty) host and some line is `FAIL`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

METRICS = ("p50", "p95", "p99")
DEFAULT_REGRESSION: dict[str, dict[str, float]] = {
    "p50": {"relative": 0.25, "minimum_samples": 0},
    "p95": {"relative": 0.30, "minimum_samples": 50},
    "p99": {"relative": 0.50, "minimum_samples": 200},
}
DEFAULT_MINIMUM_ABSOLUTE_US = 1000.0


@dataclass(frozen=True)
class Policy:
    """Thresholds per metric, the noise floor, and per-target overrides."""

    regression: dict[str, dict[str, float]]
    minimum_absolute_us: float
    targets: dict[str, dict[str, dict[str, float]]]

    def threshold(self, key: str, metric: str) -> tuple[float, float]:
        """(allowed relative increase, minimum samples) for one target and metric."""
        general = self.regression[metric]
        override = self.targets.get(key, {}).get(metric, {})
        relative = float(override.get("relative", general["relative"]))
        minimum = float(override.get("minimum_samples", general.get("minimum_samples", 0)))
        return relative, minimum


def _numbers(mapping: dict[str, Any]) -> dict[str, float]:
    return {name: float(value) for name, value in mapping.items()}


def load_policy(path: Path) -> Policy:
    """The policy file (a `regression:` mapping replaces the defaults), or the defaults."""
    if not path.is_file():
        return Policy(DEFAULT_REGRESSION, DEFAULT_MINIMUM_ABSOLUTE_US, {})
    from majordomus.layer.yaml import parse

    data = parse(path.read_text(encoding="utf-8"))
    regression = data.get("regression")
    general = (
        {metric: _numbers(values) for metric, values in regression.items()}
        if isinstance(regression, dict)
        else DEFAULT_REGRESSION
    )
    targets: dict[str, dict[str, dict[str, float]]] = {}
    for entry in data.get("targets") or []:
        key = entry.get("target")
        targets[key] = {m: _numbers(v) for m, v in entry.items() if m != "target"}
    floor = float(data.get("minimum_absolute_us", DEFAULT_MINIMUM_ABSOLUTE_US))
    return Policy(general, floor, targets)


def _by_key(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["key"], r["cache_mode"]): r for r in document["results"]}


def _provenance(run: dict[str, Any], baseline: dict[str, Any]) -> tuple[list[str], bool]:
    """The lines saying where the baseline comes from, and whether it is this host."""
    same_host = bool(baseline["provenance"].get("host")) and (
        baseline["provenance"]["host"] == run["provenance"]["host"]
    )
    lines = [
        f"baseline host {baseline['provenance'].get('host') or '-'}: "
        + ("same host, regressions fail" if same_host else "another host, reporting only")
    ]
    if baseline["provenance"].get("registry_fingerprint") != run["provenance"].get(
        "registry_fingerprint"
    ):
        lines.append("note: the registry fingerprint differs from the baseline's")
    return lines, same_host


def _metric(
    policy: Policy, key: str, mode: str, metric: str, result: dict[str, Any], base: dict[str, Any]
) -> tuple[str, bool]:
    """One metric's line against the baseline, and whether it is a regression."""
    allowed, minimum = policy.threshold(key, metric)
    now, then = result["stats"][f"{metric}_us"], base["stats"][f"{metric}_us"]
    delta = now / then - 1 if then > 0 else 0.0
    if result["stats"]["samples"] < minimum:
        verdict = "SHORT"
    elif now - then < policy.minimum_absolute_us:
        verdict = "NOISE"
    elif delta > allowed:
        verdict = "FAIL"
    else:
        verdict = "PASS"
    line = (
        f"{verdict:<6} {key} [{mode}] {metric} {then:.1f} -> {now:.1f} us "
        f"({delta:+.1%}, allowed +{allowed:.0%})"
    )
    return line, verdict == "FAIL"


def _verdict(same_host: bool, failed: bool) -> tuple[str, bool]:
    """The closing line and whether the run fails: only a regression on the same host fails."""
    if not same_host:
        return "bench --check: reporting only (the baseline is from another host)", False
    if failed:
        return "bench --check: regression(s) found", True
    return "bench --check: within policy", False


def compare(
    run: dict[str, Any],
    baseline: dict[str, Any] | None,
    policy: Policy,
    platform: str,
    selected: Callable[[str], bool],
) -> tuple[list[str], bool]:
    """Report lines and whether the run fails; `selected` says which baseline keys this run
    was asked to measure (a baseline key outside the selection is not stale)."""
    if baseline is None:
        note = f"no baseline for {platform}: nothing compared (`baseline update` writes one)"
        return [note], False
    lines, same_host = _provenance(run, baseline)
    current, accepted = _by_key(run), _by_key(baseline)
    failed = False
    for (key, mode), result in current.items():
        base = accepted.get((key, mode))
        if base is None:
            lines.append(f"NEW    {key} [{mode}]")
            continue
        for metric in policy.regression:
            line, regressed = _metric(policy, key, mode, metric, result, base)
            failed = failed or regressed
            lines.append(line)
    for key, mode in accepted:
        if (key, mode) not in current and selected(key):
            lines.append(f"STALE  {key} [{mode}]")
    closing, fails = _verdict(same_host, failed)
    lines.append(closing)
    return lines, fails
