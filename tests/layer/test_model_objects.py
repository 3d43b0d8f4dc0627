"""The layer model's values: constructors and their defaults, equality, hashing, ordering,
immutability, repr, copies and `replace`."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from majordomus.layer.model import (
    Edge,
    ExternalNode,
    GitState,
    Index,
    LayerDiagnostic,
    LayerObject,
    Manifest,
    Provenance,
    SourceClass,
    UnresolvedReference,
)


def _object(identity: str = "a b@1") -> LayerObject:
    where = Provenance(".ai/repo/rules/a.v1.md", ".ai/repo/rules", "rule", 12, "rules")
    return LayerObject("rule", identity, "T", None, {"id": 1}, "c", "b", "text/markdown", where)


def _manifest() -> Manifest:
    return Manifest("majordomus.layer.v1", "local", {"rules": "repo/rules"})


def _index() -> Index:
    git = GitState.unavailable("none")
    return Index(Path("/r"), _manifest(), [], "filesystem", git, [_object()], [])


def test_fields_defaults_uri_and_equality() -> None:
    where = Provenance("p", "d", "c", 3)
    assert (where.section, where.member) == (None, None)
    assert where == Provenance(path="p", directory="d", source_class="c", bytes=3)
    assert hash(where) == hash(("p", "d", "c", 3, None, None))
    assert repr(where) == (
        "Provenance(path='p', directory='d', source_class='c', bytes=3, section=None, member=None)"
    )
    obj = _object()
    assert obj.uri == "majordomus://rule/a%20b@1"
    assert obj == _object() and obj != _object("c@1")
    assert LayerObject.__slots__[-1] == "uri"
    assert "uri" not in repr(obj) and repr(obj).startswith("LayerObject(kind='rule', identity=")
    with pytest.raises(TypeError, match="unhashable"):
        hash(obj)
    assert obj != ("rule", "a b@1") and Edge("a", "b", "c") != ExternalNode("a", "b", "c")


def test_frozen_and_copied_as_before() -> None:
    obj = _object()
    with pytest.raises(AttributeError):
        obj.identity = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        obj.provenance.path = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del obj.provenance.path
    moved = dataclasses.replace(obj, identity="c@2")
    assert moved.uri == "majordomus://rule/c@2" and moved.provenance is obj.provenance
    assert pickle.loads(pickle.dumps(obj)) == obj == copy.deepcopy(obj) == copy.copy(obj)
    assert pickle.loads(pickle.dumps(obj)).uri == obj.uri


def test_the_small_values_keep_their_defaults() -> None:
    assert LayerDiagnostic("error", "c", "m").path is None
    assert LayerDiagnostic("error", "c", "m", "p").to_json() == {
        "severity": "error",
        "code": "c",
        "path": "p",
        "message": "m",
    }
    assert ExternalNode("i", "k", "l").source is None
    source = SourceClass(id="s", kind="rule", discovery="vcs", pathspec=":(glob)x", required=True)
    assert source == SourceClass("s", "rule", "vcs", ":(glob)x", True)
    assert {source, dataclasses.replace(source)} == {source}
    with pytest.raises(TypeError, match="unexpected keyword argument 'extra'"):
        SourceClass(extra=1, **dataclasses.asdict(source))


def test_edges_and_unresolved_references_sort_by_their_fields() -> None:
    edges = [Edge("b", "a", "x"), Edge("a", "c", "y"), Edge("a", "b", "z"), Edge("a", "b", "y")]
    assert [(e.source, e.target, e.kind) for e in sorted(edges)] == sorted(
        (e.source, e.target, e.kind) for e in edges
    )
    assert Edge("a", "b", "c") <= Edge("a", "b", "c") < Edge("a", "b", "d")
    assert Edge("b", "a", "a") >= Edge("a", "z", "z") > Edge("a", "y", "z")
    first = UnresolvedReference("p", "k", "r", "c")
    assert first < UnresolvedReference("p", "k", "s", "a")
    with pytest.raises(TypeError):
        assert Edge("a", "b", "c") < ("a", "b", "d")  # type: ignore[operator]
    with pytest.raises(TypeError):
        assert Edge("a", "b", "c") < first  # type: ignore[operator]


def test_the_index_defaults_compares_and_replaces_without_its_caches() -> None:
    index = _index()
    assert (index.edges, index.external, index.unresolved) == ([], {}, [])
    assert _index().edges is not index.edges
    assert index == _index() and index.state == "ok"
    with pytest.raises(TypeError, match="unhashable"):
        hash(index)
    assert index.by_uri and "by_uri" in vars(index)
    moved = dataclasses.replace(index, git=GitState("available", branch="main"))
    assert moved.git.branch == "main" and moved.objects is index.objects
    assert "by_uri" not in vars(moved) and moved != index
    index.diagnostics = [LayerDiagnostic("error", "c", "m")]
    assert index.state == "degraded"
    assert repr(index).startswith("Index(root=PosixPath('/r'), manifest=Manifest(schema=")
