"""The command tree a command line meets is the whole tree, built word by word."""

from __future__ import annotations

import click

from majordomus.capabilities.builtin import builtin_modules
from majordomus.cli.app import Word, lazy_cli
from majordomus.cli.views import VIEWS_OF


def test_every_module_with_a_command_has_its_views() -> None:
    with_cli = {m.id for m in builtin_modules() for cap in m.capabilities if cap.cli}
    assert with_cli <= set(VIEWS_OF)


def _shape(command: click.Command | None) -> object:
    """A command as the user meets it: its kind, help, options, and each subcommand's shape,
    reached the way a command line reaches it (`get_command`, so a lazy group builds it)."""
    assert command is not None
    params = [(type(p).__name__, p.name, tuple(p.opts)) for p in command.params]
    below: dict[str, object] = {}
    if isinstance(command, click.Group):
        for name in command.list_commands(None):  # type: ignore[arg-type]
            below[name] = _shape(command.get_command(None, name))  # type: ignore[arg-type]
    return (type(command).__name__, command.help, command.short_help, params, below)


def _build_all(command: click.Command | None) -> None:
    if isinstance(command, Word):
        for name in command.list_commands(None):  # type: ignore[arg-type]
            _build_all(command.get_command(None, name))  # type: ignore[arg-type]


def test_the_lazy_tree_resolves_to_the_whole_tree() -> None:
    whole = lazy_cli()
    _build_all(whole)
    lazy = lazy_cli()
    assert lazy.list_commands(None) == whole.list_commands(None)  # type: ignore[arg-type]
    assert _shape(lazy) == _shape(whole)
