"""Errors handled once: every failure becomes one `majordomus: ` line and an exit code."""

from __future__ import annotations

import sys

import click

from majordomus.egress import clean_line
from majordomus.errors import EXIT_REFUSED, EXIT_USAGE, CapabilityError, Fatal


def fail(message: str) -> None:
    """Write one error line on stderr: newlines folded, then redacted and controls escaped
    (an error may quote repository content)."""
    line = clean_line(" ".join(message.split("\n")))
    sys.stderr.write(f"majordomus: {line}\n")
    sys.stderr.flush()


def exit_code_for(exc: BaseException) -> int:
    """Render `exc` as one line and return the exit code it means."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        name = exc.ctx.command_path if exc.ctx else "majordomus"
        fail(f"missing subcommand; `{name} --help` lists them")
        return EXIT_USAGE
    if isinstance(exc, Fatal):
        fail(exc.message)
        return exc.exit_code
    if isinstance(exc, CapabilityError):
        fail(f"{exc.words}: {exc.cli}")
        return exc.exit_code
    if isinstance(exc, click.ClickException):  # a usage error among them: exit 2
        fail(exc.format_message())
        return exc.exit_code
    fail(f"internal: {type(exc).__name__}: {exc}")
    return EXIT_REFUSED
