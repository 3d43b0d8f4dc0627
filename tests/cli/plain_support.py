"""What the tests of the two plain command-line paths (`majordomus.cli.plain`,
`majordomus.cli.plain_reasoning`) read alike: the click command they stand in for, its
option table, and a probe of the modules a plain answer imports."""

from __future__ import annotations

import click

from majordomus.cli.app import lazy_cli


def click_command(group: str, name: str) -> click.Command:
    """The click command `majordomus <group> <name>`."""
    found = lazy_cli().get_command(None, group)  # type: ignore[arg-type]
    assert isinstance(found, click.Group)
    command = found.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None
    return command


def option_table(command: click.Command) -> tuple[dict[str, tuple[str, ...] | None], set[str]]:
    """The spellings of `command`'s options taking a value (a choice's values, else None),
    and those of its flags; every parameter is an optional option taking one value or none."""
    assert all(isinstance(p, click.Option) for p in command.params)  # no positional argument
    taking: dict[str, tuple[str, ...] | None] = {}
    flags: set[str] = set()
    for option in command.params:
        assert isinstance(option, click.Option)
        assert not option.multiple and option.nargs == 1 and not option.required
        for spelling in option.opts + option.secondary_opts:
            if option.is_flag:
                flags.add(spelling)
            elif isinstance(option.type, click.Choice):
                taking[spelling] = tuple(option.type.choices)
            else:
                taking[spelling] = None
    return taking, flags


def import_probe(module: str) -> str:
    """A script running the entry point on its arguments, then writing to stderr a last line
    `<MODULE> True` or `<MODULE> False`: whether `module` was imported on the way."""
    return (
        "import sys\n"
        "from majordomus.cli.entry import main\n"
        "sys.argv = ['majordomus', *sys.argv[1:]]\n"
        "code = main()\n"
        "sys.stdout.flush()\n"
        f"sys.stderr.write('\\n{module.upper()} ' + str({module!r} in sys.modules) + '\\n')\n"
        "sys.exit(code)\n"
    )
