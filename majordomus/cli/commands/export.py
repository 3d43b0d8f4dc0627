"""`majordomus reasoning export --sqlite FILE | --format jsonl [--output FILE] [--force]`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from majordomus.cli.settings import settings, shared_params


def command() -> click.Command:
    @click.command(name="export")
    @click.option(
        "--sqlite",
        "sqlite_file",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Write a SQLite database here: a table per record kind, `timeline` and `standing` "
        "views.",
    )
    @click.option(
        "--format",
        "export_format",
        type=click.Choice(["jsonl"]),
        help="Write JSON Lines: one stored record per line, in canonical order.",
    )
    @click.option(
        "--output",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Write the JSON Lines to this file instead of standard output.",
    )
    @click.option("--force", is_flag=True, default=False, help="Replace an existing file.")
    def export(
        sqlite_file: Path | None, export_format: str | None, output: Path | None, force: bool
    ) -> None:
        """Copy the reasoning records out for analysis; the copy is never read back."""
        from majordomus.ledger.store import Store
        from majordomus.projections.export import jsonl, publish, sqlite_bytes

        if (sqlite_file is None) == (export_format is None):
            raise click.UsageError("give exactly one of --sqlite FILE and --format jsonl")
        if output is not None and export_format is None:
            raise click.UsageError("--output goes with --format jsonl")
        loaded = Store(settings().context().root).load()
        data = sqlite_bytes(loaded) if sqlite_file else jsonl(loaded)
        target = sqlite_file or output
        if target is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
            return
        publish(target, data, force=force)
        click.echo(f"exported    {len(loaded.records)} record(s) to {target}")

    export.params.extend(p for p in shared_params() if p.name != "format")
    return export
