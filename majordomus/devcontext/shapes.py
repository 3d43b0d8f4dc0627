"""The compiler's answer as plain data: a slotted class per wire model of
`majordomus.devcontext.model`, and `wire_json`, the JSON value the model dumps to.

The compiler builds these, never the pydantic models, so an MCP session's first compile
imports no pydantic (`majordomus.mcp.plain`); `compile_context` validates the plain answer
into the wire models, which stay the declared output type. Each twin has the model's fields
under the same names, and `wire_json` writes them as the model dumps them: the model's field
order, aliases (`from`, `schema`), enum values, floats as floats, OMIT fields left out when
None or empty. tests/devcontext/test_shapes.py holds each twin to its model field by field
and every answer to the model's own dump, byte for byte.

The twins are written out, not made by `dataclasses`: creating a dataclass at import runs
its generated methods through `exec`, a few hundred microseconds a class, and this module is
imported by the first compile of an MCP session. Over 400 lines for that reason: one short
class per wire model, beside the table that writes them.
"""

from __future__ import annotations

from typing import Any

from majordomus.devcontext.vocabulary import (
    SCHEMA_VERSION,
    ExclusionReason,
    Selector,
    Tier,
)
from majordomus.order import OrderKey


class Request:
    """A compile request (`DevContextInput`'s fields), for a caller that proved its values
    valid without the model (`majordomus.mcp.plain`)."""

    __slots__ = (
        "all_blocking_rules",
        "budget_tokens",
        "bundle",
        "floor",
        "intent",
        "issue",
        "max_depth",
        "milestone",
        "paths",
        "uris",
    )

    def __init__(
        self,
        *,
        issue: str | None = None,
        milestone: str | None = None,
        intent: str | None = None,
        paths: list[str] | None = None,
        uris: list[str] | None = None,
        budget_tokens: int | None = None,
        max_depth: int | None = None,
        floor: float | None = None,
        all_blocking_rules: bool | None = None,
        bundle: bool = False,
    ) -> None:
        self.issue = issue
        self.milestone = milestone
        self.intent = intent
        self.paths: list[str] = [] if paths is None else paths
        self.uris: list[str] = [] if uris is None else uris
        self.budget_tokens = budget_tokens
        self.max_depth = max_depth
        self.floor = floor
        self.all_blocking_rules = all_blocking_rules
        self.bundle = bundle


class Route:
    """One way an entry was reached (`model.Route`); equal when every field is."""

    __slots__ = ("confidence", "depth", "edge", "reason", "selector", "via", "weight")

    def __init__(
        self,
        *,
        selector: Selector,
        reason: str,
        via: str | None = None,
        edge: str | None = None,
        depth: int,
        confidence: float,
        weight: float,
    ) -> None:
        self.selector = selector
        self.reason = reason
        self.via = via
        self.edge = edge
        self.depth = depth
        self.confidence = confidence
        self.weight = weight

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.selector,
            self.reason,
            self.via,
            self.edge,
            self.depth,
            self.confidence,
            self.weight,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Route):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by value, so not hashable


class EntryProvenance:
    """Where a selected thing lives (`model.EntryProvenance`)."""

    __slots__ = ("bytes", "directory", "path", "section", "source_class")

    def __init__(
        self,
        *,
        path: str,
        directory: str,
        source_class: str,
        section: str | None = None,
        bytes: int,
    ) -> None:
        self.path = path
        self.directory = directory
        self.source_class = source_class
        self.section = section
        self.bytes = bytes


class ContextEntry:
    """One selected thing (`model.ContextEntry`)."""

    __slots__ = (
        "confidence",
        "cost_bytes",
        "cost_tokens",
        "depth",
        "discovered_by",
        "facts",
        "kind",
        "provenance",
        "relevance",
        "required",
        "status",
        "tier",
        "title",
        "uri",
        "version",
    )

    def __init__(
        self,
        *,
        uri: str,
        kind: str,
        title: str | None = None,
        provenance: EntryProvenance,
        tier: Tier,
        relevance: float,
        confidence: float,
        discovered_by: list[Route],
        depth: int,
        cost_tokens: int,
        cost_bytes: int,
        version: str | None = None,
        status: str | None = None,
        required: bool,
        facts: dict[str, str] | None = None,
    ) -> None:
        self.uri = uri
        self.kind = kind
        self.title = title
        self.provenance = provenance
        self.tier = tier
        self.relevance = relevance
        self.confidence = confidence
        self.discovered_by = discovered_by
        self.depth = depth
        self.cost_tokens = cost_tokens
        self.cost_bytes = cost_bytes
        self.version = version
        self.status = status
        self.required = required
        self.facts: dict[str, str] = {} if facts is None else facts


class Excluded:
    """One thing reached and not given (`model.Excluded`)."""

    __slots__ = ("cost_tokens", "detail", "kind", "reason", "relevance", "tier", "uri")

    def __init__(
        self,
        *,
        uri: str,
        kind: str | None = None,
        tier: Tier,
        reason: ExclusionReason,
        detail: str,
        cost_tokens: int,
        relevance: float,
    ) -> None:
        self.uri = uri
        self.kind = kind
        self.tier = tier
        self.reason = reason
        self.detail = detail
        self.cost_tokens = cost_tokens
        self.relevance = relevance

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.reason.value, identity=self.uri, rank=self.tier.rank)


class Deduplicated:
    """Two names of one thing, collapsed (`model.Deduplicated`)."""

    __slots__ = ("detail", "dropped", "kept", "key", "paths")

    def __init__(self, *, kept: str, dropped: list[str], key: str, detail: str, paths: int) -> None:
        self.kept = kept
        self.dropped = dropped
        self.key = key
        self.detail = detail
        self.paths = paths

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.kept, identity=self.kept, group=self.key)


class Conflict:
    """Two entries that cannot both hold (`model.Conflict`)."""

    __slots__ = ("against", "current", "detail", "kind")

    def __init__(self, *, current: str, against: str, kind: str, detail: str) -> None:
        self.current = current
        self.against = against
        self.kind = kind
        self.detail = detail

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.current, identity=self.against, group=self.kind)


class TierSpend:
    """What one tier took from the pot (`model.TierSpend`)."""

    __slots__ = ("excluded", "meaning", "required", "selected", "tier", "tokens")

    def __init__(
        self, *, tier: Tier, meaning: str, selected: int, excluded: int, tokens: int, required: int
    ) -> None:
        self.tier = tier
        self.meaning = meaning
        self.selected = selected
        self.excluded = excluded
        self.tokens = tokens
        self.required = required


class Budget:
    """The budget and what became of it (`model.Budget`)."""

    __slots__ = (
        "bytes_per_token",
        "limit_tokens",
        "over_budget",
        "remaining_tokens",
        "required_tokens",
        "tiers",
        "used_tokens",
    )

    def __init__(
        self,
        *,
        limit_tokens: int,
        used_tokens: int,
        required_tokens: int,
        remaining_tokens: int,
        over_budget: bool,
        bytes_per_token: int,
        tiers: list[TierSpend],
    ) -> None:
        self.limit_tokens = limit_tokens
        self.used_tokens = used_tokens
        self.required_tokens = required_tokens
        self.remaining_tokens = remaining_tokens
        self.over_budget = over_budget
        self.bytes_per_token = bytes_per_token
        self.tiers = tiers


class Seed:
    """One starting point as resolved (`model.Seed`)."""

    __slots__ = ("from_", "kind", "resolved", "uri")

    def __init__(self, *, uri: str, kind: str, from_: str, resolved: str | None = None) -> None:
        self.uri = uri
        self.kind = kind
        self.from_ = from_
        self.resolved = resolved


class CommitReference:
    """A commit the selection's evidence names (`model.CommitReference`)."""

    __slots__ = ("commit", "covers", "named_by")

    def __init__(self, *, commit: str, named_by: str, covers: str | None = None) -> None:
        self.commit = commit
        self.named_by = named_by
        self.covers = covers

    def order_key(self) -> OrderKey:
        return OrderKey(label=self.commit, identity=self.named_by)


class GitContext:
    """What git says about the checkout (`model.GitContext`)."""

    __slots__ = ("branch", "commits", "head", "working_tree")

    def __init__(
        self,
        *,
        branch: str | None = None,
        head: str | None = None,
        working_tree: str,
        commits: list[CommitReference] | None = None,
    ) -> None:
        self.branch = branch
        self.head = head
        self.working_tree = working_tree
        self.commits: list[CommitReference] = [] if commits is None else commits


class Diagnostic:
    """A finding about the compilation (`model.Diagnostic`); equal when every field is."""

    __slots__ = ("code", "message", "path", "severity")

    def __init__(self, *, severity: str, code: str, path: str | None = None, message: str) -> None:
        self.severity = severity
        self.code = code
        self.path = path
        self.message = message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return (self.severity, self.code, self.path, self.message) == (
            other.severity,
            other.code,
            other.path,
            other.message,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by value, so not hashable


class CompiledContext:
    """The answer of `devcontext.compile` (`model.CompiledContext`)."""

    __slots__ = (
        "budget",
        "bundle",
        "conflicts",
        "deduplicated",
        "diagnostics",
        "excluded",
        "fingerprint",
        "git",
        "schema_",
        "seeds",
        "selected",
    )

    def __init__(
        self,
        *,
        schema_: int = SCHEMA_VERSION,
        fingerprint: str,
        git: GitContext,
        seeds: list[Seed],
        selected: list[ContextEntry],
        excluded: list[Excluded],
        deduplicated: list[Deduplicated],
        conflicts: list[Conflict],
        budget: Budget,
        diagnostics: list[Diagnostic],
        bundle: str | None = None,
    ) -> None:
        self.schema_ = schema_
        self.fingerprint = fingerprint
        self.git = git
        self.seeds = seeds
        self.selected = selected
        self.excluded = excluded
        self.deduplicated = deduplicated
        self.conflicts = conflicts
        self.budget = budget
        self.diagnostics = diagnostics
        self.bundle = bundle


#: How each field is written: as it is, a float, an enum's value, one nested shape or a
#: list of them; `omit` leaves it out when None or empty.
_AS_IS, _FLOAT, _ENUM, _NESTED, _LIST = "as-is", "float", "enum", "nested", "list"

#: Per shape (by class name, so a wire model given in its place writes alike): each field's
#: attribute, JSON key, how it is written and whether it is omitted when None or empty.
WIRE: dict[str, tuple[tuple[str, str, str, bool], ...]] = {
    "Route": (
        ("selector", "selector", _ENUM, False),
        ("reason", "reason", _AS_IS, False),
        ("via", "via", _AS_IS, True),
        ("edge", "edge", _AS_IS, True),
        ("depth", "depth", _AS_IS, False),
        ("confidence", "confidence", _FLOAT, False),
        ("weight", "weight", _FLOAT, False),
    ),
    "EntryProvenance": (
        ("path", "path", _AS_IS, False),
        ("directory", "directory", _AS_IS, False),
        ("source_class", "source_class", _AS_IS, False),
        ("section", "section", _AS_IS, True),
        ("bytes", "bytes", _AS_IS, False),
    ),
    "ContextEntry": (
        ("uri", "uri", _AS_IS, False),
        ("kind", "kind", _AS_IS, False),
        ("title", "title", _AS_IS, True),
        ("provenance", "provenance", _NESTED, False),
        ("tier", "tier", _ENUM, False),
        ("relevance", "relevance", _FLOAT, False),
        ("confidence", "confidence", _FLOAT, False),
        ("discovered_by", "discovered_by", _LIST, False),
        ("depth", "depth", _AS_IS, False),
        ("cost_tokens", "cost_tokens", _AS_IS, False),
        ("cost_bytes", "cost_bytes", _AS_IS, False),
        ("version", "version", _AS_IS, True),
        ("status", "status", _AS_IS, True),
        ("required", "required", _AS_IS, False),
        ("facts", "facts", _AS_IS, True),
    ),
    "Excluded": (
        ("uri", "uri", _AS_IS, False),
        ("kind", "kind", _AS_IS, True),
        ("tier", "tier", _ENUM, False),
        ("reason", "reason", _ENUM, False),
        ("detail", "detail", _AS_IS, False),
        ("cost_tokens", "cost_tokens", _AS_IS, False),
        ("relevance", "relevance", _FLOAT, False),
    ),
    "Deduplicated": (
        ("kept", "kept", _AS_IS, False),
        ("dropped", "dropped", _AS_IS, False),
        ("key", "key", _AS_IS, False),
        ("detail", "detail", _AS_IS, False),
        ("paths", "paths", _AS_IS, False),
    ),
    "Conflict": (
        ("current", "current", _AS_IS, False),
        ("against", "against", _AS_IS, False),
        ("kind", "kind", _AS_IS, False),
        ("detail", "detail", _AS_IS, False),
    ),
    "TierSpend": (
        ("tier", "tier", _ENUM, False),
        ("meaning", "meaning", _AS_IS, False),
        ("selected", "selected", _AS_IS, False),
        ("excluded", "excluded", _AS_IS, False),
        ("tokens", "tokens", _AS_IS, False),
        ("required", "required", _AS_IS, False),
    ),
    "Budget": (
        ("limit_tokens", "limit_tokens", _AS_IS, False),
        ("used_tokens", "used_tokens", _AS_IS, False),
        ("required_tokens", "required_tokens", _AS_IS, False),
        ("remaining_tokens", "remaining_tokens", _AS_IS, False),
        ("over_budget", "over_budget", _AS_IS, False),
        ("bytes_per_token", "bytes_per_token", _AS_IS, False),
        ("tiers", "tiers", _LIST, False),
    ),
    "Seed": (
        ("uri", "uri", _AS_IS, False),
        ("kind", "kind", _AS_IS, False),
        ("from_", "from", _AS_IS, False),
        ("resolved", "resolved", _AS_IS, True),
    ),
    "CommitReference": (
        ("commit", "commit", _AS_IS, False),
        ("named_by", "named_by", _AS_IS, False),
        ("covers", "covers", _AS_IS, True),
    ),
    "GitContext": (
        ("branch", "branch", _AS_IS, True),
        ("head", "head", _AS_IS, True),
        ("working_tree", "working_tree", _AS_IS, False),
        ("commits", "commits", _LIST, True),
    ),
    "Diagnostic": (
        ("severity", "severity", _AS_IS, False),
        ("code", "code", _AS_IS, False),
        ("path", "path", _AS_IS, True),
        ("message", "message", _AS_IS, False),
    ),
    "CompiledContext": (
        ("schema_", "schema", _AS_IS, False),
        ("fingerprint", "fingerprint", _AS_IS, False),
        ("git", "git", _NESTED, False),
        ("seeds", "seeds", _LIST, False),
        ("selected", "selected", _LIST, False),
        ("excluded", "excluded", _LIST, False),
        ("deduplicated", "deduplicated", _LIST, False),
        ("conflicts", "conflicts", _LIST, False),
        ("budget", "budget", _NESTED, False),
        ("diagnostics", "diagnostics", _LIST, False),
        ("bundle", "bundle", _AS_IS, True),
    ),
}


def wire_json(shape: Any) -> dict[str, Any]:
    """The JSON value the wire model of `shape` dumps to (`model_dump(mode="json",
    by_alias=True)`); lists and dicts are copied, never shared with `shape`."""
    out: dict[str, Any] = {}
    for attr, key, how, omit in WIRE[type(shape).__name__]:
        value = getattr(shape, attr)
        if omit and not value and (value is None or isinstance(value, list | dict)):
            continue
        if how == _AS_IS:
            out[key] = _copied(value)
        elif how == _FLOAT:
            out[key] = float(value)
        elif how == _ENUM:
            out[key] = value.value
        elif how == _NESTED:
            out[key] = wire_json(value)
        else:
            out[key] = [wire_json(item) for item in value]
    return out


def _copied(value: Any) -> Any:
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value
