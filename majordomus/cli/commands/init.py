"""`majordomus init [PATH]`: write a layer skeleton, never overwriting anything."""

from __future__ import annotations

from pathlib import Path

import click


def command() -> click.Command:
    @click.command(name="init")
    @click.argument("path", required=False, type=click.Path(path_type=Path))
    def init(path: Path | None) -> None:
        """Write a fresh `.ai/` layer here (or in PATH) and git-ignore `.ai/local/`."""
        from majordomus.layer.init import init_layer

        target = (path or Path.cwd()).resolve()
        created = init_layer(target)
        for rel in created:
            click.echo(f"created     {rel}")
        click.echo(
            "next        git add -A && git commit -m 'Add the .ai layer', "
            "then `majordomus mcp --inspect`"
        )

    return init
