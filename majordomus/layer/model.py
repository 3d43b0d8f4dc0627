"""The in-memory values of an indexed layer: slotted dataclasses, frozen but the index;
`to_json()` gives the exact key orders of the specs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from majordomus.layer.git import GitState
from majordomus.layer.uris import candidates, object_uri

Severity = Literal["info", "warning", "error"]
#: How the files of the source classes are enumerated.
Discovery = Literal["vcs", "filesystem"]


def _present(value: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The named fields of `value` in the order the specs give, those that are None left out."""
    return {name: getattr(value, name) for name in names if getattr(value, name) is not None}


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an object came from; computed, never authored."""

    path: str
    directory: str
    source_class: str
    bytes: int
    section: str | None = None
    member: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _present(self, ("path", "directory", "source_class", "section", "bytes", "member"))


@dataclass(frozen=True, slots=True)
class LayerObject:
    """One declared object of the layer: `majordomus://<kind>/<identity>`."""

    kind: str
    identity: str
    title: str | None
    description: str | None
    metadata: dict[str, Any]
    content: str
    body: str
    media_type: str
    provenance: Provenance
    #: The canonical URI, encoded once: it is read far more often than objects are made.
    uri: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "uri", object_uri(self.kind, self.identity))

    @property
    def path(self) -> str:
        return self.provenance.path

    def summary_json(self) -> dict[str, Any]:
        """The summary of docs/layer.md (list rows and search hits)."""
        return {
            "uri": self.uri,
            "kind": self.kind,
            "identity": self.identity,
            "title": self.title,
            "description": self.description,
            "path": self.provenance.path,
        }

    def to_json(self) -> dict[str, Any]:
        """The object JSON of docs/layer.md"""
        return {
            "uri": self.uri,
            "kind": self.kind,
            "identity": self.identity,
            "title": self.title,
            "description": self.description,
            "metadata": self.metadata,
            "provenance": self.provenance.to_json(),
            "media_type": self.media_type,
            "content": self.content,
        }


@dataclass(frozen=True, slots=True)
class LayerDiagnostic:
    """A finding with a stable code."""

    severity: Severity
    code: str
    message: str
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _present(self, ("severity", "code", "path", "message"))


@dataclass(frozen=True, slots=True)
class SourceClass:
    """One class of `sources.yaml`."""

    id: str
    kind: str
    discovery: str
    pathspec: str
    required: bool


@dataclass(frozen=True, slots=True)
class Manifest:
    """The typed read of `.ai/manifest.yaml`."""

    schema: str
    local_path: str
    sections: dict[str, str]

    def section_path(self, name: str) -> str:
        return ".ai/" + self.sections[name]

    def section_of(self, rel: str) -> str | None:
        """The section whose path equals `rel` or is a directory prefix of it; longest wins."""
        best: tuple[int, str] | None = None
        for name, sub in self.sections.items():
            prefix = ".ai/" + sub
            inside = rel == prefix or rel.startswith(prefix + "/")
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), name)
        return best[1] if best else None


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """A relation (source, target, kind); ends are object URIs or external node ids."""

    source: str
    target: str
    kind: str


@dataclass(frozen=True, slots=True)
class ExternalNode:
    """A node created while resolving a reference to something the index does not hold."""

    id: str
    kind: str
    label: str
    source: str | None = None


@dataclass(frozen=True, slots=True, order=True)
class UnresolvedReference:
    """A metadata reference that resolves to nothing."""

    declared_in: str
    key: str
    reference: str
    correction: str


@dataclass(frozen=True, slots=True)
class ExcludedObject:
    """A file that names an object but was excluded by an error diagnostic."""

    kind: str
    identity: str
    path: str
    code: str


@dataclass
class Index:
    """The layer as read: objects in URI order, diagnostics in production order, relations;
    mutable (cached answers live in `__dict__`), equal by its fields."""

    root: Path
    manifest: Manifest
    sources: list[SourceClass]
    discovery: Discovery
    git: GitState
    objects: list[LayerObject]
    diagnostics: list[LayerDiagnostic]
    edges: list[Edge] = field(default_factory=list)
    external: dict[str, ExternalNode] = field(default_factory=dict)
    unresolved: list[UnresolvedReference] = field(default_factory=list)
    excluded: list[ExcludedObject] = field(default_factory=list)

    @property
    def state(self) -> Literal["ok", "degraded"]:
        return "degraded" if self.error_count else "ok"

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @cached_property
    def by_uri(self) -> dict[str, LayerObject]:
        return {obj.uri: obj for obj in self.objects}

    def find(self, uri: str) -> LayerObject | None:
        """The object `uri` names, in its canonical or its decoded form."""
        return next((self.by_uri[s] for s in candidates(uri) if s in self.by_uri), None)

    @cached_property
    def by_path(self) -> dict[str, LayerObject]:
        """First object (URI order) per path; collection members share their file's path."""
        out: dict[str, LayerObject] = {}
        for obj in self.objects:
            out.setdefault(obj.provenance.path, obj)
        return out

    @cached_property
    def kinds(self) -> dict[str, int]:
        """Object count per kind, ordered by kind name."""
        return dict(sorted(Counter(obj.kind for obj in self.objects).items()))

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 over path, NUL, content, LF per object in URI order."""
        import hashlib  # here: OpenSSL's binding costs a start that asks for no digest

        digest = hashlib.sha256()
        for obj in self.objects:
            digest.update(obj.provenance.path.encode())
            digest.update(b"\0")
            digest.update(obj.content.encode())
            digest.update(b"\n")
        return digest.hexdigest()
