"""`majordomus reasoning task show|set NAME|list`: the current task records go to by default."""

from __future__ import annotations

import click

from majordomus.cli.settings import settings, with_shared
from majordomus.cli.views import echo


def show_command() -> click.Command:
    @click.command(name="show")
    def show() -> None:
        """Print the current task (`untasked` when none is set)."""
        from majordomus.ledger.tasks import UNTASKED, current_task

        task = current_task(settings().context().root)
        echo({"task": task, "set": task != UNTASKED}, f"{task}\n")

    return with_shared(show)


def set_command() -> click.Command:
    @click.command(name="set")
    @click.argument("name")
    def set_(name: str) -> None:
        """Make NAME the current task (letters, digits, '.', '_' and '-'; not `all`)."""
        from majordomus.ledger.tasks import set_current_task

        path = set_current_task(settings().context().root, name)
        echo({"task": name, "path": path}, f"current task {name} ({path})\n")

    return with_shared(set_)


def list_command() -> click.Command:
    @click.command(name="list")
    def list_() -> None:
        """List the tasks that have records, with their counts; `*` marks the current one."""
        from majordomus.ledger.store import Store
        from majordomus.projections.handover import task_counts

        store = Store(settings().context().root)
        current = store.current_task()
        counts = task_counts(store.load().records)
        rows = [
            f"{'*' if t.task == current else ' '} {t.task:<32} {t.records} record(s)\n"
            for t in counts
        ]
        echo({"current": current, "tasks": [t.wire() for t in counts]}, "".join(rows))

    return with_shared(list_)
