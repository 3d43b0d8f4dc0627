"""The built-in declarations: the exposure table read before any namespace is imported names
built-in capabilities, and a command word imports only the namespace that declares it."""

from __future__ import annotations

from dataclasses import replace

from majordomus.capabilities.builtin import (
    APART,
    COMMANDS,
    EXPOSED,
    NAMESPACES,
    TOOLS,
    builtin_modules,
    builtin_registry,
    declared,
)
from majordomus.layer.kinds import load_kinds

BUILTIN = [cap for module in builtin_modules() for cap in module.composed()]


def test_every_module_is_declared_by_the_namespace_named_for_it() -> None:
    """`declared` finds each capability in the file NAMESPACES names for its module."""
    assert [m.id for m in builtin_modules()] == list(NAMESPACES)
    for cap in BUILTIN:
        assert declared(cap.id) == cap


def test_every_exposure_names_a_builtin_capability_and_its_module_word() -> None:
    assert set(EXPOSED) <= {cap.id for cap in BUILTIN}
    assert {cap.tool: cap.id for cap in BUILTIN if cap.tool is not None} == TOOLS
    commands = [cap for cap in BUILTIN if cap.cli is not None]
    assert {cap.cli: cap.id for cap in commands} == COMMANDS
    assert all(cap.cli is not None and cap.cli[0] == cap.module for cap in commands)


def test_no_object_uri_can_be_a_query_resource_uri() -> None:
    """A layer object is `majordomus://<kind>/<identity>`; no query resource may sit under a
    kind's name."""
    kinds = set(load_kinds().kinds)
    for cap in BUILTIN:
        if cap.resource is not None:
            assert cap.resource[0].removeprefix("majordomus://").split("/")[0] not in kinds


def test_the_builtin_registry_answers_what_the_declarations_say() -> None:
    registry = builtin_registry()
    assert registry is builtin_registry()
    assert [c.id for c in registry] == sorted(c.id for c in BUILTIN)
    for cap in BUILTIN:
        assert registry.get(cap.id) == cap == declared(cap.id)


def test_a_capability_declared_apart_is_its_namespaces_own() -> None:
    for capability_id, declaration in APART.items():
        cap = declared(capability_id)
        assert replace(cap, tool=None, cli=None) == replace(declaration(), module=cap.module)
        assert cap in BUILTIN
