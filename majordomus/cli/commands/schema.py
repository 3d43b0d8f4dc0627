"""`majordomus schema KIND`: the JSON Schema of a layer kind's metadata or a record kind's input."""

from __future__ import annotations

import click

from majordomus.cli.completion import complete_kind
from majordomus.cli.settings import with_shared


def command() -> click.Command:
    @click.command(name="schema")
    @click.argument("kind", shell_complete=complete_kind)
    def schema(kind: str) -> None:
        """Print the JSON Schema of KIND: a layer kind's metadata (for editors' YAML language
        servers; also in docs/generated/schemas/) or a reasoning record kind's input
        (`assessment`, `plan`, `conclusion`, …: what `reasoning record` takes)."""
        from majordomus.layer.reference import UnknownKind, render_schema
        from majordomus.ledger.record import KINDS, input_schema

        record = input_schema(kind)
        if record is not None:
            from majordomus.wire import dumps_pretty

            click.echo(dumps_pretty(record))
            return
        try:
            click.echo(render_schema(kind), nl=False)
        except UnknownKind as exc:
            raise UnknownKind(f"{exc.message}; or a record kind: {', '.join(KINDS)}") from None

    return with_shared(schema)
