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


def _handler(ctx: Workspace, request: Empty) -> Liveness:
    return Liveness(alive=True, version="0")


def _get(ctx: Workspace, request: GetInput) -> Liveness:
    return Liveness(alive=True, version="0")


def _unannotated(ctx, request):
    return Liveness(alive=True, version="0")


def cap(**changes) -> Capability:
    base = Capability(
        id="demo.thing",
        title="Thing",
        description="A thing.",
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


@pytest.mark.parametrize(
    ("declared", "code"),
    [
        (module(cap(kind="command")), "invalid_exposure"),  # a command bound to GET
        (module(cap(kind="command", cache=CachePolicy(4), http=None)), "invalid_cache_policy"),
        (module(cap(cache=CachePolicy(0, ttl_seconds=0))), "invalid_cache_policy"),
        (module(cap(stability="planned")), "not_executable"),
        (module(cap(id="other.thing")), "module_mismatch"),
        (module(cap(id="system.thing"), id="system"), "invalid_module_id"),
        (module(cap(handler=_get, resource=("majordomus://demo", "demo"))), "shape"),
        (module(cap(handler=_unannotated)), "shape"),
    ],
)
def test_a_declaration_error_is_named_by_its_code(declared: Module, code: str) -> None:
    assert code in codes(declared)


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
