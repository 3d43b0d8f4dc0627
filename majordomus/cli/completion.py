"""Shell completion of values: kinds, object URIs, and issue and milestone ids."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from typing import Any

import click
from click.shell_completion import CompletionItem

from majordomus.cli.settings import Settings

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def offered(value: str, help: str | None = None) -> CompletionItem:
    """A completion as the shell completing will insert it."""
    if os.environ.get("_MAJORDOMUS_COMPLETE", "").startswith("bash"):
        value = shlex.quote(value)
    return CompletionItem(value, help=help)


def _objects(ctx: click.Context) -> list[Any]:
    from majordomus.layer.index import build

    chosen = ctx.ensure_object(Settings)
    try:
        return build(chosen.repo, chosen.discovery).index.objects  # type: ignore[arg-type]
    except Exception:
        return []


def complete_kind(
    _ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    from majordomus.layer.kinds import load_kinds

    return [offered(k) for k in sorted(load_kinds().kinds) if k.startswith(incomplete)]


def complete_uri(
    ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    return [offered(o.uri) for o in _objects(ctx) if o.uri.startswith(incomplete)]


def ids_of(kind: str) -> Completer:
    """Identities of `kind` (a rule completes as `id@version`)."""

    def complete(
        ctx: click.Context, _param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        return [
            offered(o.identity, help=o.title)
            for o in _objects(ctx)
            if o.kind == kind and o.identity.startswith(incomplete)
        ]

    return complete


#: Input field (or flag) name → how its values complete.
BY_FIELD: dict[str, Completer] = {
    "kind": complete_kind,
    "uri": complete_uri,
    "uris": complete_uri,
    "issue": ids_of("issue"),
    "milestone": ids_of("milestone"),
}
