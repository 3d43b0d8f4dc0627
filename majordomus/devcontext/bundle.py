"""A compiled context as one Markdown text (docs/devcontext.md, "The bundle"). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable

from majordomus.devcontext.model import CompiledContext, Route, Seed, Tier, tokens_for
from majordomus.layer.model import Index

_LANGUAGES = {
    "md": "markdown",
    "yaml": "yaml",
    "yml": "yaml",
    "json": "json",
    "sh": "sh",
    "py": "python",
    "rs": "rust",
    "toml": "toml",
}
#: The widest tier heading, counted once per tier when the frame is reserved.
_TIER_HEADING = "## governance\n\n"


def _language(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return _LANGUAGES.get(name.rsplit(".", 1)[-1].lower(), "") if "." in name else ""


def _fence(content: str) -> str:
    """Backticks enough to fence `content`: one more than its longest run, at least three."""
    longest = max((len(run) for run in re.findall("`+", content)), default=0)
    return "`" * max(3, longest + 1)


def _why(ways: Iterable[Route]) -> str:
    return "; ".join(
        f"{d.selector.value}({d.edge}): {d.reason}" if d.edge else f"{d.selector.value}: {d.reason}"
        for d in ways
    )


def section(
    uri: str,
    tier: Tier,
    path: str,
    required: bool,
    ways: Iterable[Route],
    content: str | None,
) -> str:
    """One entry's section: heading, where it lives, why it is in, and its content."""
    standing = "required" if required else "selected"
    head = f"### {uri}\n\n{tier.value} · {standing} · `{path}` — {_why(ways)}\n\n"
    if content is None:
        return head + f"_The index does not hold this content; read `{path}`._\n\n"
    fence = _fence(content)
    tail = "" if content.endswith("\n") or not content else "\n"
    return f"{head}{fence}{_language(path)}\n{content}{tail}{fence}\n\n"


#: Where the frame sends a reader for what the bundle left out (a surface may say it its way).
LEFT_OUT = "What was left out and why: the same request without the bundle."


def _frame(seeds: list[Seed], count: int, used: int, limit: int, over: bool) -> str:
    named = ", ".join(f"{s.from_} `{s.uri}`" for s in seeds)
    scope = f"For {named}." if seeds else "For no seed: the repository's governance only."
    state = " OVER BUDGET: what may not be dropped costs more than the limit." if over else ""
    return (
        f"# Development context\n\n{scope}\n\n"
        f"{count} entries in tier order, {used} of {limit} token(s).{state} {LEFT_OUT}\n\n"
    )


def frame_reserve(seeds: list[Seed], limit: int) -> int:
    """Tokens held back for the frame: its longest form (the widest numbers, every tier)."""
    widest = 10 ** len(str(limit))
    frame = _frame(seeds, widest, widest, widest, True)
    return tokens_for(len(frame.encode("utf-8")) + len(_TIER_HEADING) * len(Tier.ORDER))


def render(compiled: CompiledContext, index: Index) -> str:
    """The bundle of `compiled`: its selected entries' content in tier order."""
    budget = compiled.budget
    parts = [
        _frame(
            compiled.seeds,
            len(compiled.selected),
            budget.used_tokens,
            budget.limit_tokens,
            budget.over_budget,
        )
    ]
    tier: Tier | None = None
    for entry in compiled.selected:
        if entry.tier is not tier:
            tier = entry.tier
            parts.append(f"## {tier.value}\n\n")
        obj = index.by_uri.get(entry.uri)
        content = obj.content if obj is not None else None
        path, ways = entry.provenance.path, entry.discovered_by
        parts.append(section(entry.uri, entry.tier, path, entry.required, ways, content))
    return "".join(parts).rstrip("\n") + "\n"
