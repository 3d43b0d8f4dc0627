"""`majordomus lint`: every diagnostic `mcp --inspect` finds, and prompt placeholders unfilled."""

from __future__ import annotations

from typing import Any

import click

from majordomus.cli.settings import settings, with_shared
from majordomus.cli.views import echo, lines
from majordomus.egress import one_line
from majordomus.errors import EXIT_CONTRACT

LEVEL_WORD = {"error": "FAIL", "warning": "WARN", "info": "INFO"}


def diagnostic_row(d: dict[str, Any]) -> str:
    """One diagnostic as `lint` and `mcp --inspect` print it: one line, whatever its path holds."""
    return one_line(
        f"{LEVEL_WORD[d['severity']]:<4} {d['code']:<22} {d.get('path', '-')} — {d['message']}"
    )


def command() -> click.Command:
    @click.command(name="lint")
    def lint() -> None:
        """Check the layer: every file read, every key and reference; exit 10 on an error
        (with --strict, on any finding). Keys and kinds: docs/generated/layer.md."""
        from majordomus.capabilities.builtin import declared
        from majordomus.capabilities.workspace import Workspace
        from majordomus.cli.logs import quiet_by_default
        from majordomus.layer.coverage import lines_to_add
        from majordomus.layer.prompts import undeclared_placeholders

        quiet_by_default()
        chosen = settings()
        ctx = Workspace(chosen.repo, discovery=chosen.discovery, watch=False)
        answer = ctx.executor.answer(declared("repository.info"), {}, fresh=True)
        info = answer.model_dump(mode="json", by_alias=True)
        diagnostics = info["diagnostics"]
        diagnostics += [d.to_json() for d in undeclared_placeholders(ctx.index.objects)]
        rows = [diagnostic_row(d) for d in diagnostics]
        rows += lines_to_add(ctx.index).splitlines()
        counts = {s: sum(1 for d in diagnostics if d["severity"] == s) for s in LEVEL_WORD}
        rows.append(
            f"lint: {sum(info['kinds'].values())} object(s), {counts['error']} error(s), "
            f"{counts['warning']} warning(s); state {info['state']}"
        )
        echo(info, lines(*rows))
        failing = info["state"] != "ok" or (chosen.strict and bool(diagnostics))
        if failing:
            click.get_current_context().exit(EXIT_CONTRACT)

    return with_shared(lint)
