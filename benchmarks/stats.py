"""Sample statistics: nearest-rank percentiles over microseconds.

Pure: durations in, numbers out. Samples are taken in nanoseconds on a monotonic clock and
reported in microseconds (three decimals, so the document is exact to the nanosecond).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

FIELDS = (
    "samples",
    "min_us",
    "p50_us",
    "p90_us",
    "p95_us",
    "p99_us",
    "max_us",
    "mean_us",
    "stddev_us",
)


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest rank: rank = ceil(p/100 · n) clamped to [1, n]; the value at rank − 1."""
    if not ordered:
        return 0.0
    rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def summarise(durations_ns: Sequence[int]) -> dict[str, float | int]:
    """The statistics of one (target, mode); all zeros for no samples."""
    if not durations_ns:
        return {name: 0 if name == "samples" else 0.0 for name in FIELDS}
    us = sorted(d / 1000 for d in durations_ns)
    n = len(us)
    mean = sum(us) / n
    stddev = math.sqrt(sum((x - mean) ** 2 for x in us) / n)
    return {
        "samples": n,
        "min_us": round(us[0], 3),
        "p50_us": round(percentile(us, 50), 3),
        "p90_us": round(percentile(us, 90), 3),
        "p95_us": round(percentile(us, 95), 3),
        "p99_us": round(percentile(us, 99), 3),
        "max_us": round(us[-1], 3),
        "mean_us": round(mean, 3),
        "stddev_us": round(stddev, 3),
    }


def median(values: Sequence[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return 0.0
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
