"""The in-memory shapes of an indexed layer.

Plain slotted classes on the shared value bases of `majordomus.values`, neither pydantic nor
dataclasses: the index is built on every invocation, and every process's start imports this
module. `to_json()` methods give the exact key orders of the specs; the capability layer wraps
them in wire models.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from majordomus.layer.uris import candidates, object_uri
from majordomus.values import Frozen, Ordered, Value, set_field

Severity = Literal["info", "warning", "error"]
#: How the files of the source classes are enumerated.
Discovery = Literal["vcs", "filesystem"]
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


class Provenance(Frozen):
    """Where an object came from; computed, never authored."""

    FIELDS = COMPARED = ("path", "directory", "source_class", "bytes", "section", "member")
    __slots__ = FIELDS

    path: str
    directory: str
    source_class: str
    bytes: int
    section: str | None
    member: str | None

    def __init__(
        self,
        path: str,
        directory: str,
        source_class: str,
        bytes: int,
        section: str | None = None,
        member: str | None = None,
    ) -> None:
        """Each slot set through its descriptor, the cheapest way past `Frozen.__setattr__`:
        this runs once per object read, the larger part of reading a file's object."""
        _p_path(self, path)
        _p_directory(self, directory)
        _p_source_class(self, source_class)
        _p_bytes(self, bytes)
        _p_section(self, section)
        _p_member(self, member)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "directory": self.directory,
            "source_class": self.source_class,
        }
        if self.section is not None:
            out["section"] = self.section
        out["bytes"] = self.bytes
        if self.member is not None:
            out["member"] = self.member
        return out


class LayerObject(Frozen):
    """One declared object of the layer: `majordomus://<kind>/<identity>`."""

    FIELDS = COMPARED = (
        "kind",
        "identity",
        "title",
        "description",
        "metadata",
        "content",
        "body",
        "media_type",
        "provenance",
    )
    #: `uri` is derived from the fields: neither compared nor shown, made again by `replace`.
    __slots__ = (*FIELDS, "uri")

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
    uri: str

    def __init__(
        self,
        kind: str,
        identity: str,
        title: str | None,
        description: str | None,
        metadata: dict[str, Any],
        content: str,
        body: str,
        media_type: str,
        provenance: Provenance,
    ) -> None:
        """Set as `Provenance` sets its slots."""
        _o_kind(self, kind)
        _o_identity(self, identity)
        _o_title(self, title)
        _o_description(self, description)
        _o_metadata(self, metadata)
        _o_content(self, content)
        _o_body(self, body)
        _o_media_type(self, media_type)
        _o_provenance(self, provenance)
        _o_uri(self, object_uri(kind, identity))

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


#: The slot setters the two `__init__`s above call (a frozen class refuses `setattr`).
_p_path, _p_directory, _p_source_class, _p_bytes, _p_section, _p_member = (
    getattr(Provenance, name).__set__ for name in Provenance.FIELDS
)
_o_kind, _o_identity, _o_title, _o_description, _o_metadata = (
    getattr(LayerObject, name).__set__
    for name in ("kind", "identity", "title", "description", "metadata")
)
_o_content, _o_body, _o_media_type, _o_provenance, _o_uri = (
    getattr(LayerObject, name).__set__
    for name in ("content", "body", "media_type", "provenance", "uri")
)


class Diagnostic(Frozen):
    """A finding with a stable code."""

    FIELDS = COMPARED = ("severity", "code", "message", "path")
    __slots__ = FIELDS

    severity: Severity
    code: str
    message: str
    path: str | None

    def __init__(
        self, severity: Severity, code: str, message: str, path: str | None = None
    ) -> None:
        set_field(self, "severity", severity)
        set_field(self, "code", code)
        set_field(self, "message", message)
        set_field(self, "path", path)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"severity": self.severity, "code": self.code}
        if self.path is not None:
            out["path"] = self.path
        out["message"] = self.message
        return out


class GitState:
    """What git says about the root; `state` is `available` or `unavailable`.

    Immutable. The working tree state (`git status`, the slowest question: it stats every
    tracked file) may be given as `ask`, a question already running: it is collected the
    first time `working_tree` is read, so a build, and a re-index, never wait for it unless
    an answer needs it.
    """

    __slots__ = (
        "_ask",
        "_lock",
        "_working_tree",
        "branch",
        "head",
        "reason",
        "state",
        "toplevel",
    )

    state: Literal["available", "unavailable"]
    toplevel: str | None
    head: str | None
    branch: str | None
    reason: str | None
    _working_tree: str
    _ask: Callable[[], str] | None
    _lock: threading.Lock | None

    def __init__(
        self,
        state: Literal["available", "unavailable"],
        toplevel: str | None = None,
        head: str | None = None,
        branch: str | None = None,
        working_tree: str = "unknown",
        reason: str | None = None,
        *,
        ask: Callable[[], str] | None = None,
    ) -> None:
        for name, value in (
            ("state", state),
            ("toplevel", toplevel),
            ("head", head),
            ("branch", branch),
            ("reason", reason),
            ("_working_tree", working_tree),
            ("_ask", ask),
            ("_lock", threading.Lock() if ask is not None else None),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"GitState is immutable: cannot assign {name}")

    @property
    def working_tree(self) -> str:
        """`clean`, `dirty` or `unknown`; asked of git once, when first read."""
        lock = self._lock
        if lock is not None:
            with lock:
                ask = self._ask
                if ask is not None:
                    object.__setattr__(self, "_working_tree", ask())
                    object.__setattr__(self, "_ask", None)
        return self._working_tree

    def _fields(self) -> tuple[Any, ...]:
        return (self.state, self.toplevel, self.head, self.branch, self.working_tree, self.reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GitState):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("state", "toplevel", "head", "branch", "working_tree", "reason")
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"GitState({shown})"

    @classmethod
    def unavailable(cls, reason: str) -> GitState:
        return cls(state="unavailable", reason=reason)

    @property
    def available(self) -> bool:
        return self.state == "available"

    def to_json(self) -> dict[str, Any]:
        if self.state == "unavailable":
            return {"state": "unavailable", "reason": self.reason or ""}
        return {
            "state": "available",
            "toplevel": self.toplevel,
            "head": self.head,
            "branch": self.branch,
            "working_tree": self.working_tree,
        }


class SourceClass(Frozen):
    """One class of `sources.yaml`."""

    FIELDS = COMPARED = ("id", "kind", "discovery", "pathspec", "required")
    __slots__ = FIELDS

    id: str
    kind: str
    discovery: str
    pathspec: str
    required: bool

    def __init__(self, id: str, kind: str, discovery: str, pathspec: str, required: bool) -> None:
        set_field(self, "id", id)
        set_field(self, "kind", kind)
        set_field(self, "discovery", discovery)
        set_field(self, "pathspec", pathspec)
        set_field(self, "required", required)


class Manifest(Frozen):
    """The typed read of `.ai/manifest.yaml`."""

    FIELDS = COMPARED = (
        "schema",
        "repo_path",
        "local_path",
        "local_tracked",
        "local_implicit_context",
        "sections",
        "context_documents",
    )
    __slots__ = FIELDS

    schema: str
    repo_path: str
    local_path: str
    local_tracked: bool
    local_implicit_context: bool
    sections: dict[str, str]
    context_documents: tuple[str, ...]

    def __init__(
        self,
        schema: str,
        repo_path: str,
        local_path: str,
        local_tracked: bool,
        local_implicit_context: bool,
        sections: dict[str, str],
        context_documents: tuple[str, ...] = (),
    ) -> None:
        set_field(self, "schema", schema)
        set_field(self, "repo_path", repo_path)
        set_field(self, "local_path", local_path)
        set_field(self, "local_tracked", local_tracked)
        set_field(self, "local_implicit_context", local_implicit_context)
        set_field(self, "sections", sections)
        set_field(self, "context_documents", context_documents)

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


class Edge(Frozen, Ordered):
    """A relation (source, target, kind); ends are object URIs or external node ids."""

    FIELDS = COMPARED = ("source", "target", "kind")
    __slots__ = FIELDS

    source: str
    target: str
    kind: str

    def __init__(self, source: str, target: str, kind: str) -> None:
        set_field(self, "source", source)
        set_field(self, "target", target)
        set_field(self, "kind", kind)


class ExternalNode(Frozen):
    """A node created while resolving a reference to something the index does not hold."""

    FIELDS = COMPARED = ("id", "kind", "label", "source")
    __slots__ = FIELDS

    id: str
    kind: str
    label: str
    source: str | None

    def __init__(self, id: str, kind: str, label: str, source: str | None = None) -> None:
        set_field(self, "id", id)
        set_field(self, "kind", kind)
        set_field(self, "label", label)
        set_field(self, "source", source)


class UnresolvedReference(Frozen, Ordered):
    """A metadata reference that resolves to nothing."""

    FIELDS = COMPARED = ("declared_in", "key", "reference", "correction")
    __slots__ = FIELDS

    declared_in: str
    key: str
    reference: str
    correction: str

    def __init__(self, declared_in: str, key: str, reference: str, correction: str) -> None:
        set_field(self, "declared_in", declared_in)
        set_field(self, "key", key)
        set_field(self, "reference", reference)
        set_field(self, "correction", correction)


class Index(Value):
    """The layer as read: objects in URI order, diagnostics in production order, relations.

    Mutable and unhashable, its attributes free (the `cached_property`s below keep their
    answers in the instance's `__dict__`); equal by its fields, the cached answers aside.
    """

    COMPARED = (
        "root",
        "manifest",
        "sources",
        "discovery",
        "git",
        "objects",
        "diagnostics",
        "edges",
        "external",
        "unresolved",
    )
    __hash__ = None  # type: ignore[assignment]

    root: Path
    manifest: Manifest
    sources: list[SourceClass]
    discovery: Discovery
    git: GitState
    objects: list[LayerObject]
    diagnostics: list[Diagnostic]
    edges: list[Edge]
    external: dict[str, ExternalNode]
    unresolved: list[UnresolvedReference]

    def __init__(
        self,
        root: Path,
        manifest: Manifest,
        sources: list[SourceClass],
        discovery: Discovery,
        git: GitState,
        objects: list[LayerObject],
        diagnostics: list[Diagnostic],
        edges: list[Edge] | None = None,
        external: dict[str, ExternalNode] | None = None,
        unresolved: list[UnresolvedReference] | None = None,
    ) -> None:
        self.root = root
        self.manifest = manifest
        self.sources = sources
        self.discovery = discovery
        self.git = git
        self.objects = objects
        self.diagnostics = diagnostics
        self.edges = [] if edges is None else edges
        self.external = {} if external is None else external
        self.unresolved = [] if unresolved is None else unresolved

    def replace(self, **changes: Any) -> Index:
        """A new index with `changes` (field name → new value); nothing cached is carried."""
        values = {name: getattr(self, name) for name in self.COMPARED}
        values.update(changes)
        return Index(**values)

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
        for spelling in candidates(uri):
            obj = self.by_uri.get(spelling)
            if obj is not None:
                return obj
        return None

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
        counts: dict[str, int] = {}
        for obj in self.objects:
            counts[obj.kind] = counts.get(obj.kind, 0) + 1
        return dict(sorted(counts.items()))

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
