"""The Markdown report (`reasoning status --report`), line by line."""

from __future__ import annotations

from majordomus.projections.state import derive, render_markdown

from .builders import (
    assessment,
    conclusion,
    consultation,
    disagreement,
    loaded,
    plan,
    rec,
    validation,
)


def test_no_records_no_report() -> None:
    assert render_markdown(derive(loaded(unreadable=("t/x.json",)), None)) == ""


def test_a_full_report() -> None:
    records = [
        rec("assessment-1", 1, assessment("lock scope", questions=["held across await?"])),
        rec("plan-2", 2, plan("assessment-1")),
        rec("consultation-3", 3, consultation("plan-2", "alpha")),
        rec("consultation-4", 4, consultation("plan-2", "beta", "timeout")),
        rec(
            "conclusion-5",
            5,
            conclusion(
                "assessment-1",
                "keep the lock\nbecause",
                reviewed_by=["alpha"],
                independent_review_count=1,
                risks=["contention", "x" * 150],
            ),
        ),
        rec("validation-6", 6, validation("conclusion-5", "pass")),
        rec("assessment-7", 7, assessment("retry policy")),
        rec("plan-8", 8, plan("assessment-7", "decide_locally", ())),
        rec("assessment-9", 9, assessment("cache key")),
        rec("disagreement-10", 10, disagreement("assessment-9")),
        rec("conclusion-11", 11, conclusion("assessment-12", "old")),
        rec("conclusion-12", 12, conclusion("assessment-12", "new", supersedes="conclusion-11")),
    ]
    assert render_markdown(derive(loaded(*records), None)) == (
        "Reasoning: 12 record(s); 1 consultation(s) completed, 1 failed; "
        "1 independent reviewer(s).\n"
        "- Decision conclusion-5: keep the lock — reviewed by alpha; "
        "validation 1 passed, 0 failed.\n"
        "  - risk: contention\n"
        f"  - risk: {'x' * 139}…\n"
        "- Decision conclusion-12: new — reviewed by no independent advisor (local reasoning); "
        "validation 0 passed, 0 failed.\n"
        "- Unresolved assessment-7: retry policy (Planned)\n"
        "- Unresolved assessment-9: cache key (Disputed)\n"
        "- Degradation: beta timeout (consultation-4)\n"
    )


def test_the_report_has_no_headings_or_tables() -> None:
    records = [rec("assessment-1", 1, assessment("# not a heading | nor a table"))]
    report = render_markdown(derive(loaded(*records), None))
    assert all(line.startswith(("Reasoning:", "- ", "  - ")) for line in report.splitlines())
