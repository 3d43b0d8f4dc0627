"""The promise on the shared corpus (a real upstream layer, skipped when absent) and on a
fresh `init` repository, where the documented links are what reaches a rule or a decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.devcontext import CompileInput, Tier, compile_context
from majordomus.devcontext.budget import OTHER_WORK_SHARE
from majordomus.layer.index import build
from tests.conftest import CORPUS, git, initialised_repo, make_git_repo
from tests.layer.support import write

LAYER = CORPUS / "prismatic-layer"
ADR_CLASS = """
  - id: adr
    kind: adr
    discovery: vcs
    pathspec: ':(glob).ai/repo/adrs/*.md'
    required: false
"""


@pytest.mark.skipif(not LAYER.is_dir(), reason="no corpus folder")
def test_i0905_of_the_corpus(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "layer", LAYER, commit=False)
    sources = root / ".ai/repo/knowledge/sources.yaml"
    sources.chmod(0o644)
    sources.write_text(sources.read_text(encoding="utf-8") + ADR_CLASS, encoding="utf-8")
    make_git_repo(root)
    index = build(root).index
    for limit in (8_000, 24_000):
        compiled = compile_context(index, CompileInput(issue="I0905", budget_tokens=limit))
        got = {e.uri for e in compiled.selected}
        assert not compiled.budget.over_budget
        assert {
            "majordomus://milestone/fly-deployment",
            "majordomus://issue/I0902",
            "majordomus://adr/adr-0013",  # the milestone names it, and it is over its scope
        } <= got
        assert any(e.tier is Tier.DECISION for e in compiled.selected)
        others = [e for e in compiled.selected if e.kind == "issue" and e.tier is Tier.HISTORY]
        assert sum(e.cost_tokens for e in others) <= limit * OTHER_WORK_SHARE


RULE = "majordomus://rule/majordomus.scope-integrity@1"
ISSUE = """\
id: I0001
milestone: M001
title: Parse the input
objective: "Parse the input as ADR 0001 decides, under majordomus.scope-integrity."
scope:
  - src/parse.py
"""
MILESTONE = "id: M001\ntitle: Input\nscope:\n  - src\n"
ADR = """\
---
schema: adr/v1
id: adr-0002
kind: adr
title: The parser is strict
status: accepted
date: 2026-09-10
related:
  - file:src/parse.py
---
# The parser is strict
"""
NAMED = ADR.replace("adr-0002", "adr-0001").replace("src/parse.py", "docs/x.md")


def test_a_fresh_init_repository_links_an_issue_to_its_rule_and_decisions(
    tmp_path: Path,
) -> None:
    root = initialised_repo(tmp_path / "repo")
    files = {
        ".ai/repo/project/issues/I0001.yaml": ISSUE,
        ".ai/repo/project/milestones/M001.yaml": MILESTONE,
        ".ai/repo/adrs/0002-strict-parser.md": ADR,
        ".ai/repo/adrs/0001-named.md": NAMED,
    }
    for rel, text in files.items():
        write(root, rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "plan")
    compiled = compile_context(build(root).index, CompileInput(issue="I0001"))
    by_uri = {e.uri: e for e in compiled.selected}
    assert by_uri[RULE].required, "the issue names the blocking rule"
    assert "majordomus://adr/adr-0001" in by_uri, "the issue names ADR 0001"
    assert by_uri["majordomus://adr/adr-0002"].tier is Tier.DECISION, "over its scope"
    issue = by_uri["majordomus://issue/I0001"]
    assert all(d.edge != "belongs_to" for d in issue.discovered_by)
