"""`majordomus demo [DIR]`: build a generated, committed repository, record a short reasoning
chain in it, and show what majordomus sees. The chain is written and replayed through the
library (`majordomus.Repository`, docs/library.md), which answers what every surface answers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from majordomus.cli.commands.mcp import render_inspect
from majordomus.cli.settings import with_shared
from majordomus.errors import ProtocolFailure

if TYPE_CHECKING:
    from majordomus.ledger.record import ReasoningInput
    from majordomus.repository import Repository

DEMO_TASK = "demo"


def _record_chain(repo: Repository, evidence_path: str) -> None:
    """An assessment, its plan, a conclusion and a validation, each naming the one before."""
    from majordomus.advisors.policy import Materiality, ReasoningConfidence
    from majordomus.ledger.record import (
        AssessmentInput,
        ConclusionInput,
        PlanInput,
        ReasoningEvidence,
        ReasoningEvidenceKind,
        ValidationInput,
        ValidationOutcome,
    )

    def record(given: ReasoningInput) -> str:
        done = repo.ledger.record(given, task=DEMO_TASK)
        click.echo(f"$ majordomus reasoning record --task {DEMO_TASK}  # {given.kind}")
        click.echo(f"  recorded {done.path}")
        return done.record.id

    assessment = record(
        AssessmentInput(
            subject="which rules a session on the demo must be given",
            materiality=Materiality.MATERIAL,
            confidence=ReasoningConfidence.MEDIUM,
            hypothesis="every advisory rule fits in the default token budget",
            evidence=[ReasoningEvidence(kind=ReasoningEvidenceKind.FILE, reference=evidence_path)],
        )
    )
    record(PlanInput(assessment=assessment))
    conclusion = record(
        ConclusionInput(
            assessment=assessment,
            decision="give every advisory rule; the budget holds them all",
            rationale="devcontext compile reports the whole layer under 24000 tokens",
            evidence=[
                ReasoningEvidence(
                    kind=ReasoningEvidenceKind.COMMAND, reference="majordomus devcontext compile"
                )
            ],
            validation_plan=["compile the context and check the budget"],
        )
    )
    record(
        ValidationInput(
            conclusion=conclusion,
            check="the compiled context is within budget",
            command="majordomus devcontext compile",
            outcome=ValidationOutcome.PASS,
        )
    )


def command() -> click.Command:
    @click.command(name="demo")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    def demo(directory: Path | None) -> None:
        """Generate a demo repository (default: a new temporary directory) and inspect it."""
        from majordomus.mcp.listing import inspect_report
        from majordomus.repository import Repository
        from majordomus.synthetic import SyntheticRepository

        try:
            repo = SyntheticRepository.kept(directory)
        except FileExistsError as exc:
            raise ProtocolFailure(str(exc)) from None
        head = repo.commit("majordomus demo")
        click.echo(f"demo repository  {repo.root} (commit {head[:12]})")
        click.echo()
        click.echo(f"$ majordomus mcp --inspect --repo {repo.root}")
        library = Repository.open(repo.root)
        click.echo(render_inspect(inspect_report(library.workspace, read_only=False)), nl=False)
        click.echo()
        _record_chain(library, ".ai/repo/rules/project/rule-0.v1.md")
        click.echo()
        click.echo(f"$ majordomus reasoning status --task {DEMO_TASK} --report")
        report = library.ledger.status(DEMO_TASK).report
        click.echo(report, nl=not report.endswith("\n"))

    return with_shared(demo)
