"""The handover (docs/ledger.md, "The handover"): sections replayed from the records, the
plain report embedded unchanged, and a chain graph that is safe to render."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.ledger.admission import Admission
from majordomus.ledger.record import parse_input
from majordomus.ledger.service import Ledger as Writer
from majordomus.ledger.store import Store
from majordomus.projections import handover as handover_module
from majordomus.projections.handover import (
    MAX_GRAPH_RECORDS,
    SECTIONS,
    GitPosition,
    NextActionKind,
    handover,
)
from majordomus.projections.state import derive, render_markdown
from tests.projections.store_files import put

ADMISSION = Admission(mode=ModeResolution(mode=ReasoningMode.STANDARD, source="default"))
POSITION = GitPosition(branch="main", head="a" * 40)


class Ledger:
    """A store written through its own writer at frozen, advancing times."""

    def __init__(self, root: Path) -> None:
        self.store = Store(root)
        self.writer = Writer(self.store, availability=lambda _: ADMISSION, head=lambda _: "b" * 40)

    def add(self, body: dict[str, Any], task: str = "t") -> str:
        done = self.writer.record(parse_input(body), task=task)
        return done.record.id


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path)


def write_chain(ledger: Ledger) -> dict[str, str]:
    ids: dict[str, str] = {}
    with freeze_time("2026-10-01T09:00:00Z") as frozen:
        ids["a1"] = ledger.add(
            {
                "kind": "assessment",
                "subject": "lock scope",
                "materiality": "material",
                "confidence": "low",
                "questions": ["held across await?"],
                "hypothesis": "per request",
                "evidence": [{"kind": "file", "reference": "src/lock.py:10"}],
            }
        )
        frozen.tick(60)
        ids["p1"] = ledger.add({"kind": "plan", "assessment": ids["a1"]})
        frozen.tick(60)
        ids["x1"] = ledger.add(
            {
                "kind": "attempt",
                "assessment": ids["a1"],
                "attempt": "drop the lock",
                "observed_failure": "lost writes\nunder load",
                "assumption_invalidated": "writes never overlap",
            }
        )
        frozen.tick(60)
        ids["a2"] = ledger.add({"kind": "assessment", "subject": "cache size"})
        frozen.tick(60)
        ids["c2"] = ledger.add(
            {
                "kind": "conclusion",
                "assessment": ids["a2"],
                "decision": "64 MiB",
                "rationale": "fits the box\nwith room",
                "risks": ["oom"],
                "validation_plan": ["run the soak"],
            }
        )
        frozen.tick(60)
        ids["other"] = ledger.add({"kind": "assessment", "subject": "elsewhere"}, task="u")
    return ids


def test_sections_come_from_the_records(ledger: Ledger) -> None:
    ids = write_chain(ledger)
    result = handover(ledger.store.load(), "t", position=POSITION)
    assert result.sections == list(SECTIONS)
    [task] = result.tasks
    assert task.state.model_dump(mode="json") == {
        "records": 5,
        "first_record_at": "2026-10-01T09:00:00.000Z",
        "last_record_at": "2026-10-01T09:04:00.000Z",
        "branch": "main",
        "head": "a" * 40,
        "recorded_head": "b" * 40,
    }
    [decision] = task.decisions
    assert (decision.question, decision.rationale) == ("cache size", "fits the box\nwith room")
    assert decision.reviewed_by == [] and decision.validations_passed == 0
    [attempt] = task.failed_attempts
    assert attempt.observed_failure == "lost writes\nunder load"
    [item] = task.open_items
    assert (item.id, item.materiality.value, item.confidence.value, item.standing.value) == (
        ids["a1"],
        "material",
        "low",
        "planned",
    )
    assert item.questions == ["held across await?"]
    assert [(a.action, a.record) for a in task.next_actions] == [
        (NextActionKind.CONCLUDE, ids["a1"]),
        (NextActionKind.VALIDATE, ids["c2"]),
    ]
    assert task.next_actions[1].text.endswith(": run the soak")
    assert [r.plan for r in task.local_review] == [ids["p1"]]
    assert task.local_review[0].steps
    assert task.graph.startswith("flowchart TD\n")
    assert "  r1 --> r2\n" in task.graph


def test_the_markdown_has_a_heading_per_section_and_the_report_unchanged(ledger: Ledger) -> None:
    write_chain(ledger)
    loaded = ledger.store.load()
    text = handover(loaded, "t", position=POSITION).markdown
    headings = [line for line in text.split("\n") if line.startswith("#") and " " in line]
    assert [h for h in headings if not h.startswith("### ")] == [
        "# Task t",
        "## State",
        "## Decisions",
        "## Failed attempts",
        "## Open items",
        "## Next actions",
        "## Local review",
        "## Chain",
        "# Reasoning",
    ]
    report = render_markdown(derive(loaded, "t"))
    assert report and text.endswith("\n# Reasoning\n\n" + report)
    assert "- Rationale: fits the box with room\n" in text
    assert "  - observed: lost writes under load\n" in text
    assert "```mermaid\nflowchart TD\n" in text


def test_all_puts_every_task_under_its_heading(ledger: Ledger) -> None:
    write_chain(ledger)
    loaded = ledger.store.load()
    result = handover(loaded, None, position=POSITION)
    assert result.task == "all"
    assert [t.task for t in result.tasks] == ["t", "u"]
    assert [(t.task, t.records) for t in result.tasks_with_records] == [("t", 5), ("u", 1)]
    assert "\n# Task t\n" in "\n" + result.markdown
    assert "\n# Task u\n" in result.markdown
    assert result.markdown.endswith("# Reasoning\n\n" + render_markdown(derive(loaded, None)))


def test_without_a_current_task_it_says_so_and_names_the_tasks(ledger: Ledger) -> None:
    write_chain(ledger)
    result = handover(ledger.store.load(), "untasked", current_task_set=False)
    assert result.markdown.startswith(
        "No current task is set (`majordomus reasoning task set NAME` chooses one); "
        "tasks with records: t (5), u (1).\n"
    )
    empty = handover(ledger.store.load(), "nobody")
    assert empty.markdown.startswith("Task nobody has no records; tasks with records: t (5)")
    assert empty.markdown.endswith("# Reasoning\n\nNone recorded.\n")


def test_dispute_and_failed_validation_ask_for_their_actions(tmp_path: Path) -> None:
    at = "2026-10-01T09:00:0{}.000Z".format
    put(tmp_path, "assessment-1", at(1), {"kind": "assessment", "subject": "s"})
    put(
        tmp_path,
        "disagreement-2",
        at(2),
        {
            "kind": "disagreement",
            "assessment": "assessment-1",
            "positions": [
                {"source": "primary", "position": "x"},
                {"source": "consultation-9", "position": "y"},
            ],
            "discriminating_question": "does it hold\nunder load?",
        },
    )
    put(tmp_path, "assessment-3", at(3), {"kind": "assessment", "subject": "r"})
    conclusion = {"kind": "conclusion", "assessment": "assessment-3", "decision": "d"}
    put(tmp_path, "conclusion-4", at(4), {**conclusion, "rationale": "r"})
    validation = {"kind": "validation", "conclusion": "conclusion-4", "check": "soak"}
    put(tmp_path, "validation-5", at(5), {**validation, "outcome": "fail"})
    [task] = handover(Store(tmp_path).load(), "t").tasks
    assert [(x.action.value, x.record) for x in task.next_actions] == [
        ("resolve", "assessment-1"),
        ("revisit", "conclusion-4"),
    ]
    assert task.next_actions[0].text.endswith("by answering: does it hold under load?")
    assert "classDef failed" in task.graph


def test_labels_cannot_break_the_graph_or_the_fence(ledger: Ledger) -> None:
    with freeze_time("2026-10-01T09:00:00Z"):
        ledger.add({"kind": "assessment", "subject": 'a "b" <c> `d` #e\n```'})
    [task] = handover(ledger.store.load(), "t").tasks
    label = task.graph.split("\n")[1]
    assert label.startswith('  r1["assessment: a #quot;b#quot; #lt;c#gt; #96;d#96; #35;e')
    assert label.count('"') == 2 and "`" not in task.graph


def test_a_large_task_draws_its_most_recent_records(ledger: Ledger) -> None:
    with freeze_time("2026-10-01T09:00:00Z") as frozen:
        for n in range(MAX_GRAPH_RECORDS + 3):
            ledger.add({"kind": "assessment", "subject": f"s{n}"})
            frozen.tick(1)
    result = handover(ledger.store.load(), "t")
    [task] = result.tasks
    assert task.graph_omitted == 3
    assert task.graph.count('["assessment: ') == MAX_GRAPH_RECORDS
    assert '"assessment: s3 ' in task.graph and '"assessment: s2 ' not in task.graph
    assert "3 earlier ones are left out" in result.markdown


def test_same_input_same_bytes(ledger: Ledger) -> None:
    write_chain(ledger)
    first = handover(ledger.store.load(), None, position=POSITION).model_dump_json()
    assert handover(ledger.store.load(), None, position=POSITION).model_dump_json() == first


def test_all_tasks_cost_one_pass(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    """One index over every record, and each task replays its own records only: the
    handover of every task is linear in records (docs/RELIABILITY.md)."""
    write_chain(ledger)
    loaded = ledger.store.load()
    alone = {t: handover(loaded, t, position=POSITION).tasks[0] for t in ("t", "u")}
    built, replayed = [], []
    index_class, real_derive = handover_module.RecordIndex, handover_module.derive

    def counted_index(records: Any) -> Any:
        built.append(len(records))
        return index_class(records)

    def counted_derive(loaded: Any, task: Any, index: Any, records: Any, collisions: Any) -> Any:
        replayed.append(len(loaded.records if records is None else records))
        return real_derive(loaded, task, index, records, collisions)

    monkeypatch.setattr(handover_module, "RecordIndex", counted_index)
    monkeypatch.setattr(handover_module, "derive", counted_derive)
    result = handover(loaded, None, position=POSITION)
    assert built == [6] and replayed == [6, 5, 1]
    assert result.tasks == [alone["t"], alone["u"]]
