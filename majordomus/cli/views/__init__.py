"""How a capability looks on the command line beyond its input fields.

A view is optional: it names the fields taken as positional arguments, extra flags that are
not input (`--report`, `--file`), how to build the input from the flags when the fields are
not plain options, flag spellings that differ from the field (`--path` for `paths`), the text
rendering of the output, and the exit code an output means.
Rendering reads the output's JSON (exactly what `--format json` prints), never the domain.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

Params = Mapping[str, Any]

#: A capability module id → the file of its views (modules without views take none).
VIEW_FILES = {
    "objects": "majordomus.cli.views.core",
    "capabilities": "majordomus.cli.views.core",
    "reasoning": "majordomus.cli.views.reasoning",
    "devcontext": "majordomus.cli.views.devcontext",
}


@dataclass(frozen=True)
class CliView:
    text: Callable[[Any, Params], str] | None = None
    arguments: tuple[str, ...] = ()
    flags: Mapping[str, str] = field(default_factory=dict)
    options: tuple[click.Parameter, ...] = ()
    prepare: Callable[[Params], dict[str, Any]] | None = None
    exit_code: Callable[[Any], int] | None = None


PLAIN = CliView()


def views_of(module_id: str) -> dict[str, CliView]:
    """The views of one capability module's capabilities (none for a module without views)."""
    name = VIEW_FILES.get(module_id)
    return dict(importlib.import_module(name).VIEWS) if name is not None else {}


def all_views() -> dict[str, CliView]:
    views: dict[str, CliView] = {}
    for module_id in VIEW_FILES:
        views.update(views_of(module_id))
    return views


def lines(*rows: str) -> str:
    """Rows joined, each ending with a newline (an empty tuple renders nothing)."""
    return "".join(f"{row}\n" for row in rows)
