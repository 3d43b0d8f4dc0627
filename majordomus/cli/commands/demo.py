"""`majordomus demo [--keep] [DIR]`: a first hour in two minutes."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

import click

from majordomus.cli.settings import with_shared
from majordomus.errors import ProtocolFailure

TASK = "PAY-2"
LAYER = ".ai/repo"
FILES = {
    "README.md": "# payments\n\nA small service that takes card payments and refunds them.\n",
    "src/payments/refunds.py": (
        '"""Refunds: money leaves once per idempotency key."""\n\n\n'
        "def refund(payment_id: str, cents: int, key: str) -> None:\n"
        "    raise NotImplementedError\n"
    ),
    f"{LAYER}/adrs/0001-idempotency-keys.md": (
        "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: Every money movement takes an "
        "idempotency key\nstatus: accepted\ndate: 2026-03-02\n---\n\n# Context\n\nClients "
        "retry on timeouts; a retried refund must not pay out twice.\n\n# Decision\n\nEvery "
        "endpoint that moves money takes an `Idempotency-Key` header and stores the first "
        "answer under it.\n"
    ),
    f"{LAYER}/adrs/0002-integer-cents.md": (
        "---\nschema: adr/v1\nid: adr-0002\nkind: adr\ntitle: Money is an integer number of "
        "cents\nstatus: accepted\ndate: 2026-03-09\n---\n\n# Decision\n\nAmounts are `int` "
        "cents with an ISO currency beside them; no float ever holds money.\n"
    ),
    f"{LAYER}/rules/project/money-in-cents.v1.md": (
        "---\nid: payments.money-in-cents\nversion: 1\nkind: rule\ntitle: Money in integer "
        "cents\nstatement: An amount of money is an int of cents with its currency, never a "
        "float.\nstatus: active\nclass: blocking\n---\n\nSee adr-0002.\n"
    ),
    f"{LAYER}/rules/project/idempotent-writes.v1.md": (
        "---\nid: payments.idempotent-writes\nversion: 1\nkind: rule\ntitle: Idempotent "
        "money movements\nstatement: A handler that moves money answers a repeated key with "
        "the first answer.\nstatus: active\nclass: blocking\n---\n\nSee adr-0001.\n"
    ),
    f"{LAYER}/project/milestones/M1.yaml": (
        "id: M1\ntitle: Refunds v1\noutcome: \"A customer's payment can be refunded, in full "
        'or in part, exactly once."\n'
    ),
    f"{LAYER}/project/issues/PAY-1.yaml": (
        'id: PAY-1\nmilestone: M1\ntitle: Store idempotency keys\nobjective: "Keep the '
        'first answer per key for 24 hours."\nscope:\n  - src/payments\nrelated:\n'
        "  - adr:adr-0001\n"
    ),
    f"{LAYER}/project/issues/PAY-2.yaml": (
        'id: PAY-2\nmilestone: M1\ntitle: Partial refunds\nobjective: "Refund part of a '
        'payment, never more than was paid."\nscope:\n  - src/payments/refunds.py\n'
        "depends_on: [PAY-1]\nrelated:\n  - rule:payments.money-in-cents\n"
        "  - rule:payments.idempotent-writes\n"
    ),
}
ASSESSMENT = {
    "kind": "assessment",
    "subject": "how a partial refund stays within what was paid when two arrive at once",
    "materiality": "material",
    "confidence": "medium",
    "hypothesis": "a row lock on the payment serialises concurrent refunds",
    "evidence": [{"kind": "file", "reference": "src/payments/refunds.py"}],
}
CONCLUSION = {
    "decision": "lock the payment row and check the refunded total inside the transaction",
    "rationale": "the idempotency key stops retries, not two different refunds at once",
    "evidence": [{"kind": "adr", "reference": "adr-0001"}],
    "rejected": ["an optimistic version check: a busy payment would refuse refunds at random"],
    "validation_plan": ["two concurrent partial refunds never exceed the payment"],
}


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


def _build(root: Path) -> None:
    from majordomus.layer.init import init_layer
    from majordomus.synthetic import git

    root.mkdir(parents=True)
    git(root, "init", "-q")
    init_layer(root)
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "A payments service")


def _record(root: Path, record: Mapping[str, object]) -> str:
    """Record one input through the command; the stored record's id."""
    given = root / ".ai/local" / f"{record['kind']}.json"
    given.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    click.echo(given.read_text(encoding="utf-8"), nl=False)
    shown = f"reasoning record --file {record['kind']}.json"
    _step(root, "reasoning", "record", "--file", str(given), shown=shown)
    return sorted((root / ".ai/local/state/reasoning" / TASK).glob(f"{record['kind']}-*"))[-1].stem


def _tour(root: Path) -> None:
    from majordomus.cli.app import top_words

    _say("The layer: 2 decisions, 2 rules, a milestone, 2 issues. lint checks every file.")
    _step(root, "lint")
    _say(
        f"What a session working on {TASK} is given: its milestone, the issue it depends on,",
        "the rules it names and the decisions behind them, within a token budget.",
    )
    _step(root, "devcontext", "compile", "--issue", TASK, "--budget-tokens", "4000")
    _say("Recall: what was decided before, found by meaning.")
    if "recall" in top_words():
        _step(root, "recall", "refund twice")
    else:
        click.echo("(this majordomus has no `recall` command yet; skipped)")
    _say(
        f"The reasoning ledger: records go to the current task ({TASK}), under the",
        "git-ignored .ai/local/. First what is uncertain, as JSON (`majordomus schema",
        "assessment` lists the fields):",
    )
    _step(root, "reasoning", "task", "set", TASK)
    assessment = _record(root, ASSESSMENT)
    _say("What was stored: your input, plus the id, task, time and commit the writer adds.")
    stored = root / ".ai/local/state/reasoning" / TASK / f"{assessment}.json"
    click.echo(f"$ cat {stored.relative_to(root)}")
    click.echo(stored.read_text(encoding="utf-8"), nl=False)
    _say(
        "Then the decision. Its `assessment` may be the id's last 6 characters;",
        "`rejected` keeps the alternatives turned down.",
    )
    short = assessment.split("-")[2]
    _record(root, {"kind": "conclusion", "assessment": short, **CONCLUSION})
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
        if directory is not None and directory.exists():
            raise ProtocolFailure(f"{directory} exists; the demo writes a new folder")
        root = directory or Path(tempfile.mkdtemp(prefix="majordomus-demo-")) / "payments"
        root = root.absolute()
        try:
            _build(root)
            click.echo(f"demo repository  {root}")
            _tour(root)
        finally:
            if not keep:
                shutil.rmtree(root if directory else root.parent, ignore_errors=True)
        _say(
            "Next, in your own repository:",
            "  majordomus init            (or `init --extend` on an existing .ai/ layer)",
            "  majordomus lint            every file read, and what to add where",
            "  majordomus new issue ID --title '…'",
            "  the MCP entry above in .mcp.json, and the pre-commit hooks (docs/pre-commit.md)",
        )
        click.echo(f"# {'kept: ' + str(root) if keep else 'removed ' + str(root)}")

    return with_shared(demo)
