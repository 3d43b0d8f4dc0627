"""Process commands that are not capabilities: init, demo, mcp, serve, validate, generate."""

from __future__ import annotations

import click


def process_commands() -> list[tuple[tuple[str, ...], click.Command]]:
    from majordomus.cli.commands import demo, generate, init, mcp, serve, validate

    return [
        (("init",), init.command()),
        (("demo",), demo.command()),
        (("mcp",), mcp.command()),
        (("capabilities", "validate"), validate.command()),
        (("serve",), serve.command()),
        (("generate",), generate.command()),
    ]
