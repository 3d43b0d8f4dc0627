"""Adopting majordomus on an existing layer: nothing lost silently (issue 33)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import InvalidInput
from majordomus.ledger.record import KINDS
from tests.conftest import git, initialised_repo, run_majordomus

ADR = "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: One\nstatus: accepted\n---\n# One\n"
EXCLUDED = ".ai/repo/project/issues/I0824.yaml"
CLASS_LINES = (
    "  - id: adr\n"
    "    kind: adr\n"
    "    discovery: vcs\n"
    "    pathspec: ':(glob).ai/repo/adrs/????-*.md'\n"
    "    required: false\n"
)


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    """A layer as an existing project has it: no adr class, one issue with an unknown key,
    and no `.ai/local/` line in `.gitignore`."""
    root = initialised_repo(
        tmp_path / "repo",
        {
            ".ai/repo/adrs/0001-one.md": ADR,
            EXCLUDED: "id: I0824\ntitle: Two\nunsealed_stamps: [a]\n",
            ".ai/repo/project/issues/I0825.yaml": "id: I0825\ntitle: Three\n",
        },
    )
    sources = root / ".ai/repo/knowledge/sources.yaml"
    text = sources.read_text(encoding="utf-8")
    start = text.index("  - id: adr")
    sources.write_text(text[:start] + text[text.index("  - id: knowledge") :], encoding="utf-8")
    (root / ".gitignore").unlink()
    shutil.rmtree(root / ".ai/local")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "an existing layer")
    return root


def test_an_excluded_file_is_named_on_every_lookup(adopted: Path) -> None:
    said = f"majordomus: not found: {EXCLUDED} is in the layer but excluded: unknown_key "
    for args in (
        ["objects", "get", "I0824"],
        ["objects", "get", "majordomus://issue/I0824"],
        ["devcontext", "compile", "--issue", "I0824"],
        ["devcontext", "compile", "--uri", "majordomus://issue/I0824"],
    ):
        done = run_majordomus(["-q", *args], cwd=adopted)
        assert done.code == 12, args
        assert done.stderr.startswith(said), (args, done.stderr)
        assert "`majordomus lint` lists it" in done.stderr
    explained = run_majordomus(
        ["devcontext", "explain", "majordomus://issue/I0824", "--issue", "I0825"], cwd=adopted
    )
    assert explained.code == 0
    assert f"{EXCLUDED} is in the layer but excluded: unknown_key" in explained.stdout


def test_a_missing_issue_hints_in_command_line_syntax(adopted: Path) -> None:
    done = run_majordomus(["-q", "devcontext", "compile", "--issue", "I9"], cwd=adopted)
    assert done.code == 12
    assert done.stderr == (
        "majordomus: not found: no issue 'I9' in this repository; "
        "`majordomus objects list --kind issue` names every one\n"
    )


def test_a_section_no_class_reads_is_shown_with_the_lines_to_add(adopted: Path) -> None:
    looked = run_majordomus(["-q", "objects", "get", "adr-0001"], cwd=adopted)
    assert looked.code == 12
    assert "no class of sources.yaml reads .ai/repo/adrs" in looked.stderr
    lint = run_majordomus(["lint"], cwd=adopted)
    inspect = run_majordomus(["mcp", "--inspect"], cwd=adopted)
    block = (
        "add to .ai/repo/knowledge/sources.yaml under `sources:` (`majordomus init --sources` "
        f"does):\n{CLASS_LINES}"
    )
    assert block in lint.stdout and block in inspect.stdout
    refused = run_majordomus(["new", "adr", "Two"], cwd=adopted)
    assert refused.code == 10
    assert refused.stderr.count("\n") == 1
    assert "`majordomus init --sources` declares class `adr`" in refused.stderr

    added = run_majordomus(["init", "--sources"], cwd=adopted)
    assert added.code == 0, added.stderr
    assert "extended    .ai/repo/knowledge/sources.yaml (class adr)" in added.stdout
    assert git(adopted, "status", "--porcelain") == " M .ai/repo/knowledge/sources.yaml\n"
    assert (adopted / ".ai/repo/knowledge/sources.yaml").read_text().endswith(CLASS_LINES)
    git(adopted, "commit", "-qam", "read the decisions")
    assert "section_not_indexed" not in run_majordomus(["lint"], cwd=adopted).stdout
    again = run_majordomus(["init", "--sources"], cwd=adopted)
    assert again.stdout == "complete    nothing was missing\n"
    assert run_majordomus(["-q", "objects", "get", "adr-0001"], cwd=adopted).code == 0


def test_extend_adds_the_classes_too(adopted: Path) -> None:
    done = run_majordomus(["init", "--extend"], cwd=adopted)
    assert done.code == 0, done.stderr
    assert "extended    .ai/repo/knowledge/sources.yaml (class adr)" in done.stdout
    assert "created     .gitignore" in done.stdout


def test_the_first_write_under_an_unignored_local_folder_says_so_once(adopted: Path) -> None:
    record = '{"kind": "assessment", "subject": "x"}'
    first = run_majordomus(["reasoning", "record"], cwd=adopted, input=record)
    assert first.code == 0, first.stderr
    assert first.stderr == (
        "majordomus[WARN] .ai/local/ is not git-ignored: `git add -A` would commit the ledger "
        "written there; `majordomus init --ignore-local` adds it to .gitignore\n"
    )
    second = run_majordomus(["reasoning", "record"], cwd=adopted, input=record)
    assert second.code == 0 and second.stderr == ""

    fixed = run_majordomus(["init", "--ignore-local"], cwd=adopted)
    assert fixed.stdout.startswith("created     .gitignore\n")
    assert git(adopted, "status", "--porcelain") == "?? .gitignore\n"
    assert (adopted / ".gitignore").read_text() == ".ai/local/\n"


def test_a_layer_that_ignores_local_writes_without_a_word(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    done = run_majordomus(["reasoning", "task", "set", "t1"], cwd=root)
    assert done.code == 0 and done.stderr == ""


# -- the small ones -----------------------------------------------------------------------------


def _record(root: Path, record: str, *args: str) -> dict[str, Any]:
    done = run_majordomus(
        ["reasoning", "record", "--format", "json", *args], cwd=root, input=record
    )
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)["record"]


def test_records_are_named_by_their_short_ids(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    first = _record(root, '{"kind": "assessment", "subject": "one"}')["id"]
    second = _record(root, '{"kind": "assessment", "subject": "two"}')["id"]
    short = first.split("-")[2]
    plan = _record(root, json.dumps({"kind": "plan", "assessment": short}))
    assert plan["body"]["assessment"] == first
    explained = run_majordomus(["reasoning", "explain", short, "--format", "json"], cwd=root)
    assert json.loads(explained.stdout)["record"]["id"] == first
    ambiguous = run_majordomus(["reasoning", "explain", "assessment-"], cwd=root)
    assert ambiguous.code == 13
    assert ambiguous.stderr == (
        "majordomus: invalid input: 'assessment-' names more than one record: "
        f"{', '.join(sorted([first, second]))}\n"
    )
    missing = run_majordomus(["reasoning", "explain", "ffffff0"], cwd=root)
    assert (missing.code, missing.stderr) == (
        12,
        "majordomus: not found: no reasoning record ffffff0\n",
    )


def test_an_empty_record_input_says_no_input(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    done = run_majordomus(["reasoning", "record"], cwd=root, input="")
    assert done.code == 13
    assert done.stderr.startswith("majordomus: invalid input: no input: standard input is empty")


def test_an_unknown_command_names_the_likely_one(tmp_path: Path) -> None:
    for word, meant in (
        ("handover", "`majordomus reasoning handover`"),
        ("objetcs", "`majordomus objects`"),
        ("explain", "`majordomus devcontext explain` or `majordomus reasoning explain`"),
    ):
        done = run_majordomus([word], cwd=tmp_path)
        assert done.code == 2
        assert done.stderr == (
            f"majordomus: unrecognized subcommand '{word}'; did you mean {meant}?\n"
        )


def test_every_record_kind_has_a_schema(tmp_path: Path) -> None:
    for kind in KINDS:
        done = run_majordomus(["schema", kind], cwd=tmp_path)
        assert done.code == 0, done.stderr
        schema = json.loads(done.stdout)
        assert schema["properties"]["kind"]["const"] == kind
        assert schema["additionalProperties"] is False
    assert "rejected" in json.loads(run_majordomus(["schema", "conclusion"]).stdout)["properties"]
    unknown = run_majordomus(["schema", "nope"], cwd=tmp_path)
    assert unknown.code == 12 and "one of: adr" in unknown.stderr
    assert "or a record kind: assessment, plan" in unknown.stderr


def test_a_plan_takes_its_capabilities_as_a_list_or_a_comma_string(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    executor = Workspace(root).executor
    words = ["independent_reasoning", "code_review"]
    as_list = executor.call("reasoning.plan", {"materiality": "high", "capabilities": words})
    as_text = executor.call(
        "reasoning.plan", {"materiality": "high", "capabilities": ",".join(words)}
    )
    assert as_list == as_text
    with pytest.raises(InvalidInput, match="'nope' is not an advisory capability"):
        executor.call("reasoning.plan", {"capabilities": ["nope"]})
