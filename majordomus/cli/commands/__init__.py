"""Process commands that are not capabilities, each built from its own module on use."""

from __future__ import annotations

import importlib

import click

#: The words of each process command → its module here and the function in it that builds it.
PROCESS_COMMANDS: dict[tuple[str, ...], tuple[str, str]] = {
    ("init",): ("init", "command"),
    ("demo",): ("demo", "command"),
    ("mcp",): ("mcp", "command"),
    ("capabilities", "validate"): ("validate", "command"),
    ("serve",): ("serve", "command"),
    ("generate",): ("generate", "command"),
    ("reasoning", "task", "show"): ("task", "show_command"),
    ("reasoning", "task", "set"): ("task", "set_command"),
    ("reasoning", "task", "list"): ("task", "list_command"),
    ("reasoning", "export"): ("export", "command"),
    ("lint",): ("lint", "command"),
    ("schema",): ("schema", "command"),
    ("new",): ("new", "command"),
    ("help",): ("help", "command"),
}


def process_command(words: tuple[str, ...]) -> click.Command:
    """The process command at `words`, importing only its own file."""
    module, builder = PROCESS_COMMANDS[words]
    command: click.Command = getattr(importlib.import_module(f"{__name__}.{module}"), builder)()
    return command


def is_server(args: list[str]) -> bool:
    """Whether this command line starts a long-lived server (`mcp --inspect` is one-shot):
    its command word is the first that is neither an option nor a shared option's value."""
    from majordomus.cli.settings import shared_params

    valued = {
        name
        for param in shared_params()
        if isinstance(param, click.Option) and not param.is_flag
        for name in param.opts
    }
    words = iter(args)
    for word in words:
        if word in valued:
            next(words, None)
        elif not word.startswith("-"):
            return word in ("mcp", "serve") and "--inspect" not in args
    return False
