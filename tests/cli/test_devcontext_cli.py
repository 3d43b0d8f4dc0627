"""`majordomus devcontext compile|explain|policy`, black-box, on the planned repository."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, make_git_repo, witness


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("devcontext") / "repo"
    return make_git_repo(root, FIXTURES / "layers/planned")


@pytest.fixture
def run(majordomus: Callable[..., Any], repo: Path) -> Callable[..., Any]:
    def call(*args: str) -> Any:
        # -q: the fixture's one warning (claimed_twice) would add its summary line on stderr
        return majordomus(["--repo", str(repo), "-q", "devcontext", *args])

    return call


def test_compile_json_is_the_capability_answer(run: Callable[..., Any], repo: Path) -> None:
    before = witness(repo)
    done = run("compile", "--issue", "I0001", "--format", "json")
    assert done.code == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["schema"] == 1 and out["git"]["branch"] == "master"
    assert out["git"]["working_tree"] == "clean"
    assert out["seeds"] == [{"uri": "majordomus://issue/I0001", "kind": "issue", "from": "issue"}]
    assert out["selected"][0]["uri"] == "majordomus://issue/I0001"
    assert [c["named_by"] for c in out["git"]["commits"]] == ["majordomus://issue/I0001"]
    assert witness(repo) == before, "read-only"


def test_compile_text(run: Callable[..., Any]) -> None:
    done = run("compile", "--issue", "I0001")
    assert done.code == 0, done.stderr
    text = done.stdout
    assert text.startswith("context ")
    assert "master at " in text.splitlines()[0] and text.splitlines()[0].endswith(", clean")
    assert "seed    issue majordomus://issue/I0001" in text
    assert "budget  388 of 24000 token(s) used, 103 required, 4 bytes per token" in text
    assert "SELECTED (8)" in text and "EXCLUDED (0)" in text and "DEDUPLICATED (2)" in text
    assert "majordomus://issue/I0001 (required)" in text
    assert "      <- relation(belongs_to) the milestone this work belongs to" in text
    assert "COMMITS THE LAYER NAMES (1)" in text
    assert "CONFLICTS" not in text and "DIAGNOSTICS" not in text
    assert sum(1 for line in text.splitlines() if line.startswith("tier    ")) == 6


def test_over_budget_exits_10_and_says_so(run: Callable[..., Any]) -> None:
    done = run("compile", "--issue", "I0001", "--budget-tokens", "1")
    assert done.code == 10
    assert "OVER BUDGET" in done.stdout and done.stderr == ""
    as_json = run("compile", "--issue", "I0001", "--budget-tokens", "1", "--format", "json")
    assert as_json.code == 10 and json.loads(as_json.stdout)["budget"]["over_budget"] is True


def test_repeatable_path_and_uri_flags(run: Callable[..., Any]) -> None:
    done = run(
        "compile",
        "--path",
        "lib",
        "--path",
        "./.ai/repo/rules/",
        "--uri",
        "majordomus://adr/adr-0002",
        "--all-blocking-rules",
        "--max-depth",
        "2",
        "--floor",
        "0.3",
        "--format",
        "json",
    )
    assert done.code == 0, done.stderr
    out = json.loads(done.stdout)
    assert [(s["from"], s["uri"]) for s in out["seeds"]] == [
        ("uris", "majordomus://adr/adr-0002"),
        ("paths", "lib"),
        ("paths", ".ai/repo/rules"),
    ]
    assert [c["kind"] for c in out["conflicts"]] == ["supersedes"]
    text = run("compile", "--uri", "majordomus://adr/adr-0002").stdout
    assert "CONFLICTS (1)" in text


def test_explain(run: Callable[..., Any]) -> None:
    done = run("explain", "majordomus://milestone/m1", "--issue", "I0001", "--budget-tokens", "1")
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines() == [
        "excluded  majordomus://milestone/m1",
        "reached and not given: budget — 29 token(s) would not fit: 103 of 1 already spent, 0 left",
        "budget 103 of 1 token(s) used",
    ]
    unknown = run("explain", "majordomus://adr/9999", "--format", "json")
    assert unknown.code == 0
    out = json.loads(unknown.stdout)
    assert out["standing"] == "unknown" and out["budget"]["limit_tokens"] == 24000
    assert "entry" not in out and "excluded" not in out
    seeded = run(
        "explain", "majordomus://rule/project.beta@1", "--uri", "majordomus://adr/adr-0002"
    )
    assert seeded.stdout.startswith("selected  majordomus://rule/project.beta@1\n")


def test_policy(run: Callable[..., Any]) -> None:
    done = run("policy", "--format", "json")
    assert done.code == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["graph"] == "composed" and len(out["tiers"]) == 6
    text = run("policy").stdout
    assert "edge    is_a" in text and "refused" in text
    assert "select  intent_match    inferred" in text


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("compile", "--issue", "I9999"), 12, "majordomus: not found: no issue 'I9999'"),
        (("compile", "--budget-tokens", "0"), 13, "majordomus: invalid input: a budget of zero"),
        (("explain", " "), 13, "majordomus: invalid input: name the canonical identifier"),
        (("compile", "--budget-tokens", "many"), 2, "majordomus: "),
        (("explain",), 2, "majordomus: "),
    ],
)
def test_bad_input(run: Callable[..., Any], args: tuple[str, ...], code: int, message: str) -> None:
    """Each kind of refusal and its exit code; every refusal's words are
    tests/devcontext/test_planned.py's (B4, B14)."""
    done = run(*args)
    assert done.code == code
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("majordomus: ") and message in line
    assert "Traceback" not in done.stderr
