"""Text renderings and request flags of the `devcontext` capabilities."""

from __future__ import annotations

from typing import Any

from majordomus.capabilities.devcontext import (
    DEVCONTEXT_COMPILE,
    DEVCONTEXT_EXPLAIN,
    DEVCONTEXT_POLICY,
)
from majordomus.cli.views import CliView, Params, lines
from majordomus.egress import one_line
from majordomus.errors import EXIT_CONTRACT

REQUEST_FLAGS = {"paths": "path", "uris": "uri"}


def _header(out: dict[str, Any]) -> str:
    git = out["git"]
    where = git["working_tree"]
    if "head" in git or "branch" in git:
        head = git.get("head", "no commit")[:12]
        where = f"{git.get('branch', 'detached')} at {head}, {where}"
    return f"context {out['fingerprint'][:12]} · {where}"


def _seed(seed: dict[str, Any]) -> str:
    resolved = f" (named {seed['resolved']})" if seed.get("resolved") else ""
    if seed["kind"] == seed["from"]:
        return f"seed    {seed['from']} {seed['uri']}{resolved}"
    return f"seed    {seed['from']} {seed['kind']} {seed['uri']}{resolved}"


def _way(way: dict[str, Any]) -> str:
    edge = f"({way['edge']})" if "edge" in way else ""
    return f"      <- {way['selector']}{edge} {way['reason']}"


def compile_text(out: Any, _: Params) -> str:
    if "bundle" in out:
        return str(out["bundle"])
    budget = out["budget"]
    rows = [
        _header(out),
        *(_seed(s) for s in out["seeds"]),
        f"budget  {budget['used_tokens']} of {budget['limit_tokens']} token(s) used, "
        f"{budget['required_tokens']} required, {budget['bytes_per_token']} bytes per token",
    ]
    if budget["over_budget"]:
        must_keep = [e for e in out["selected"] if e["required"]]
        rows.append(
            f"        OVER BUDGET: the {len(must_keep)} entries that may not be dropped cost "
            f"{budget['required_tokens']} token(s), more than the limit "
            f"({budget['limit_tokens']}); raise --budget-tokens or name less"
        )
    rows.extend(
        f"tier    {t['tier']:<10} {t['selected']:>4} selected {t['excluded']:>4} excluded "
        f"{t['tokens']:>7} token(s) {t['required']:>4} required"
        for t in budget["tiers"]
    )
    rows.append(f"SELECTED ({len(out['selected'])})")
    for e in out["selected"]:
        marker = " (required)" if e["required"] else ""
        rows.append(
            f"  {e['tier']:<10} {e['relevance']:.3f} {e['confidence']:.3f} "
            f"{e['cost_tokens']:>6}  {e['uri']}{marker}"
        )
        rows.extend(_way(w) for w in e["discovered_by"])
    rows.append(f"EXCLUDED ({len(out['excluded'])})")
    rows.extend(
        f"  {x['tier']:<10} {x['reason']:<10} {x['cost_tokens']:>6}  {x['uri']} — {x['detail']}"
        for x in out["excluded"]
    )
    rows.append(f"DEDUPLICATED ({len(out['deduplicated'])})")
    for d in out["deduplicated"]:
        dropped = f" <- {', '.join(d['dropped'])}" if d["dropped"] else ""
        rows.append(f"  {d['key']:<8} {d['kept']}{dropped} — {d['detail']}")
    if out["conflicts"]:
        rows.append(f"CONFLICTS ({len(out['conflicts'])})")
        rows.extend(
            f"  {c['kind']:<10} {c['current']} over {c['against']} — {c['detail']}"
            for c in out["conflicts"]
        )
    commits = out["git"].get("commits", [])
    if commits:
        rows.append(f"COMMITS THE LAYER NAMES ({len(commits)})")
        rows.extend(
            f"  {c['commit'][:12]} {c['named_by']}"
            + (f" covers {c['covers']}" if "covers" in c else "")
            for c in commits
        )
    if out["diagnostics"]:
        rows.append(f"DIAGNOSTICS ({len(out['diagnostics'])})")
        rows.extend(
            one_line(f"  {d['severity']:<8} {d['code']} {d.get('path', '-')}: {d['message']}")
            for d in out["diagnostics"]
        )
    return lines(*rows)


def compile_exit(out: Any) -> int:
    """10 when what may not be dropped costs more than the limit."""
    return EXIT_CONTRACT if out["budget"]["over_budget"] else 0


def explain_text(out: Any, _: Params) -> str:
    budget = out["budget"]
    return lines(
        f"{out['standing']}  {out['uri']}",
        out["detail"],
        f"budget {budget['used_tokens']} of {budget['limit_tokens']} token(s) used",
    )


def policy_text(out: Any, _: Params) -> str:
    rows = [f"graph   {out['graph']} · schema {out['schema']}"]
    rows.extend(
        f"tier    {t['position']} {t['tier']:<10} {', '.join(t['kinds']) or '—'}"
        for t in out["tiers"]
    )
    for e in out["edges"]:
        if e["refused"]:
            rows.append(f"edge    {e['edge']:<15} refused      {e['reason']}")
        else:
            rows.append(
                f"edge    {e['edge']:<15} {e['forward']:.2f} / {e['reverse']:.2f}  {e['reason']}"
            )
    rows.extend(
        f"select  {s['selector']:<15} {'declared' if s['declared'] else 'inferred'}"
        for s in out["selectors"]
    )
    rows.append(
        f"default budget {out['default_budget_tokens']} token(s) · depth "
        f"{out['default_max_depth']} · floor {out['default_floor']} · "
        f"{out['bytes_per_token']} bytes per token"
    )
    return lines(*rows)


VIEWS = {
    DEVCONTEXT_COMPILE.id: CliView(text=compile_text, flags=REQUEST_FLAGS, exit_code=compile_exit),
    DEVCONTEXT_EXPLAIN.id: CliView(text=explain_text, arguments=("uri",), flags=REQUEST_FLAGS),
    DEVCONTEXT_POLICY.id: CliView(text=policy_text),
}
