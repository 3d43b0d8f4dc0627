"""`majordomus mcp`: serve the layer over stdio, or print the index report (`--inspect`)."""

from __future__ import annotations

from typing import Any

import click

from majordomus.cli.commands.lint import diagnostic_row
from majordomus.cli.settings import settings, with_shared
from majordomus.cli.views import echo, lines
from majordomus.errors import EXIT_CONTRACT


def render_inspect(report: dict[str, Any]) -> str:
    """The text form of docs/layer.md: 12-character labels, then one line per diagnostic."""
    info = report["repository"]
    rows = [
        f"{'repository':<12}{info['repository']['root']}",
        f"{'discovery':<12}{info['repository']['discovery']}",
        f"{'state':<12}{info['state']}",
    ]
    rows += [f"{'kind':<12}{kind:<12} {count}" for kind, count in info["kinds"].items()]
    rows += [f"{'resource':<12}{r['uri']}" for r in report["resources"]]
    rows += [f"{'tool':<12}{t['name']}" for t in report["tools"]]
    rows += [diagnostic_row(d) for d in info["diagnostics"]]
    return lines(*rows)


def command() -> click.Command:
    @click.command(name="mcp")
    @click.option("--read-only", is_flag=True, help="Leave out every command tool; write nothing.")
    @click.option(
        "--inspect", is_flag=True, help="Print what would be served and every diagnostic."
    )
    @click.option("--transport", type=click.Choice(["stdio"]), default="stdio", help="Only stdio.")
    def mcp(read_only: bool, inspect: bool, transport: str) -> None:
        """Serve the repository's AI layer to an MCP client over stdio."""
        chosen = settings()
        ctx = chosen.context(serving=not inspect)
        if inspect:
            from majordomus.layer.coverage import lines_to_add
            from majordomus.mcp.listing import inspect_report

            report = inspect_report(ctx, read_only)
            echo(report, render_inspect(report) + lines_to_add(ctx.index))
            if report["repository"]["state"] != "ok":
                click.get_current_context().exit(EXIT_CONTRACT)
            return
        from majordomus.mcp.server import serve

        click.get_current_context().exit(serve(ctx, read_only=read_only))

    return with_shared(mcp)
