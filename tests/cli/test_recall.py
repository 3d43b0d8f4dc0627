"""`majordomus recall`: ranked retrieval over the layer and the ledger, black-box."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_majordomus

RECORDS = [
    {
        "kind": "assessment",
        "subject": "round invoice totals once per line or once per invoice",
        "hypothesis": "rounding each line keeps the printed lines adding up",
    },
    {
        "kind": "attempt",
        "attempt": "round the invoice total with banker's rounding after summing unrounded lines",
        "observed_failure": "the printed lines no longer add up to the total: one cent of drift",
        "assessment": "@0",
    },
    {
        "kind": "conclusion",
        "assessment": "@0",
        "decision": "round every line half-up to the cent, then sum the rounded lines",
        "rationale": "the customer checks the printed lines with a calculator",
    },
]


def _record(root: Path, task: str) -> list[str]:
    ids: list[str] = []
    for raw in RECORDS:
        record = {k: ids[int(v[1:])] if str(v).startswith("@") else v for k, v in raw.items()}
        done = run_majordomus(
            ["reasoning", "record", "--task", task, "--format", "json"],
            cwd=root,
            input=json.dumps(record),
        )
        assert done.code == 0, done.stderr
        ids.append(json.loads(done.stdout)["record"]["id"])
    return ids


@pytest.fixture
def repo(git_repo: Callable[..., Path]) -> tuple[Path, list[str]]:
    root = git_repo("layers/ledgerly")
    return root, _record(root, "rounding")


def recall(root: Path, *args: str) -> Any:
    done = run_majordomus(["recall", *args, "--format", "json"], cwd=root)
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)


def test_objects_and_records_are_ranked_together(repo: tuple[Path, list[str]]) -> None:
    root, ids = repo
    answer = recall(root, "did we already try rounding the invoice total?")
    assert answer["query"] == "did we already try rounding the invoice total?"
    uris = [h["uri"] for h in answer["hits"]]
    assert f"majordomus://reasoning/record/{ids[1]}" in uris[:3]
    assert "majordomus://adr/adr-0009" in uris[:5]
    for hit in answer["hits"]:
        assert list(hit)[:6] == ["uri", "kind", "title", "score", "snippet", "why"]
        assert 0 < hit["score"] <= 1
    attempt = next(h for h in answer["hits"] if h["uri"].endswith(ids[1]))
    assert (attempt["id"], attempt["task"], attempt["kind"]) == (ids[1], "rounding", "attempt")
    assert "round" in attempt["why"] and "attempt" in attempt["why"]
    scores = [h["score"] for h in answer["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_typos_stems_and_snippets(repo: tuple[Path, list[str]]) -> None:
    root, _ = repo
    answer = recall(root, "curency mismatch", "--limit", "3")
    assert answer["hits"][0]["uri"] == "majordomus://issue/I0102"
    assert "read curency as currency" in answer["hits"][0]["why"]
    stemmed = recall(root, "credits notes", "--kind", "issue", "--limit", "2")
    assert "majordomus://issue/I0107" in [h["uri"] for h in stemmed["hits"]]
    snippet = recall(root, "calculator", "--limit", "1")["hits"][0]["snippet"]
    assert "calculator" in snippet and len(snippet) < 400


def test_filters_and_paging(repo: tuple[Path, list[str]]) -> None:
    root, ids = repo
    records = recall(root, "rounding", "--kind", "record")
    assert {h["uri"].rsplit("/", 1)[1] for h in records["hits"]} == set(ids)
    only_task = recall(root, "rounding", "--task", "rounding", "--kind", "conclusion")
    assert [h["id"] for h in only_task["hits"]] == [ids[2]]
    assert recall(root, "rounding", "--task", "other")["hits"] == []
    first = recall(root, "invoice", "--limit", "2")
    assert len(first["hits"]) == 2 and "next_cursor" in first
    second = recall(root, "invoice", "--limit", "2", "--cursor", first["next_cursor"])
    whole = recall(root, "invoice", "--limit", "4")
    assert first["hits"] + second["hits"] == whole["hits"]


def test_the_same_question_gives_the_same_bytes(repo: tuple[Path, list[str]]) -> None:
    root, _ = repo
    args = ["recall", "money rounding", "--format", "json"]
    assert run_majordomus(args, cwd=root).stdout == run_majordomus(args, cwd=root).stdout


def test_a_record_is_a_resource(repo: tuple[Path, list[str]]) -> None:
    root, ids = repo
    for name in (f"majordomus://reasoning/record/{ids[2]}", ids[2]):
        done = run_majordomus(["objects", "get", name, "--format", "json"], cwd=root)
        assert done.code == 0, done.stderr
        view = json.loads(done.stdout)
        assert (view["source"], view["kind"], view["id"]) == ("ledger", "conclusion", ids[2])
        assert json.loads(view["content"])["body"]["decision"].startswith("round every line")
        assert view["provenance"]["path"] == f".ai/local/state/reasoning/rounding/{ids[2]}.json"
    missing = run_majordomus(["objects", "get", "majordomus://reasoning/record/nope"], cwd=root)
    assert missing.code == 12 and missing.stderr.startswith("majordomus: ")


def test_the_text_view(repo: tuple[Path, list[str]]) -> None:
    root, ids = repo
    done = run_majordomus(["recall", "rounding drift", "--limit", "2"], cwd=root)
    assert done.code == 0, done.stderr
    assert f"rounding/{ids[1]}" in done.stdout and "  why: " in done.stdout
    assert "more: --cursor " in done.stdout


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["   "], 13, "must not be blank"),
        (["x", "--limit", "0"], 13, "limit"),
        (["x", "--kind", "nonsense"], 13, "neither a layer kind nor a record kind"),
        (["x", "--cursor", "bogus"], 13, "cursor"),
        (["x", "--task", "../up"], 13, "task"),
        ([], 2, "QUERY"),
    ],
)
def test_refusals_are_one_line(
    repo: tuple[Path, list[str]], args: list[str], code: int, words: str
) -> None:
    root, _ = repo
    done = run_majordomus(["recall", *args], cwd=root)
    assert done.code == code
    assert done.stderr.startswith("majordomus: ") and words in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_layer_without_a_ledger(git_repo: Callable[..., Path]) -> None:
    root = git_repo("layers/ledgerly")
    answer = recall(root, "tax tables")
    assert answer["hits"][0]["uri"] in (
        "majordomus://rule/project.tax-tables-are-data@1",
        "majordomus://adr/adr-0006",
    )
    assert not any("id" in h for h in answer["hits"])
