"""`majordomus demo [DIR]`: build a generated, committed repository and show what majordomus
sees in it. Everything shown comes from the same capabilities every surface calls."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from majordomus.cli.commands.mcp import render_inspect
from majordomus.errors import ProtocolFailure


def command() -> click.Command:
    @click.command(name="demo")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    def demo(directory: Path | None) -> None:
        """Generate a demo repository (default: a new temporary directory) and inspect it."""
        from majordomus.capabilities.context import Context
        from majordomus.mcp.listing import inspect_report
        from majordomus.synthetic import SyntheticRepository

        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="majordomus-demo-"))
        if (directory / ".ai").exists():
            raise ProtocolFailure(f"{directory / '.ai'} already exists; choose an empty directory")
        directory.mkdir(parents=True, exist_ok=True)
        repo = SyntheticRepository.new(at=directory)
        head = repo.commit("majordomus demo")
        click.echo(f"demo repository  {repo.root} (commit {head[:12]})")
        click.echo()
        click.echo(f"$ majordomus mcp --inspect --repo {repo.root}")
        report = inspect_report(Context(repo.root), read_only=False)
        click.echo(render_inspect(report), nl=False)

    return demo
