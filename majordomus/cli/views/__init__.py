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

VIEW_FILES = (
    "majordomus.cli.views.core",
    "majordomus.cli.views.reasoning",
    "majordomus.cli.views.devcontext",
)


@dataclass(frozen=True)
class CliView:
    text: Callable[[Any, Params], str] | None = None
    arguments: tuple[str, ...] = ()
    flags: Mapping[str, str] = field(default_factory=dict)
    options: tuple[click.Parameter, ...] = ()
    prepare: Callable[[Params], dict[str, Any]] | None = None
    exit_code: Callable[[Any], int] | None = None


PLAIN = CliView()


def all_views() -> dict[str, CliView]:
    views: dict[str, CliView] = {}
    for name in VIEW_FILES:
        views.update(importlib.import_module(name).VIEWS)
    return views


def lines(*rows: str) -> str:
    """Rows joined, each ending with a newline (an empty tuple renders nothing)."""
    return "".join(f"{row}\n" for row in rows)
