"""`majordomus help [COMMAND…]`: the help of the program or of any command, as `-h` prints it."""

from __future__ import annotations

import click

from majordomus.cli.settings import with_shared


def command() -> click.Command:
    @click.command(name="help")
    @click.argument("words", nargs=-1, metavar="[COMMAND]...")
    @click.pass_context
    def help_(click_ctx: click.Context, words: tuple[str, ...]) -> None:
        """Print help for the program or a command (`majordomus help objects list`)."""
        ctx = click_ctx.find_root()
        node: click.Command = ctx.command
        for word in words:
            found = node.get_command(ctx, word) if isinstance(node, click.Group) else None
            if found is None:
                raise click.UsageError(f"unrecognized subcommand '{word}'", click_ctx)
            ctx = click.Context(found, info_name=word, parent=ctx)
            node = found
        click.echo(node.get_help(ctx))

    return with_shared(help_)
