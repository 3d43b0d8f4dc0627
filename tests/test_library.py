"""The library answers what the command line answers: `majordomus.Repository` against the
installed `majordomus --format json` on the same repository, and docs/library.md's examples
run as written."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import majordomus
from majordomus import (
    AssessmentInput,
    CompileInput,
    ConclusionInput,
    Materiality,
    NotFound,
    PlanInput,
    ReasoningEvidence,
    ReasoningEvidenceKind,
    Refused,
    Repository,
)
from majordomus.synthetic import SyntheticRepository
from tests.conftest import REPO_ROOT, REVIEWER_CATALOGUE, command_env, run_majordomus
from tests.layer.support import write

HANDOVER = """\
---
created_at: 2026-10-01T09:00:00Z
branch: master
task_id: library
next_action: read docs/library.md
---
# Handover

Where the library work stands.
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated repository with an advisor catalogue and a local handover, committed."""
    at = tmp_path_factory.mktemp("library") / "repo"
    repo = SyntheticRepository.new(at=at)
    (at / ".ai" / "repo" / "advisors.yaml").write_text(REVIEWER_CATALOGUE, encoding="utf-8")
    repo.commit("library")
    write(at, ".ai/local/state/handovers/20261001T090000Z.md", HANDOVER)
    return at


@pytest.fixture(scope="module")
def repo(root: Path) -> Repository:
    return Repository.open(root, environ=command_env())


def cli(root: Path, *args: str, stdin: str | None = None) -> Any:
    """The JSON answer of `majordomus <args> --format json` in `root`."""
    done = run_majordomus([*args, "--format", "json"], cwd=root, input=stdin)
    assert done.code in (0, 10), done.stderr
    return json.loads(done.stdout)


def wire(model: BaseModel) -> Any:
    """What `--format json` prints for a handler's answer."""
    return model.model_dump(mode="json", by_alias=True)


def test_objects_get_and_search_are_the_commands_answers(root: Path, repo: Repository) -> None:
    info = cli(root, "objects", "get", "majordomus://repository")["answer"]
    assert wire(repo.info()) == info
    assert wire(repo.objects()) == cli(root, "objects", "list")
    assert wire(repo.objects(kind="rule")) == cli(root, "objects", "list", "--kind", "rule")
    first = repo.objects(kind="rule").objects[0]
    assert wire(repo.get(first.uri)) == cli(root, "objects", "get", first.uri)
    assert wire(repo.search("rule", limit=3)) == cli(
        root, "objects", "search", "rule", "--limit", "3"
    )
    assert len(repo.index.objects) == repo.objects().count


def test_compile_context_is_the_commands_answer_with_local_continuity(
    root: Path, repo: Repository
) -> None:
    compiled = repo.compile_context()
    assert wire(compiled) == cli(root, "devcontext", "compile")
    assert ".ai/local/state/handovers/20261001T090000Z.md" in json.dumps(wire(compiled))
    rule = repo.objects(kind="rule").objects[0].uri
    request = CompileInput(uris=[rule], intent="the rules a session is given", budget_tokens=900)
    flags = ["--uri", rule, "--intent", "the rules a session is given", "--budget-tokens", "900"]
    assert wire(repo.compile_context(request)) == cli(root, "devcontext", "compile", *flags)
    other = repo.objects(kind="document").objects[-1].uri
    for uri in (rule, other, "majordomus://rule/absent@1"):
        assert wire(repo.explain_standing(uri, request)) == cli(
            root, "devcontext", "explain", uri, *flags
        )


def _without_minted(answer: Any, ident: str, stamp: str) -> str:
    """The answer's JSON with its minted id, stamp and Lamport counter replaced, so two
    writes compare."""
    text = json.dumps(answer, sort_keys=True)
    text = re.sub(r'"lamport": [0-9]+', '"lamport": <n>', text)
    return text.replace(ident, "<id>").replace(stamp, "<stamp>")


def test_the_ledger_answers_as_the_reasoning_commands(root: Path, repo: Repository) -> None:
    given = AssessmentInput(
        subject="which lock the writer holds",
        materiality=Materiality.MATERIAL,
        evidence=[ReasoningEvidence(kind=ReasoningEvidenceKind.FILE, reference="src/lock.py:1")],
    )
    done = repo.ledger.record(given, task="library")
    typed = given.wire()
    by_cli = cli(root, "reasoning", "record", "--task", "library", stdin=json.dumps(typed))
    ours = _without_minted(wire(done), done.record.id, done.record.recorded_at)
    theirs = _without_minted(by_cli, by_cli["record"]["id"], by_cli["record"]["recorded_at"])
    assert ours == theirs
    assert json.loads((root / done.path).read_text(encoding="utf-8")) == wire(done.record)

    plan = repo.ledger.record(PlanInput(assessment=done.record.id), task="library")
    assert plan.record.body.kind == "plan"
    repo.ledger.record(
        ConclusionInput(
            assessment=done.record.id,
            decision="hold the lock across the write",
            rationale="admission must see every other writer's records",
            evidence=given.evidence,
            validation_plan=["two writers race; one is admitted"],
        ),
        task="library",
    )
    assert wire(repo.ledger.status("library")) == cli(
        root, "reasoning", "status", "--task", "library"
    )
    assert (
        wire(repo.ledger.state("all")) == cli(root, "reasoning", "status", "--task", "all")["state"]
    )
    assert wire(repo.ledger.explain(plan.record.id)) == cli(
        root, "reasoning", "explain", plan.record.id
    )
    assert wire(repo.ledger.check()) == cli(root, "reasoning", "check")
    assert wire(repo.ledger.handover("library")) == cli(
        root, "reasoning", "handover", "--task", "library"
    )
    assert wire(repo.ledger.advisors()) == cli(root, "reasoning", "advisors")


def test_refusals_raise_the_errors_the_commands_print(root: Path, repo: Repository) -> None:
    with pytest.raises(NotFound) as missing:
        repo.ledger.explain("assessment-absent")
    done = run_majordomus(["reasoning", "explain", "assessment-absent"], cwd=root)
    assert (done.code, done.stderr) == (12, f"majordomus: {missing.value.display}\n")
    with pytest.raises(Refused) as refused:
        repo.ledger.record(PlanInput(assessment="assessment-absent"), task="library")
    done = run_majordomus(
        ["reasoning", "record", "--task", "library"],
        cwd=root,
        input='{"kind": "plan", "assessment": "assessment-absent"}',
    )
    assert (done.code, done.stderr) == (13, f"majordomus: {refused.value.display}\n")


def test_the_package_exports_every_name_it_homes_and_is_typed() -> None:
    assert set(majordomus.__all__) - {"__version__"} == set(majordomus._HOMES)
    assert (REPO_ROOT / "majordomus" / "py.typed").is_file()


# -- docs/library.md ---------------------------------------------------------------------------

BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)


def test_every_example_of_docs_library_md_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The examples run in order, in one namespace, in a generated repository."""
    at = tmp_path / "repo"
    SyntheticRepository.new(at=at).commit("docs")
    monkeypatch.chdir(at)
    for name in [n for n in os.environ if n.startswith("MAJORDOMUS_") or n == "CI"]:
        monkeypatch.delenv(name)
    text = (REPO_ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert blocks, "docs/library.md has no python example"
    namespace: dict[str, Any] = {}
    for number, code in enumerate(blocks, 1):
        exec(compile(code, f"docs/library.md example {number}", "exec"), namespace)
