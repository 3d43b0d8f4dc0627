"""How a capability looks on the command line beyond its input fields."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

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


#: The view of a capability that declares none: its answer is printed as JSON.
JSON_ONLY = CliView()


def _core() -> Mapping[str, CliView]:
    from majordomus.cli.views import core

    return core.VIEWS


def _reasoning() -> Mapping[str, CliView]:
    from majordomus.cli.views import reasoning

    return reasoning.VIEWS


def _recall() -> Mapping[str, CliView]:
    from majordomus.cli.views import recall

    return recall.VIEWS


def _devcontext() -> Mapping[str, CliView]:
    from majordomus.cli.views import devcontext

    return devcontext.VIEWS


#: A capability module id → the views of its capabilities (a module without views takes none).
VIEWS_OF: dict[str, Callable[[], Mapping[str, CliView]]] = {
    "objects": _core,
    "capabilities": _core,
    "reasoning": _reasoning,
    "recall": _recall,
    "devcontext": _devcontext,
}


def views_of(module_id: str) -> dict[str, CliView]:
    """The views of one capability module's capabilities, importing only their file."""
    views = VIEWS_OF.get(module_id)
    return dict(views()) if views is not None else {}


def lines(*rows: str) -> str:
    """Rows joined, each ending with a newline (an empty tuple renders nothing)."""
    return "".join(f"{row}\n" for row in rows)


def more(out: Any, shown: int) -> tuple[str, ...]:
    """The line a page that does not hold every row ends with: how many, and the next one."""
    if not out.get("more"):
        return ()
    return (f"{shown} of {out['total']} shown; the next page: --cursor {out['next_cursor']}",)
