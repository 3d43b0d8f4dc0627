"""`majordomus schema KIND`: the JSON Schema of a kind's front matter or YAML file."""

from __future__ import annotations

import click

from majordomus.cli.completion import complete_kind
from majordomus.cli.settings import with_shared


def command() -> click.Command:
    @click.command(name="schema")
    @click.argument("kind", shell_complete=complete_kind)
    def schema(kind: str) -> None:
        """Print the JSON Schema of KIND's metadata (for editors' YAML language servers);
        the same files are in docs/generated/schemas/."""
        from majordomus.layer.reference import render_schema

        click.echo(render_schema(kind), nl=False)

    return with_shared(schema)
