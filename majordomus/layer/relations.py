"""The relation edges between indexed objects: the relation table, the resolver and its
correction texts, one concern, over 400 lines on purpose (docs/layer-internals.md). Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from majordomus.layer.model import (
    Edge,
    ExcludedObject,
    ExternalNode,
    LayerDiagnostic,
    LayerObject,
    UnresolvedReference,
)
from majordomus.layer.yaml import render_scalar

NONE_MARKER = "-"

#: The kinds whose text is read for names of other objects (`names` edges): the work items.
NAMING_KINDS = ("issue", "milestone")
NAMES = "names"
_URI = re.compile(r"majordomus://[\w.@/-]+")
_ADR_NUMBER = re.compile(r"\bADR[ -]?(\d{1,6})\b", re.IGNORECASE)
_WORD = re.compile(r"[\w.@/-]+")


@dataclass(frozen=True, slots=True)
class Relations:
    """What the metadata of an index says about how its objects relate."""

    edges: list[Edge]
    external: dict[str, ExternalNode]
    unresolved: list[UnresolvedReference]
    diagnostics: list[LayerDiagnostic]


class _Missing(Exception):
    """A reference that resolves to nothing; the text is its correction."""


class _Resolver:
    """Lookups over the objects (URI order) by kind, identity, identity stem, path, declared ADR
    id and URI, and the external nodes made."""

    def __init__(
        self,
        objects: list[LayerObject],
        mcp_tools: Mapping[str, str] | None,
        excluded: list[ExcludedObject] | None = None,
    ) -> None:
        self.mcp_tools = mcp_tools or {}
        self.excluded: dict[tuple[str, str], ExcludedObject] = {}
        for item in excluded or ():
            self.excluded.setdefault((item.kind, item.identity), item)
            self.excluded.setdefault((item.kind, item.identity.partition("@")[0]), item)
        self.external: dict[str, ExternalNode] = {}
        self.kinds = {obj.kind for obj in objects}
        self.by_uri = {obj.uri for obj in objects}
        self.by_identity = {(obj.kind, obj.identity): obj.uri for obj in objects}
        self.by_stem: dict[tuple[str, str], str] = {}
        self.by_path: dict[str, str] = {}
        self.adr_ids: dict[str, str] = {}
        for obj in objects:
            self.by_stem.setdefault((obj.kind, obj.identity.partition("@")[0]), obj.uri)
            self.by_path.setdefault(obj.provenance.path, obj.uri)
            declared = render_scalar(obj.metadata.get("id")) if obj.kind == "adr" else None
            if declared is not None:
                self.adr_ids.setdefault(declared, obj.uri)

    def named(self, word: str) -> str | None:
        """The object a word of text names: an issue id, a rule id (with or without its
        version), a decision id, or the path of any object."""
        return (
            self.by_identity.get(("issue", word))
            or self.find("rule", word)
            or self.adr_ids.get(word.lower())
            or self.by_path.get(word)
        )

    def names_in(self, obj: LayerObject) -> set[str]:
        """Every object `obj` names in its text or front matter, itself left out."""
        # the front matter's strings and the body, less `scope` (matched as scope) and `non_scope`
        kept = {k: v for k, v in obj.metadata.items() if k not in ("scope", "non_scope")}
        body = "" if obj.body == obj.content and obj.metadata else obj.body  # a YAML document
        text = "\n".join([*strings_in(kept), body])
        found = {uri.rstrip(".-/") for uri in _URI.findall(text)} & self.by_uri
        for number in _ADR_NUMBER.findall(text):
            adr = self.adr_ids.get(f"adr-{int(number):04d}")
            if adr is not None:
                found.add(adr)
        for word in _WORD.findall(text):
            target = self.named(word.rstrip(".-/"))
            if target is not None:
                found.add(target)
        found.discard(obj.uri)
        return found

    def node(self, kind: str, name: str, *, path_like: bool = False) -> str:
        """The external node `<kind>:<name>`, created on first use."""
        node_id = f"{kind}:{name}"
        if node_id not in self.external:
            self.external[node_id] = ExternalNode(
                id=node_id,
                kind=kind,
                label=name.rsplit("/", 1)[-1],
                source=name if path_like else None,
            )
        return node_id

    def find(self, kind: str, name: str) -> str | None:
        """An object of `kind` by identity, else by stem (first in URI order)."""
        return self.by_identity.get((kind, name)) or self.by_stem.get((kind, name))

    def missing(self, kind: str, ref: str, correction: str) -> _Missing:
        """The refusal for `ref`: what excluded the file that names it, else `correction`."""
        excluded = self.excluded.get((kind, ref))
        if excluded is None:
            return _Missing(correction)
        return _Missing(
            f"the {kind} `{ref}` exists in {excluded.path} but is not indexed: that file has the "
            f"error `{excluded.code}`; correct it there"
        )

    def object(self, kind: str, ref: str, fix: str = "name") -> str:
        """The object of `kind` that `ref` names; else refused, asking to correct the `fix`."""
        found = self.find(kind, ref)
        if found is None:
            what = f"no object of kind `{kind}` has the identity `{ref}`"
            raise self.missing(kind, ref, f"{what}; register it or correct the {fix}")
        return found

    def doctrine(self, ref: str) -> str:
        return self.find("rule", ref) or self.node("doctrine", ref)

    def path(self, ref: str) -> str:
        return self.by_path.get(ref) or self.node("file", ref, path_like=True)

    def adr(self, ref: str) -> str:
        found = self.adr_ids.get(ref)
        if found is None:
            fix = "correct the name or record the decision"
            raise self.missing("adr", ref, f"no decision declares the id `{ref}`; {fix}")
        return found

    def prefixed(self, ref: str) -> str:
        prefix, colon, rest = ref.partition(":")
        if not colon:
            raise _Missing(
                f"`{ref}` is not `<kind>:<name>`; a reference names what kind of thing it points at"
            )
        if prefix in ("file", "test"):
            return self.by_path.get(rest) or self.node(prefix, rest, path_like=True)
        if prefix not in self.kinds and (prefix, rest) not in self.excluded:
            return self.node(prefix, rest)
        return self.object(prefix, rest, "reference")

    def mcp_tool(self, ref: str) -> str:
        capability = self.mcp_tools.get(ref)
        if capability is None:
            raise _Missing(
                f"no capability is exposed as the MCP tool `{ref}`; correct the name or declare "
                "the exposure"
            )
        return self.node("capability", capability)


@dataclass(frozen=True, slots=True)
class _Rule:
    """One row of the relation table; `inverted` draws the edge from target to declarer;
    `reaches` says in words what a reference names (the layer reference prints it)."""

    field: str
    edge: str
    resolve: Callable[[_Resolver, str], str]
    reaches: str
    inverted: bool = False


_TYPED = (
    "`<kind>:<id>`: an object of that kind (`rule:`, `adr:`, `knowledge:`, …), or a path "
    "(`file:`, `test:`)"
)


def _of(kind: str) -> Callable[[_Resolver, str], str]:
    """The resolver of references to objects of `kind`, by identity or stem."""
    return lambda r, ref: r.object(kind, ref)


def _rules() -> dict[str, tuple[_Rule, ...]]:
    """The relation table of docs/devcontext.md by declaring kind (`tracks` applies to all)."""
    rule_ref = "a rule, by `id@version` or `id`"
    return {
        "rule": (_Rule("depends_on", "depends_on", _of("rule"), rule_ref),),
        "adr": (
            _Rule("supersedes", "supersedes", _Resolver.adr, "a decision, by its `id`"),
            _Rule("related", "put_in_force", _Resolver.prefixed, _TYPED),
        ),
        "skill": (_Rule("related", "related_to", _of("skill"), "a skill, by its `id`"),),
        "use-case": (
            _Rule("commands", "runs", lambda r, ref: r.node("command", ref), "a command, by name"),
            _Rule("doctrines", "exercises", _Resolver.doctrine, "a rule, else a named doctrine"),
            _Rule("claims", "evidences", _of("claim"), "a claim, by its `id`"),
            _Rule("applications", "serves", _of("application"), "an application, by its `id`"),
            _Rule("mcp_tools", "exercises", _Resolver.mcp_tool, "a capability, by MCP tool name"),
        ),
        "claim": (
            _Rule("source", "defined_in", _Resolver.path, "a file, by path"),
            _Rule("implementation", "implemented_by", _Resolver.path, "a file, by path"),
            _Rule("test", "tested_by", _Resolver.path, "a file, by path"),
        ),
        "issue": (
            _Rule("milestone", "belongs_to", _of("milestone"), "a milestone, by `id`"),
            _Rule("depends_on", "depends_on", _of("issue"), "an issue, by `id`"),
            _Rule("related", "governed_by", _Resolver.prefixed, _TYPED),
        ),
        "milestone": (
            _Rule("depends_on", "depends_on", _of("milestone"), "a milestone, by `id`"),
            _Rule("claims", "evidences", _of("claim"), "a claim, by its `id`"),
            _Rule("related", "governed_by", _Resolver.prefixed, _TYPED),
        ),
        "application": (
            _Rule(
                "use_cases",
                "serves",
                _of("use-case"),
                "a use case, by its `id` (the edge runs from the use case)",
                inverted=True,
            ),
            _Rule("doctrines", "governed_by", _Resolver.doctrine, "a rule, else a named doctrine"),
        ),
    }


TRACKS = _Rule("tracks", "tracks", _Resolver.path, "a file or an indexed object, by path")
RULES_OF = {kind: (*rules, TRACKS) for kind, rules in _rules().items()}


def references(value: Any) -> Iterator[str]:
    """The references a field holds: one string or a list of strings; `-` means none."""
    items = value if type(value) is list else [value]
    for item in items:
        if type(item) is str and item != NONE_MARKER:
            yield item


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a metadata value, nested lists and mappings included, in order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)


def derive_relations(
    objects: list[LayerObject],
    mcp_tools: Mapping[str, str] | None = None,
    excluded: list[ExcludedObject] | None = None,
) -> Relations:
    """Edges, external nodes and unresolved references of `objects` (URI order)."""
    resolver = _Resolver(objects, mcp_tools, excluded)
    edges: set[tuple[str, str, str]] = set()
    unresolved: set[UnresolvedReference] = set()
    for obj in objects:
        uri = obj.uri
        for rule in RULES_OF.get(obj.kind, (TRACKS,)):
            # absent, `-` or an empty list: no reference
            for ref in references(obj.metadata.get(rule.field, NONE_MARKER)):
                try:
                    target = rule.resolve(resolver, ref)
                except _Missing as missing:
                    unresolved.add(
                        UnresolvedReference(
                            declared_in=obj.provenance.path,
                            key=rule.field,
                            reference=ref,
                            correction=str(missing),
                        )
                    )
                    continue
                edges.add((target, uri, rule.edge) if rule.inverted else (uri, target, rule.edge))
    # an issue or milestone names what its text mentions, unless a declared field links the two
    linked = {(source, target) for source, target, _ in edges}
    for obj in objects:
        if obj.kind in NAMING_KINDS:
            named = resolver.names_in(obj)
            edges |= {(obj.uri, t, NAMES) for t in named if (obj.uri, t) not in linked}
    ordered = sorted(unresolved)
    return Relations(
        edges=[Edge(source, target, kind) for source, target, kind in sorted(edges)],
        external=dict(sorted(resolver.external.items())),
        unresolved=ordered,
        diagnostics=[
            LayerDiagnostic("warning", "unresolved_reference", ref.correction, ref.declared_in)
            for ref in ordered
        ],
    )
