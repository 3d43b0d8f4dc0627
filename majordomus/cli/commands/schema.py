"""`majordomus schema KIND`: the JSON Schema of a kind's front matter or YAML file."""

from __future__ import annotations

import click


def _kinds() -> list[str]:
    from majordomus.layer.reference import schema_kinds

    return schema_kinds()


def command() -> click.Command:
    @click.command(name="schema")
    @click.argument(
        "kind",
        shell_complete=lambda *_: [click.shell_completion.CompletionItem(k) for k in _kinds()],
    )
    def schema(kind: str) -> None:
        """Print the JSON Schema of KIND's metadata (for editors' YAML language servers);
        the same files are in docs/generated/schemas/."""
        from majordomus.layer.reference import render_schema

        click.echo(render_schema(kind), nl=False)

    return schema
