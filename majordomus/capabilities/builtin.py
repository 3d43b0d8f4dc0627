"""The built-in capabilities: the namespace that declares each module, and the registry built
from their routes.

Each namespace module (`core`, `reasoning`, `devcontext`) declares its `Module`s beside its
handlers and models. Importing one costs its whole domain, so a process reads the routes
first (`majordomus/capabilities/routes.py`, generated from the declarations) and imports a
namespace only when one of its capabilities is asked for: `initialize`, the command words
and the index import no model. `majordomus generate all` writes the routes
again after a declaration changed; a test and `Registry.verify()` refuse stale ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.capabilities.checks import (
    RegistryBuildFailed,
    RegistryError,
    check_declaration,
    check_modules,
    check_routes,
    routes_still_pass,
)
from majordomus.capabilities.registry import (
    Capability,
    Module,
    Registry,
    Route,
    declarative_resource,
    object_routes,
)

if TYPE_CHECKING:
    from majordomus.layer.model import Index

Namespace = Callable[[], Sequence[Module]]


def core() -> Sequence[Module]:
    from majordomus.capabilities import core

    return core.MODULES


def reasoning() -> Sequence[Module]:
    from majordomus.capabilities import reasoning

    return reasoning.MODULES


def devcontext() -> Sequence[Module]:
    from majordomus.capabilities import devcontext

    return devcontext.MODULES


#: Each built-in module id → the namespace that declares it, in declaration order.
NAMESPACES: dict[str, Namespace] = {
    "repository": core,
    "objects": core,
    "capabilities": core,
    "health": core,
    "reasoning": reasoning,
    "devcontext": devcontext,
}


def builtin_modules() -> list[Module]:
    """Every built-in module, in declaration order (every namespace imported)."""
    namespaces = list(dict.fromkeys(NAMESPACES.values()))
    return [module for namespace in namespaces for module in namespace()]


def builtin_module(module_id: str) -> Module:
    """One built-in module, importing only the namespace that declares it."""
    return next(m for m in NAMESPACES[module_id]() if m.id == module_id)


def builtin_routes() -> tuple[Route, ...]:
    """Every built-in capability's route, without importing any namespace."""
    from majordomus.capabilities.routes import ROUTES

    return ROUTES


def builtin_tools() -> dict[str, str]:
    """MCP tool name → capability id, for the use-case `mcp_tools` relation."""
    return {route.tool: route.id for route in builtin_routes() if route.tool is not None}


class _Namespaces:
    """The declarations behind the built-in routes and an index's objects, loaded per module
    and checked as they load: a stale route is an error, not a silent difference."""

    def __init__(self, index: Index | None, routes: Sequence[Route]) -> None:
        self._index = index
        self._routes = {r.id: r for r in routes}

    def modules(self) -> Sequence[Module]:
        return builtin_modules()

    def capabilities(self, module_id: str) -> list[Capability]:
        if module_id not in NAMESPACES:
            from majordomus.capabilities.core import Empty, ObjectView

            objects = self._index.objects if self._index is not None else []
            return [
                declarative_resource(obj, ObjectView, Empty)
                for obj in objects
                if obj.kind == module_id
            ]
        caps = builtin_module(module_id).composed()
        errors: list[RegistryError] = []
        for cap in caps:
            check_declaration(cap, errors)
            if self._routes.get(cap.id) != cap.route:
                errors.append(RegistryError("shape", f"{cap.id}: {STALE}"))
        declared = {cap.id for cap in caps}
        errors.extend(
            RegistryError("shape", f"{r.id}: {STALE}")
            for r in self._routes.values()
            if r.module == module_id and r.id not in declared
        )
        if errors:
            raise RegistryBuildFailed(errors)
        return caps


STALE = "its route differs from its declaration; run `majordomus generate all`"


def builtin_registry(index: Index | None = None, previous: Registry | None = None) -> Registry:
    """The built-in capabilities and a resource per object of `index`, built from the routes
    (no namespace imported until a capability is asked for), or raise with every error.

    Given the registry of an earlier index (a re-index), the routes of the objects it kept
    are reused and only the new ones are checked (`routes_still_pass`), or nothing at all
    when the new objects only took the places of old ones (`Registry.swapped`)."""
    errors: list[RegistryError] = []
    routes = builtin_routes()
    fingerprint: Callable[[], str] = (lambda: index.fingerprint) if index is not None else str
    if index is not None and previous is not None:
        again = Registry.swapped(
            previous, routes, index.objects, _Namespaces(index, routes), fingerprint
        )
        if again is not None:
            return again
    check_modules(list(NAMESPACES), list(index.kinds) if index is not None else [], errors)
    pending = list(routes)
    if index is not None:
        pending.extend(object_routes(index.objects, previous))
    if previous is None or not routes_still_pass(previous.routes, previous.owners(), pending):
        check_routes(pending, errors)
    if errors:
        raise RegistryBuildFailed(errors)
    return Registry(pending, _Namespaces(index, routes), fingerprint)


def _literal(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        items = ", ".join(_literal(v) for v in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    return repr(value)


def render_routes(modules: Sequence[Module]) -> str:
    """The source of `routes.py`: every capability's route, in id order."""
    caps = sorted((c for m in modules for c in m.composed()), key=lambda c: c.id)
    rows = []
    for cap in caps:
        route = cap.route
        fields: dict[str, object] = {"id": route.id, "module": route.module}
        if route.kind != "query":
            fields["kind"] = route.kind
        if route.writes_repository:
            fields["writes_repository"] = True
        for name in ("tool", "resource", "http", "cli"):
            if getattr(route, name) is not None:
                fields[name] = getattr(route, name)
        body = "".join(f"        {k}={_literal(v)},\n" for k, v in fields.items())
        rows.append(f"    Route(\n{body}    ),\n")
    return (
        '"""GENERATED by `majordomus generate all` from the declarations: do '
        "not edit.\n\nEvery built-in capability's identity and exposure, read without "
        'importing the\nnamespace that declares it.\n"""\n\n'
        "from majordomus.capabilities.registry import Route\n\n"
        "ROUTES = (\n" + "".join(rows) + ")\n"
    )


ROUTES_FILE = Path(__file__).with_name("routes.py")
