"""The built-in declarations: each handler's signature is its declared input and output, the
routes the registry is built from are the declarations', and building it imports no domain."""

from __future__ import annotations

import json
import subprocess
import sys
import typing

import pytest

from majordomus.capabilities.builtin import (
    NAMESPACES,
    ROUTES_FILE,
    STALE,
    builtin_modules,
    builtin_registry,
    builtin_routes,
    render_routes,
)
from majordomus.capabilities.checks import RegistryBuildFailed
from majordomus.capabilities.workspace import Workspace

BUILTIN = [cap for module in builtin_modules() for cap in module.composed()]


@pytest.mark.parametrize("cap", BUILTIN, ids=lambda cap: cap.id)
def test_the_handler_takes_the_declared_input_and_returns_the_declared_output(cap) -> None:
    assert cap.handler is not None
    hints = typing.get_type_hints(cap.handler, localns={"Workspace": Workspace})
    ctx_name, request_name = list(cap.handler.__code__.co_varnames[:2])
    assert hints[ctx_name] is Workspace
    assert hints[request_name] is cap.input
    assert hints["return"] is cap.output


def test_the_committed_routes_are_the_declarations() -> None:
    assert ROUTES_FILE.read_text(encoding="utf-8") == render_routes(builtin_modules()), (
        "run `majordomus generate all`"
    )
    assert builtin_routes() == tuple(sorted((c.route for c in BUILTIN), key=lambda r: r.id))


def test_every_module_is_declared_by_the_namespace_named_for_it() -> None:
    for module_id, namespace in NAMESPACES.items():
        assert module_id in {m.id for m in namespace()}
    assert [m.id for m in builtin_modules()] == list(NAMESPACES)


def test_the_builtin_registry_answers_what_the_declarations_say() -> None:
    registry = builtin_registry()
    registry.verify()
    assert [c.id for c in registry] == sorted(c.id for c in BUILTIN)
    for cap in BUILTIN:
        assert registry.get(cap.id) == cap


def test_a_stale_route_is_refused_when_its_namespace_loads(monkeypatch) -> None:
    from majordomus.capabilities import routes

    stale = tuple(
        r.replace(tool="majordomus_renamed") if r.id == "reasoning.plan" else r
        for r in routes.ROUTES
    )
    monkeypatch.setattr(routes, "ROUTES", stale)
    registry = builtin_registry()
    assert registry.get("objects.list") is not None
    with pytest.raises(RegistryBuildFailed) as failed:
        registry.get("reasoning.plan")
    assert [e.message for e in failed.value.errors] == [f"reasoning.plan: {STALE}"]


PROBE = (
    "import json, sys\n"
    "from majordomus.capabilities.builtin import builtin_registry, builtin_tools\n"
    "registry = builtin_registry()\n"
    "facts = [builtin_tools(), registry.writer_tools(), sorted(registry.by_tool)]\n"
    "before = sorted(m for m in sys.modules if m.startswith(('majordomus', 'pydantic')))\n"
    "registry.get('objects.list')\n"
    "after = sorted(m for m in sys.modules if m.startswith('majordomus.capabilities.'))\n"
    "print(json.dumps([before, after]))\n"
)


def test_building_the_registry_imports_no_namespace_and_a_lookup_only_its_own() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    before, after = json.loads(done.stdout)
    assert not any(m.startswith("pydantic") for m in before)
    assert not {"majordomus.capabilities.core", "majordomus.capabilities.reasoning"} & set(before)
    assert "majordomus.capabilities.core" in after
    assert "majordomus.capabilities.reasoning" not in after
    assert "majordomus.capabilities.devcontext" not in after
