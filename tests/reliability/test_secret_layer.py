"""Layer content served to a model, and records planted on disk in the clear, leave the process
redacted on every surface (docs/RELIABILITY.md, "Redaction and egress")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from majordomus import AssessmentInput, Repository
from majordomus.ledger.store import STATE_DIR
from tests.conftest import FIXTURES, git, make_git_repo, run_majordomus, serve
from tests.mcp.conftest import Pipes
from tests.reliability.secret_samples import ISSUE_FAMILIES, ISSUE_SAMPLES, leaks_in

ADR = "majordomus://adr/adr-0006"
NOTES = "\n\n## Notes pasted from a terminal\n\n" + "\n\n".join(s.text for s in ISSUE_SAMPLES)
MARKER = re.compile(r"\[redacted:[a-z0-9-]+\]")


def test_every_family_the_issue_names_has_samples() -> None:
    assert {s.family for s in ISSUE_SAMPLES} == ISSUE_FAMILIES
    assert len(ISSUE_SAMPLES) >= 40


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledgerly layer, its decision record on tax tables (in every bundle for issue
    I0105) carrying the samples."""
    root = make_git_repo(
        tmp_path_factory.mktemp("layer") / "ledgerly", FIXTURES / "layers" / "ledgerly"
    )
    adr = root / ".ai/repo/adrs/0006-tax-tables.md"
    adr.write_text(adr.read_text(encoding="utf-8") + NOTES + "\n", encoding="utf-8")

    git(root, "commit", "-qam", "notes")
    return root


def _served(text: str) -> None:
    assert leaks_in(text, list(ISSUE_SAMPLES)) == []
    assert len(MARKER.findall(text)) >= len(ISSUE_SAMPLES)


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_bundle_on_the_command_line(layer: Path, form: str) -> None:
    argv = ["devcontext", "compile", "--issue", "I0105", "--bundle", "--format", form]
    done = run_majordomus(argv, cwd=layer)
    assert done.code == 0, done.stderr
    bundle = json.loads(done.stdout)["bundle"] if form == "json" else done.stdout
    assert f"### {ADR}" in bundle
    _served(done.stdout + done.stderr)


def test_the_bundle_a_resource_and_an_object_over_mcp(layer: Path) -> None:
    pipes = Pipes()
    arguments = {"issue": "I0105", "budget_tokens": 24000}
    session = pipes.run(
        layer,
        [
            pipes.request(0, "initialize", {"protocolVersion": "2025-06-18"}),
            pipes.call(1, "majordomus_devcontext", arguments),
            pipes.request(2, "resources/read", {"uri": ADR}),
            pipes.call(3, "majordomus_get", {"uri": ADR}),
        ],
    )
    by_id = {answer["id"]: answer for answer in session.responses}
    assert f"### {ADR}" in by_id[1]["result"]["content"][0]["text"]  # the bundle, as Markdown
    for n in (2, 3):
        _served(json.dumps(by_id[n]))
    assert leaks_in(session.result.stdout + session.result.stderr, list(ISSUE_SAMPLES)) == []


def test_the_bundle_and_the_object_over_http(layer: Path) -> None:
    served = serve(layer)
    try:
        with served.client() as client:
            bundle = client.get("/api/v1/devcontext", params={"issue": "I0105", "bundle": "true"})
            got = client.get("/api/v1/object", params={"uri": ADR})
    finally:
        served.stop()
    assert bundle.status_code == got.status_code == 200
    assert f"### {ADR}" in bundle.json()["bundle"]
    for text in (bundle.text, got.text):
        _served(text)


def _planted(root: Path, env: dict[str, str]) -> None:
    """One assessment per sample, written redacted, then edited on disk by hand to hold the
    sample in the clear (what an older writer or a hand would leave)."""
    ledger = Repository.open(root, environ=env).ledger
    for number, sample in enumerate(ISSUE_SAMPLES):
        done = ledger.record(AssessmentInput(subject=f"placeholder {number}."), task="planted")
        path = root / done.path
        raw = path.read_text(encoding="utf-8")
        escaped = json.dumps(sample.text)[1:-1]
        path.write_text(raw.replace(f"placeholder {number}.", escaped), encoding="utf-8")
    store = "\n".join(p.read_text(encoding="utf-8") for p in (root / STATE_DIR).rglob("*.json"))
    assert len(leaks_in(store, list(ISSUE_SAMPLES))) == len(ISSUE_SAMPLES)


def test_records_planted_in_the_clear_are_served_redacted(
    repo: Path, suite_env: dict[str, str]
) -> None:
    """The handover writes a record's text on one line (`flat`), redacted before its line
    breaks go: a password on the line after its label is gone there too."""
    _planted(repo, suite_env)
    for argv in (
        ["reasoning", "status", "--task", "planted", "--format", "json"],
        ["reasoning", "status", "--task", "planted", "--report"],
        ["reasoning", "export", "--format", "jsonl"],
        ["reasoning", "handover", "--task", "planted"],
        ["reasoning", "handover", "--task", "planted", "--format", "json"],
    ):
        done = run_majordomus(argv, cwd=repo, env=suite_env)
        assert done.code in (0, 10), (argv, done.stderr)
        assert leaks_in(done.stdout + done.stderr, list(ISSUE_SAMPLES)) == [], argv
        assert MARKER.search(done.stdout), argv
