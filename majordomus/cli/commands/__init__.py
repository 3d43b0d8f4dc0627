"""Process commands that are not capabilities: init, demo, mcp, serve, validate, generate."""

from __future__ import annotations

import click


def PROCESS_COMMANDS() -> list[tuple[tuple[str, ...], click.Command]]:  # noqa: N802
    from majordomus.cli.commands import init, mcp, validate

    return [
        (("init",), init.command()),
        (("mcp",), mcp.command()),
        (("capabilities", "validate"), validate.command()),
    ]
