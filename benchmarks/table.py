"""The run's table: its rows, each next to its floor and target, and their rendering.

A row is held either to a ratio of its floor (`Table.ratio`) or to a bound of its own
(`Table.absolute`: milliseconds, MiB or a count of modules; a floor, when given, is shown for
reference); supplementary figures carry no target. `render` prints the table a run ends with.
"""

from __future__ import annotations

from typing import Any

from benchmarks.processes import Pair


def size(n: int) -> str:
    """10000 → "10k", 100 → "100"."""
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


class Table:
    """The rows of one run, then supplementary figures."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.supplementary: list[dict[str, Any]] = []

    def ratio(self, name: str, pair: Pair, target: float, command: str) -> None:
        """A row held to `target` times its floor (wall time; CPU shown beside it)."""
        ratio = pair.wall / pair.floor_wall if pair.floor_wall else 0.0
        self.rows.append(
            {
                "name": name,
                "unit": "ms",
                "measured": pair.wall / 1e6,
                "floor": pair.floor_wall / 1e6,
                "ratio": round(ratio, 3),
                "target": target,
                "target_kind": "ratio",
                "cpu": pair.cpu / 1e6 if pair.cpu else None,
                "floor_cpu": pair.floor_cpu / 1e6 if pair.floor_cpu else None,
                "ok": ratio <= target,
                "command": command,
            }
        )

    def absolute(
        self,
        name: str,
        measured: float,
        unit: str,
        target: float,
        command: str,
        floor: float | None = None,
    ) -> None:
        """A row held to a bound of its own (`floor`, when given, is shown for reference)."""
        self.rows.append(
            {
                "name": name,
                "unit": unit,
                "measured": measured,
                "floor": floor,
                "ratio": round(measured / floor, 3) if floor else None,
                "target": target,
                "target_kind": "absolute",
                "cpu": None,
                "floor_cpu": None,
                "ok": measured <= target,
                "command": command,
            }
        )

    def extra(self, name: str, pair: Pair, *, peak: bool = False) -> None:
        """A supplementary figure beside its reference; `peak` adds both sides' peak RSS."""
        self.supplementary.append(
            {
                "name": name,
                "measured": pair.wall / 1e6,
                "floor": pair.floor_wall / 1e6,
                "cpu": pair.cpu / 1e6 if pair.cpu else None,
                "floor_cpu": pair.floor_cpu / 1e6 if pair.floor_cpu else None,
                "peak_mib": pair.peak_kib / 1024 if peak else None,
                "floor_peak_mib": pair.floor_peak_kib / 1024 if peak else None,
            }
        )


def _figure(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    if unit == "modules":
        return f"{value:.0f}"
    return f"{value:.3f} ms" if value < 1 else f"{value:.1f} ms"


def _cpu_ratio(row: dict[str, Any]) -> str:
    return f"{row['cpu'] / row['floor_cpu']:.2f}x" if row["cpu"] and row["floor_cpu"] else "—"


def render(document: dict[str, Any]) -> str:
    """The table: measured, floor, ratio, target, CPU of both sides, met or missed."""
    head = (
        f"{'row':<74} {'measured':>10} {'floor':>10} {'ratio':>7} {'target':>11} "
        f"{'cpu':>10} {'cpu floor':>10} {'cpu ratio':>9}  verdict"
    )
    lines = [head, "-" * len(head)]
    for r in document["rows"]:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        if r["target_kind"] == "ratio":
            target = f"≤{r['target']:g}x"
        else:
            target = f"≤{r['target']:g} {r['unit']}"
        lines.append(
            f"  {r['name']:<72} {_figure(r['measured'], r['unit']):>10} "
            f"{_figure(r['floor'], r['unit']):>10} {ratio:>7} {target:>11} "
            f"{_figure(r['cpu'], 'ms'):>10} {_figure(r['floor_cpu'], 'ms'):>10} "
            f"{_cpu_ratio(r):>9}  {'met' if r['ok'] else 'MISSED'}"
        )
    if document["supplementary"]:
        lines.append("supplementary (no target)")
        for e in document["supplementary"]:
            times = f"{e['measured'] / e['floor']:.2f}x" if e["floor"] else "—"
            peak = ""
            if e.get("peak_mib") is not None:
                peak = f"  peak {e['peak_mib']:.0f} / {e['floor_peak_mib']:.0f} MiB"
            lines.append(
                f"  {e['name']:<72} {_figure(e['measured'], 'ms'):>10} "
                f"{_figure(e['floor'] or None, 'ms'):>10} {times:>7} {'':>11} "
                f"{_figure(e['cpu'], 'ms'):>10} {_figure(e['floor_cpu'], 'ms'):>10} "
                f"{_cpu_ratio(e):>9}{peak}"
            )
    sizes = document["sizes"]
    lines.append(
        f"commit {document['commit']} · CPython {document['python']} · samples "
        f"{document['samples']} · MCP layer {sizes['mcp_rules']} rules, {sizes['calls']} calls · "
        f"layer {sizes['rules']} rules · ledger {sizes['records']} records · RSS ledger "
        f"{sizes['rss_records'] or 'skipped'} · load average {document['load_average']['before']}"
        f" → {document['load_average']['after']}"
    )
    steps = document["load_average"].get("steps", {})
    if steps:
        lines.append(
            "load average as each group began: "
            + "; ".join(f"{name} {load.split(',')[0]}" for name, load in steps.items())
        )
    return "\n".join(lines) + "\n"
