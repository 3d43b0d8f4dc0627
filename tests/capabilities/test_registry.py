"""Registry validation: every declaration error is collected, none hides behind the first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from majordomus.capabilities.builtin import builtin_modules
from majordomus.capabilities.core import Empty, GetInput, Liveness, registry_fingerprint
from majordomus.capabilities.registry import (
    CachePolicy,
    Capability,
    Module,
    RegistryBuildFailed,
    build_registry,
)
from majordomus.capabilities.workspace import Workspace


def _handler(ctx, request):
    return Liveness(alive=True, version="0")


def cap(**changes) -> Capability:
    base = Capability(
        id="demo.thing",
        title="Thing",
        description="A thing.",
        input=Empty,
        output=Liveness,
        handler=_handler,
        tool="majordomus_demo_thing",
        http=("GET", "/api/v1/demo/thing"),
        cli=("demo", "thing"),
    )
    return replace(base, **changes)


def module(*caps: Capability, id: str = "demo") -> Module:
    return Module(id=id, title="Demo", description="d", stability="implemented", capabilities=caps)


def codes(*modules: Module) -> list[str]:
    """Every error of building a registry of these modules."""
    with pytest.raises(RegistryBuildFailed) as failed:
        build_registry(list(modules))
    return sorted(e.code for e in failed.value.errors)


def test_builtin_registry_builds_and_iterates_in_id_order():
    registry = build_registry(builtin_modules())
    ids = [c.id for c in registry]
    assert ids == sorted(ids)
    assert "repository.info" in ids and "objects.get" in ids
    assert registry.get("objects.get").module == "objects"


def test_core_names_match_the_spec_table():
    registry = build_registry(builtin_modules())
    expected = {
        "repository.info": ("majordomus_repository", ("GET", "/api/v1/repository"), None),
        "objects.list": ("majordomus_list", ("GET", "/api/v1/objects"), ("objects", "list")),
        "objects.get": ("majordomus_get", ("GET", "/api/v1/object"), ("objects", "get")),
        "objects.search": ("majordomus_search", ("GET", "/api/v1/search"), ("objects", "search")),
        "capabilities.list": (
            "majordomus_capabilities",
            ("GET", "/api/v1/capabilities"),
            ("capabilities", "list"),
        ),
        "capabilities.describe": (
            "majordomus_capability",
            ("GET", "/api/v1/capability"),
            ("capabilities", "describe"),
        ),
        "health.report": ("majordomus_health", ("GET", "/api/v1/health"), None),
        "health.live": (None, ("GET", "/api/v1/live"), None),
        "health.ready": (None, ("GET", "/api/v1/ready"), None),
    }
    for cap_id, (tool, route, cli) in expected.items():
        got = registry.get(cap_id)
        assert (got.tool, got.http, got.cli) == (tool, route, cli), cap_id
    assert registry.get("repository.info").resource == ("majordomus://repository", "repository")
    assert registry.get("health.report").resource == ("majordomus://health", "health")
    assert registry.get("objects.search").cache.max_entries == 64
    assert registry.get("health.report").cache.ttl_seconds == 5


def test_every_error_is_collected():
    bad = module(
        cap(id="Demo.thing"),
        cap(id="demo.other", tool="Bad Tool", http=("PUT", "/api/v1/x/"), cli=("a b",)),
    )
    found = codes(bad)
    assert found.count("invalid_exposure") == 4  # tool, method, path, cli
    assert "invalid_id" in found


def test_duplicates_are_named_by_surface():
    found = codes(module(cap(), cap(id="demo.twin")))
    assert {"duplicate_mcp_name", "duplicate_http_route", "duplicate_cli_path"} <= set(found)
    assert "duplicate_id" in codes(module(cap(), cap(tool="t2", http=None, cli=None)))


def test_a_command_must_be_post_and_never_cached():
    found = codes(module(cap(kind="command", cache=CachePolicy(4))))
    assert "invalid_exposure" in found and "invalid_cache_policy" in found


def test_shapes():
    assert "shape" in codes(module(cap(handler=None)))
    assert "invalid_cache_policy" in codes(module(cap(cache=CachePolicy(0, ttl_seconds=0))))
    assert "not_executable" in codes(module(cap(stability="planned")))
    assert "module_mismatch" in codes(module(cap(id="other.thing")))
    assert "invalid_module_id" in codes(module(cap(id="system.thing"), id="system"))


def test_a_resource_query_must_accept_empty_input():
    assert "shape" in codes(module(cap(input=GetInput, resource=("majordomus://demo", "demo"))))


def test_a_handler_whose_signature_is_not_its_declaration_is_refused():
    def wrong_input(ctx: Workspace, request: GetInput) -> Liveness:
        return Liveness(alive=True, version="0")

    def wrong_output(ctx: Workspace, request: Empty) -> Empty:
        return Empty()

    assert "shape" in codes(module(cap(handler=wrong_input)))
    assert "shape" in codes(module(cap(handler=wrong_output)))


def test_fingerprint_is_stable_and_depends_on_declarations():
    first = registry_fingerprint(build_registry(builtin_modules()))
    assert first == registry_fingerprint(build_registry(builtin_modules()))
    changed = registry_fingerprint(build_registry([*builtin_modules(), module(cap())]))
    assert changed != first


def test_summary_counts():
    summary = build_registry(builtin_modules()).summary()
    assert summary["builtin"] == summary["total"] == len(build_registry(builtin_modules()))
    assert summary["declarative"] == 0 and "resource" not in summary["by_kind"]
    assert summary["mcp_tools"] >= 7
    assert summary["cached"] >= 3
