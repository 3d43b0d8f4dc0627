"""Pages of list answers (docs/mcp.md#paging): every row unless a limit or a size cuts, and a
cut page says so with `more`, `total` and a cursor that only its own request takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.capabilities.core import ObjectList, ObjectSummary
from majordomus.capabilities.paging import PageInput, cut
from majordomus.errors import InvalidInput
from majordomus.synthetic import SyntheticRepository, synthetic_ledger

ROWS = [
    ObjectSummary(
        uri=f"majordomus://rule/r{i:02d}@1",
        kind="rule",
        identity=f"r{i:02d}@1",
        title=f"Rule {i}",
        description=None,
        path=f".ai/repo/rules/r{i:02d}.v1.md",
    )
    for i in range(10)
]
WHOLE = ObjectList(count=10, objects=ROWS)


class Listing(PageInput):
    kind: str | None = None


def test_without_a_limit_or_a_size_the_answer_is_whole_and_says_nothing_more() -> None:
    assert cut(WHOLE, Listing(), "objects.list", None) is WHOLE
    assert set(WHOLE.wire()) == {"count", "objects"}


def test_a_limit_cuts_and_the_cursor_goes_on_to_the_end() -> None:
    first = cut(WHOLE, Listing(limit=4), "objects.list", None)
    assert first.wire()["count"] == 4 and first.more is True and first.total == 10
    assert [o.identity for o in first.objects] == ["r00@1", "r01@1", "r02@1", "r03@1"]
    second = cut(WHOLE, Listing(limit=4, cursor=first.next_cursor), "objects.list", None)
    assert second.objects[0].identity == "r04@1" and second.more is True
    last = cut(WHOLE, Listing(cursor=second.next_cursor), "objects.list", None)
    assert last.count == 2 and last.total == 10
    assert last.more is None and last.next_cursor is None, "the last page says no more"


def test_a_size_cuts_by_bytes_and_keeps_at_least_one_row() -> None:
    one_row = len(ROWS[0].model_dump_json(by_alias=True))
    page = cut(WHOLE, Listing(), "objects.list", 3 * one_row + 1)
    assert page.count == 3 and page.more is True
    tiny = cut(WHOLE, Listing(), "objects.list", 1)
    assert tiny.count == 1, "a row larger than the size is still answered"


def test_a_cursor_answers_only_the_request_it_was_given_for() -> None:
    first = cut(WHOLE, Listing(limit=2), "objects.list", None)
    with pytest.raises(InvalidInput, match="not a next_cursor of this request"):
        cut(WHOLE, Listing(kind="adr", cursor=first.next_cursor), "objects.list", None)
    with pytest.raises(InvalidInput, match="not a next_cursor of this request"):
        cut(WHOLE, Listing(cursor=first.next_cursor), "objects.search", None)
    with pytest.raises(InvalidInput):
        cut(WHOLE, Listing(cursor="%%%"), "objects.list", None)


def test_a_negative_limit_is_refused_and_zero_means_one() -> None:
    with pytest.raises(InvalidInput, match="limit: must not be negative"):
        Listing(limit=-1).page_limit()
    assert Listing(limit=0).page_limit() == 1


def test_search_keeps_its_contract_and_says_more_and_total(tmp_path: Path) -> None:
    with SyntheticRepository.new(at=tmp_path / "repo") as repo:
        ctx = repo.context()
        everything = ctx.executor.call("objects.search", {"query": "rule", "limit": 200})
        page = ctx.executor.call("objects.search", {"query": "rule", "limit": 5})
    assert page["limit"] == 5 and page["count"] == 5
    assert page["more"] is True and page["total"] == everything["count"] > 5
    assert page["hits"] == everything["hits"][:5], "the first hits in URI order"
    assert "more" not in everything and "next_cursor" not in everything


def test_reasoning_status_pages_by_record_and_keeps_the_totals(tmp_path: Path) -> None:
    with SyntheticRepository.new(at=tmp_path / "repo") as repo:
        synthetic_ledger(repo.root, 24)
        ctx = repo.context()
        whole = ctx.executor.call("reasoning.status", {})
        page = ctx.executor.call("reasoning.status", {"limit": 8})
        rest = ctx.executor.call("reasoning.status", {"cursor": page["next_cursor"]})
    state = page["state"]
    assert page["more"] is True and page["total"] == 24
    assert [s["id"] for s in state["timeline"]] == [s["id"] for s in whole["state"]["timeline"][:8]]
    kept = {s["id"] for s in state["timeline"]}
    assert all(a["id"] in kept for a in state["assessments"]) and state["assessments"]
    assert state["totals"] == whole["state"]["totals"], "the totals are of every record"
    assert len(rest["state"]["timeline"]) == 16 and "more" not in rest
