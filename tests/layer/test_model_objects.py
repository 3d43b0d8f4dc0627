"""`Provenance` and `LayerObject` set their slots themselves and stay frozen dataclasses."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from majordomus.layer.model import LayerObject, Provenance


def _object(identity: str = "a b@1") -> LayerObject:
    where = Provenance(".ai/repo/rules/a.v1.md", ".ai/repo/rules", "rule", 12, "rules")
    return LayerObject("rule", identity, "T", None, {"id": 1}, "c", "b", "text/markdown", where)


def test_fields_defaults_uri_and_equality() -> None:
    where = Provenance("p", "d", "c", 3)
    assert (where.section, where.member) == (None, None)
    assert where == Provenance(path="p", directory="d", source_class="c", bytes=3)
    assert hash(where) == hash(Provenance("p", "d", "c", 3, None, None))
    obj = _object()
    assert obj.uri == "majordomus://rule/a%20b@1"
    assert obj == _object() and obj != _object("c@1")
    assert [f.name for f in dataclasses.fields(obj)][-1] == "uri"
    assert "uri" not in repr(obj)


def test_frozen_and_copied_as_before() -> None:
    obj = _object()
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.identity = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.provenance.path = "x"  # type: ignore[misc]
    moved = dataclasses.replace(obj, identity="c@2")
    assert moved.uri == "majordomus://rule/c@2" and moved.provenance is obj.provenance
    assert pickle.loads(pickle.dumps(obj)) == obj == copy.deepcopy(obj)
