"""How a capability looks on the command line beyond its input fields."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

from majordomus.cli.settings import settings
from majordomus.egress import clean, clean_json

Params = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CliView:
    """How a capability's command reads and shows its answer."""

    text: Callable[[Any, Params], str] | None = None
    arguments: tuple[str, ...] = ()
    flags: Mapping[str, str] = field(default_factory=dict)
    options: tuple[click.Parameter, ...] = ()
    prepare: Callable[[Params], dict[str, Any]] | None = None
    exit_code: Callable[[Any], int] | None = None


#: A capability module id → the module here that holds its capabilities' views.
VIEWS_OF = {
    "objects": "core",
    "capabilities": "core",
    "reasoning": "reasoning",
    "recall": "recall",
    "devcontext": "devcontext",
}


def views_of(module_id: str) -> dict[str, CliView]:
    """The views of one capability module's capabilities, importing only their file."""
    name = VIEWS_OF.get(module_id)
    return dict(importlib.import_module(f"{__name__}.{name}").VIEWS) if name else {}


def lines(*rows: str) -> str:
    """Rows joined, each ending with a newline (an empty tuple renders nothing)."""
    return "".join(f"{row}\n" for row in rows)


def more(out: Any, shown: int) -> tuple[str, ...]:
    """The line a page that does not hold every row ends with: how many, and the next one."""
    if not out.get("more"):
        return ()
    return (f"{shown} of {out['total']} shown; the next page: --cursor {out['next_cursor']}",)


def echo(payload: Any, text: str) -> None:
    """The payload's JSON under `--format json`, else the text; both through egress."""
    from majordomus.wire import dumps_pretty  # pydantic: `--version` and `--help` go without

    if settings().format == "json":
        click.echo(clean_json(dumps_pretty(payload), dumps_pretty))
    else:
        click.echo(clean(text), nl=False)
