"""`majordomus demo [--keep] [DIR]`: a first hour in two minutes."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from majordomus.cli.settings import with_shared


def _say(*lines: str) -> None:
    click.echo()
    for line in lines:
        click.echo(f"# {line}")


def _step(root: Path, *args: str, shown: str | None = None) -> int:
    """Show the command as typed, then run it here, on the demo repository."""
    from majordomus.cli.app import run

    click.echo(f"$ majordomus {shown or ' '.join(args)}")
    sys.stdout.flush()
    return run([*args, "--repo", str(root)])


def _record(root: Path, record: dict[str, Any]) -> str:
    """Record one input through the command; the stored record's id."""
    from majordomus.synthetic import demo_input, newest_demo_record

    rel, text = demo_input(root, record)
    click.echo(text, nl=False)
    shown = f"reasoning record --file {record['kind']}.json"
    _step(root, "reasoning", "record", "--file", str(root / rel), shown=shown)
    return Path(newest_demo_record(root, str(record["kind"]))[0]).stem


def _tour(root: Path) -> None:
    from majordomus.synthetic import DEMO_TASK, demo_data, newest_demo_record

    _say("The layer: 2 decisions, 2 rules, a milestone, 2 issues. lint checks every file.")
    _step(root, "lint")
    _say(
        f"What a session working on {DEMO_TASK} is given: its milestone, the issue it depends on,",
        "the rules it names and the decisions behind them, within a token budget.",
    )
    _step(root, "devcontext", "compile", "--issue", DEMO_TASK, "--budget-tokens", "4000")
    _say("Recall: what was decided before, found by meaning.")
    _step(root, "recall", "refund twice")
    _say(
        f"The reasoning ledger: records go to the current task ({DEMO_TASK}), under the",
        "git-ignored .ai/local/. First what is uncertain, as JSON (`majordomus schema",
        "assessment` lists the fields):",
    )
    _step(root, "reasoning", "task", "set", DEMO_TASK)
    assessment = _record(root, demo_data()["assessment"])
    _say("What was stored: your input, plus the id, task, time and commit the writer adds.")
    stored, text = newest_demo_record(root, "assessment")
    click.echo(f"$ cat {stored}")
    click.echo(text, nl=False)
    _say(
        "Then the decision. Its `assessment` may be the id's last 6 characters;",
        "`rejected` keeps the alternatives turned down.",
    )
    short = assessment.split("-")[2]
    _record(root, {"kind": "conclusion", "assessment": short, **demo_data()["conclusion"]})
    _say("Where the task stands, replayed from the records:")
    _step(root, "reasoning", "status")
    _say("The handover the next session starts from:")
    _step(root, "reasoning", "handover")
    _say(
        "For an MCP client: paste this into .mcp.json at the root of your repository",
        "(Claude Code; Cursor reads .cursor/mcp.json). README shows every client.",
    )
    entry = {"mcpServers": {"majordomus": {"command": _executable(), "args": ["mcp"]}}}
    click.echo(json.dumps(entry, indent=2))


def _executable() -> str:
    """This majordomus as a client should start it: on PATH by name, else by its path."""
    found = shutil.which("majordomus")
    here = Path(sys.argv[0]).resolve()
    return "majordomus" if found and Path(found).resolve() == here else str(here)


def command() -> click.Command:
    @click.command(name="demo")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @click.option("--keep", is_flag=True, help="Keep the demo repository to explore it.")
    def demo(directory: Path | None, keep: bool) -> None:
        """Build a small payments service in DIR (default: a new temporary folder), show what
        a session does with it, step by step, then remove it (unless --keep)."""
        from majordomus.synthetic import demo_repository

        with demo_repository(directory, keep=keep) as root:
            click.echo(f"demo repository  {root}")
            _tour(root)
        _say(
            "Next, in your own repository:",
            "  majordomus init            (or `init --extend` on an existing .ai/ layer)",
            "  majordomus lint            every file read, and what to add where",
            "  majordomus new issue ID --title '…'",
            "  the MCP entry above in .mcp.json, and the pre-commit hooks (docs/pre-commit.md)",
        )
        click.echo(f"# {'kept: ' + str(root) if keep else 'removed ' + str(root)}")

    return with_shared(demo)
