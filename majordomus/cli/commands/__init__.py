"""Process commands that are not capabilities: init, demo, mcp, serve, validate, generate,
lint, schema, new, help.
"""

from __future__ import annotations

from collections.abc import Callable

import click


def _init() -> click.Command:
    from majordomus.cli.commands import init

    return init.command()


def _demo() -> click.Command:
    from majordomus.cli.commands import demo

    return demo.command()


def _mcp() -> click.Command:
    from majordomus.cli.commands import mcp

    return mcp.command()


def _validate() -> click.Command:
    from majordomus.cli.commands import validate

    return validate.command()


def _serve() -> click.Command:
    from majordomus.cli.commands import serve

    return serve.command()


def _generate() -> click.Command:
    from majordomus.cli.commands import generate

    return generate.command()


def _task_show() -> click.Command:
    from majordomus.cli.commands import task

    return task.show_command()


def _task_set() -> click.Command:
    from majordomus.cli.commands import task

    return task.set_command()


def _task_list() -> click.Command:
    from majordomus.cli.commands import task

    return task.list_command()


def _export() -> click.Command:
    from majordomus.cli.commands import export

    return export.command()


def _lint() -> click.Command:
    from majordomus.cli.commands import lint

    return lint.command()


def _schema() -> click.Command:
    from majordomus.cli.commands import schema

    return schema.command()


def _new() -> click.Command:
    from majordomus.cli.commands import new

    return new.command()


def _help() -> click.Command:
    from majordomus.cli.commands import help

    return help.command()


#: The words of each process command → the function that imports its file and builds it.
PROCESS_COMMANDS: dict[tuple[str, ...], Callable[[], click.Command]] = {
    ("init",): _init,
    ("demo",): _demo,
    ("mcp",): _mcp,
    ("capabilities", "validate"): _validate,
    ("serve",): _serve,
    ("generate",): _generate,
    ("reasoning", "task", "show"): _task_show,
    ("reasoning", "task", "set"): _task_set,
    ("reasoning", "task", "list"): _task_list,
    ("reasoning", "export"): _export,
    ("lint",): _lint,
    ("schema",): _schema,
    ("new",): _new,
    ("help",): _help,
}

#: The process commands that serve until stopped.
SERVERS = ("mcp", "serve")


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
            return word in SERVERS and "--inspect" not in args
    return False
