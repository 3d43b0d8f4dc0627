"""`majordomus init`: write a layer skeleton, or complete an existing one, never overwriting."""

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
        help="Complete an existing layer: the skeleton files it lacks, the `.gitignore` line "
        "and the classes sources.yaml lacks; never touch a file otherwise.",
    )
    @click.option(
        "--sources",
        is_flag=True,
        help="Only append to sources.yaml the classes for the sections no class reads.",
    )
    @click.option(
        "--ignore-local",
        is_flag=True,
        help="Only add `.ai/local/` to `.gitignore` (the ledger stays out of git).",
    )
    def init(path: Path | None, extend: bool, sources: bool, ignore_local: bool) -> None:
        """Write a fresh `.ai/` layer here (or in PATH, or --repo) and git-ignore `.ai/local/`."""
        from majordomus.layer.init import init_layer

        target = (path or settings().repo or Path.cwd()).resolve()
        ignore_existed = (target / ".gitignore").is_file()
        created = init_layer(target, extend=extend, sources=sources, ignore_local=ignore_local)
        if not created and (extend or sources or ignore_local):
            click.echo("complete    nothing was missing")
            return
        for rel in created:
            grew = "(class" in rel or (rel == ".gitignore" and ignore_existed)
            click.echo(f"{'extended' if grew else 'created':<12}{rel}")
        if sources or ignore_local:
            click.echo("next        commit it, then `majordomus lint`")
            return
        click.echo(
            "next        git add -A && git commit -m 'Add the .ai layer', then `majordomus lint`"
        )
        click.echo(
            "write       `majordomus new issue|rule|adr|milestone|prompt|knowledge …`; every "
            "kind and key: docs/generated/layer.md of majordomus"
        )

    return with_shared(init)
