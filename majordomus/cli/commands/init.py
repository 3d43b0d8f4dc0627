"""`majordomus init [--extend] [PATH]`: write a layer skeleton, never overwriting anything."""

from __future__ import annotations

from pathlib import Path

import click

from majordomus.cli.settings import settings, with_shared


def command() -> click.Command:
    @click.command(name="init")
    @click.argument("path", required=False, type=click.Path(path_type=Path))
    @click.option(
        "--extend",
        is_flag=True,
        help="Add the skeleton files an existing layer lacks; never touch one that exists.",
    )
    def init(path: Path | None, extend: bool) -> None:
        """Write a fresh `.ai/` layer here (or in PATH, or --repo) and git-ignore `.ai/local/`."""
        from majordomus.layer.init import init_layer

        target = (path or settings().repo or Path.cwd()).resolve()
        created = init_layer(target, extend=extend)
        if extend and not created:
            click.echo("complete    nothing was missing")
            return
        for rel in created:
            click.echo(f"created     {rel}")
        click.echo(
            "next        git add -A && git commit -m 'Add the .ai layer', then `majordomus lint`"
        )
        click.echo(
            "write       `majordomus new issue|rule|adr|milestone|prompt|knowledge …`; every "
            "kind and key: docs/generated/layer.md of majordomus"
        )

    return with_shared(init)
