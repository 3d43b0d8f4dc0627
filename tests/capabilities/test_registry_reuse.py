"""A registry built over a re-index reuses what the one before it checked, and answers (or
refuses) exactly as a registry built from scratch."""

from __future__ import annotations

import pytest

from majordomus.capabilities.builtin import builtin_registry, builtin_routes
from majordomus.capabilities.checks import RegistryError, check_routes, routes_still_pass
from majordomus.capabilities.registry import Registry, Route, declarative_route
from majordomus.synthetic import Shape, SyntheticRepository

TOOL = next(r for r in builtin_routes() if r.tool is not None)


class _Nothing:
    def modules(self) -> list:
        return []

    def capabilities(self, module_id: str) -> list:
        return []


def registry(routes: list[Route]) -> Registry:
    return Registry(routes, _Nothing(), "")


def errors_of(routes: list[Route]) -> list[RegistryError]:
    errors: list[RegistryError] = []
    check_routes(routes, errors)
    return errors


def demo(name: str, **changes: object) -> Route:
    return Route(id=f"demo.{name}", module="demo", tool=f"demo_{name}").replace(**changes)


BASE = [demo("a"), demo("b"), TOOL]


@pytest.mark.parametrize(
    "routes",
    [
        pytest.param([*BASE, demo("c", tool="demo_a")], id="a new route takes a kept tool name"),
        pytest.param([*BASE, demo("c"), demo("d", tool="demo_c")], id="two new routes clash"),
        pytest.param([*BASE, demo("a", tool="x")], id="an id twice"),
        pytest.param([*BASE, demo("c", tool="Bad Name")], id="a new route is malformed"),
        pytest.param(
            [demo("a"), demo("b", tool="demo_c"), TOOL, demo("c")],
            id="a changed route takes a new route's name",
        ),
    ],
)
def test_a_doubtful_change_is_checked_whole(routes: list[Route]) -> None:
    before = registry(BASE)
    assert errors_of(routes)
    assert not routes_still_pass(before.routes, before.owners(), routes)


@pytest.mark.parametrize(
    "routes",
    [
        pytest.param([*BASE, demo("c")], id="a new route"),
        pytest.param([demo("a"), TOOL], id="a route goes"),
        pytest.param([demo("a"), demo("b", tool="demo_c"), TOOL], id="a route renames its tool"),
        pytest.param(
            [demo("a", tool="demo_b"), demo("b", tool="demo_a"), TOOL], id="two routes swap names"
        ),
        pytest.param([demo("a"), demo("c", tool="demo_b"), TOOL], id="a name passes on"),
    ],
)
def test_a_sound_change_passes_without_checking_the_rest(routes: list[Route]) -> None:
    before = registry(BASE)
    assert not errors_of(routes)
    assert routes_still_pass(before.routes, before.owners(), routes)


def test_a_registry_over_a_re_index_reuses_unchanged_routes_and_equals_a_fresh_one() -> None:
    with SyntheticRepository.new(Shape(rules=5, prompts=1, documents=1)) as repo:
        first = builtin_registry(repo.index())
        repo.touch_rule(1, "changed")
        index = repo.index()
        again = builtin_registry(index, first)
        fresh = builtin_registry(index)
        assert list(again.routes) == list(fresh.routes)
        assert again.routes == fresh.routes
        assert again.owners() == fresh.owners()
        assert again.fingerprint == fresh.fingerprint
        assert index.fingerprint == again.index_fingerprint


def test_a_reused_route_is_only_that_of_the_same_object() -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=0, documents=0)) as repo:
        index = repo.index()
        first = builtin_registry(index)
        again = builtin_registry(index, first)
        assert all(again.routes[i] is first.routes[i] for i in first.routes)
        other = builtin_registry(repo.index(), first)
        declarative = [i for i, r in other.routes.items() if r.declarative]
        assert declarative and all(other.routes[i] is not first.routes[i] for i in declarative)


def test_verifying_builds_no_object_declaration_and_a_re_index_keeps_the_verdict() -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=1, documents=1)) as repo:
        index = repo.index()
        first = builtin_registry(index)
        first.verify()
        kinds = set(index.kinds)
        assert not kinds & first._loaded_modules
        again = builtin_registry(index, first)
        again.inherit(first)
        assert again.__dict__.get("_verified")
        again.verify()
        assert not again._loaded_modules


def _objects_after(change: str) -> tuple[Registry, list]:
    """A registry over a small layer, and the objects of the layer after `change`."""
    with SyntheticRepository.new(Shape(rules=4, prompts=0, documents=0)) as repo:
        index = repo.index()
        first = builtin_registry(index)
        objects = list(index.objects)
        rules = [i for i, obj in enumerate(objects) if obj.kind == "rule"]
        if change == "an edit":
            objects[rules[1]] = objects[rules[1]].replace(content="edited")
        elif change == "a new object":
            objects.append(objects[rules[1]].replace(identity="project.extra"))
        elif change == "a renamed object":
            objects[rules[1]] = objects[rules[1]].replace(identity="project.renamed")
        elif change == "a twin":
            objects[rules[2]] = objects[rules[1]].replace()
        return first, objects


@pytest.mark.parametrize(
    ("change", "swapped"),
    [("an edit", True), ("a new object", False), ("a renamed object", False), ("a twin", False)],
)
def test_a_registry_is_swapped_only_when_every_name_stays(change: str, swapped: bool) -> None:
    first, objects = _objects_after(change)
    again = Registry.swapped(first, builtin_routes(), objects, _Nothing(), "")
    assert (again is not None) == swapped
    if again is not None:
        fresh = registry([*builtin_routes(), *(declarative_route(obj) for obj in objects)])
        assert list(again.routes.items()) == list(fresh.routes.items())
        assert again.owners() == fresh.owners()
        assert all(again.routes[i].source is obj for i, obj in _ids(objects))


def _ids(objects: list) -> list[tuple[str, object]]:
    return [(f"{obj.kind}.{obj.identity}", obj) for obj in objects]
