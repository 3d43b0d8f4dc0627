"""`majordomus demo [DIR]`: build a generated, committed repository, record a short reasoning
chain in it, and show what majordomus sees. Everything shown comes from the same capabilities
every surface calls."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from majordomus.cli.commands.mcp import render_inspect
from majordomus.cli.settings import with_shared
from majordomus.errors import ProtocolFailure

if TYPE_CHECKING:
    from majordomus.capabilities.context import Context

DEMO_TASK = "demo"


def _record_chain(ctx: Context, evidence_path: str) -> None:
    """An assessment, its plan, a conclusion and a validation, each naming the one before."""

    def record(body: dict[str, Any]) -> str:
        done = ctx.executor.call("reasoning.record", {"record": body, "task": DEMO_TASK})
        click.echo(f"$ majordomus reasoning record --task {DEMO_TASK}  # {body['kind']}")
        click.echo(f"  recorded {done['path']}")
        return done["record"]["id"]

    assessment = record(
        {
            "kind": "assessment",
            "subject": "which rules a session on the demo must be given",
            "materiality": "material",
            "confidence": "medium",
            "hypothesis": "every advisory rule fits in the default token budget",
            "evidence": [{"kind": "file", "reference": evidence_path}],
        }
    )
    record({"kind": "plan", "assessment": assessment})
    conclusion = record(
        {
            "kind": "conclusion",
            "assessment": assessment,
            "decision": "give every advisory rule; the budget holds them all",
            "rationale": "devcontext compile reports the whole layer under 24000 tokens",
            "evidence": [{"kind": "command", "reference": "majordomus devcontext compile"}],
            "validation_plan": ["compile the context and check the budget"],
        }
    )
    record(
        {
            "kind": "validation",
            "conclusion": conclusion,
            "check": "the compiled context is within budget",
            "command": "majordomus devcontext compile",
            "outcome": "pass",
        }
    )


def command() -> click.Command:
    @click.command(name="demo")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    def demo(directory: Path | None) -> None:
        """Generate a demo repository (default: a new temporary directory) and inspect it."""
        from majordomus.capabilities.context import Context
        from majordomus.mcp.listing import inspect_report
        from majordomus.synthetic import SyntheticRepository

        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="majordomus-demo-"))
        if (directory / ".ai").exists():
            raise ProtocolFailure(f"{directory / '.ai'} already exists; choose an empty directory")
        directory.mkdir(parents=True, exist_ok=True)
        repo = SyntheticRepository.new(at=directory)
        head = repo.commit("majordomus demo")
        click.echo(f"demo repository  {repo.root} (commit {head[:12]})")
        click.echo()
        click.echo(f"$ majordomus mcp --inspect --repo {repo.root}")
        ctx = Context(repo.root)
        click.echo(render_inspect(inspect_report(ctx, read_only=False)), nl=False)
        click.echo()
        _record_chain(ctx, ".ai/repo/rules/project/rule-0.v1.md")
        click.echo()
        click.echo(f"$ majordomus reasoning status --task {DEMO_TASK} --report")
        status = ctx.executor.call("reasoning.status", {"task": DEMO_TASK})
        click.echo(status["report"], nl=not status["report"].endswith("\n"))

    return with_shared(demo)
