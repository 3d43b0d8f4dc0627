"""Process commands that are not capabilities: init, demo, mcp, serve, validate, generate.

Each lives in its own file, imported only when its words are invoked (or the whole tree is
listed), so `majordomus mcp` never imports what `majordomus serve` needs.
"""

from __future__ import annotations

import importlib

import click

#: The words of each process command → the file whose `command()` builds it.
PROCESS_COMMANDS: dict[tuple[str, ...], str] = {
    ("init",): "majordomus.cli.commands.init",
    ("demo",): "majordomus.cli.commands.demo",
    ("mcp",): "majordomus.cli.commands.mcp",
    ("capabilities", "validate"): "majordomus.cli.commands.validate",
    ("serve",): "majordomus.cli.commands.serve",
    ("generate",): "majordomus.cli.commands.generate",
    ("reasoning", "task"): "majordomus.cli.commands.task",
    ("reasoning", "export"): "majordomus.cli.commands.export",
}


def process_commands(first_word: str | None = None) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every process command, or only those whose first word is `first_word`."""
    return [
        (words, importlib.import_module(name).command())
        for words, name in PROCESS_COMMANDS.items()
        if first_word is None or words[0] == first_word
    ]
