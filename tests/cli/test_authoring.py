"""Writing the layer: `new` scaffolds files that index clean and link as the reference says,
`lint` checks them, `schema` prints what editors validate against. Black-box."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git, initialised_repo, run_majordomus

RULE = "majordomus.scope-integrity"


def _lint_clean(root: Path) -> None:
    done = run_majordomus(["mcp", "--inspect", "--strict"], cwd=root)
    assert done.code == 0, done.stdout + done.stderr
    assert "WARN" not in done.stdout and "FAIL" not in done.stdout
    linted = run_majordomus(["lint", "--strict"], cwd=root)
    assert linted.code == 0, linted.stdout + linted.stderr


@pytest.mark.parametrize(
    ("args", "path"),
    [
        (["issue", "I0001", "--title", "First"], ".ai/repo/project/issues/I0001.yaml"),
        (["milestone", "M1", "--title", "Reader: parity"], ".ai/repo/project/milestones/M1.yaml"),
        (
            ["rule", "project.no-secrets", "--title", "No secrets", "--statement", "Never."],
            ".ai/repo/rules/project/project.no-secrets.v1.md",
        ),
        (
            ["adr", "Use one 'reader'", "--date", "2026-01-02"],
            ".ai/repo/adrs/0001-use-one-reader.md",
        ),
        (
            ["prompt", "triage", "--description", 'sort a "failing" build'],
            ".ai/repo/prompts/triage.md",
        ),
        (
            ["knowledge", "yaml-subset", "--title", "The YAML subset"],
            ".ai/repo/knowledge/curated/yaml-subset.md",
        ),
    ],
)
def test_each_new_file_indexes_clean(tmp_path: Path, args: list[str], path: str) -> None:
    root = initialised_repo(tmp_path / "repo")
    done = run_majordomus(["new", *args], cwd=root)
    assert done.code == 0, done.stderr
    assert f"created     {path}" in done.stdout
    git(root, "add", "-A")
    _lint_clean(root)


def test_new_issue_links_what_its_flags_name_and_devcontext_reaches_it(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    for args in (
        ["milestone", "M1", "--title", "First"],
        ["adr", "Use one reader", "--status", "accepted"],
        ["knowledge", "yaml-subset", "--title", "The YAML subset"],
        [
            "issue",
            "I0001",
            "--title",
            "First issue",
            "--milestone",
            "M1",
            "--rule",
            RULE,
            "--adr",
            "adr-0001",
            "--knowledge",
            "yaml-subset",
        ],
    ):
        assert run_majordomus(["new", *args], cwd=root).code == 0
    git(root, "add", "-A")
    _lint_clean(root)
    done = run_majordomus(
        ["devcontext", "compile", "--issue", "I0001", "--format", "json"], cwd=root
    )
    assert done.code == 0, done.stderr
    selected = {entry["uri"] for entry in json.loads(done.stdout)["selected"]}
    assert {
        "majordomus://milestone/M1",
        f"majordomus://rule/{RULE}@1",
        "majordomus://adr/adr-0001",
        "majordomus://knowledge/yaml-subset",
    } <= selected


def test_new_refuses_to_overwrite_or_write_through_a_link(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    assert run_majordomus(["new", "issue", "I0001", "--title", "One"], cwd=root).code == 0
    before = (root / ".ai/repo/project/issues/I0001.yaml").read_bytes()
    again = run_majordomus(["new", "issue", "I0001", "--title", "Two"], cwd=root)
    assert again.code == 13
    assert again.stderr.startswith("majordomus: ") and "already exists" in again.stderr
    assert (root / ".ai/repo/project/issues/I0001.yaml").read_bytes() == before
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / ".ai/repo/project/milestones/linked")
    linked_path = ".ai/repo/project/milestones/linked/M2.yaml"
    linked = run_majordomus(
        ["new", "milestone", "M2", "--title", "x", "--path", linked_path], cwd=root
    )
    assert linked.code != 0
    assert list(outside.iterdir()) == []


def test_new_refuses_a_place_no_class_reads(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    done = run_majordomus(
        ["new", "issue", "I1", "--title", "x", "--path", "notes/I1.yaml"], cwd=root
    )
    assert done.code == 10
    assert "no class of sources.yaml reads notes/I1.yaml as an issue" in done.stderr
    assert not (root / "notes").exists()


def test_lint_reports_what_inspect_reports(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo", {".ai/repo/project/issues/I9.yaml": "id: I9\nstatus: open\n"}
    )
    done = run_majordomus(["lint"], cwd=root)
    assert done.code == 10
    assert "FAIL unknown_key" in done.stdout
    assert "docs/generated/layer.md#issue" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("lint: ")
    assert done.stderr == "", "lint prints the diagnostics; no summary line on stderr"
    inspected = run_majordomus(["mcp", "--inspect"], cwd=root)
    fails = [line for line in inspected.stdout.splitlines() if line.startswith("FAIL")]
    assert fails == [line for line in done.stdout.splitlines() if line.startswith("FAIL")]


def test_schema_prints_the_committed_schema(tmp_path: Path) -> None:
    done = run_majordomus(["schema", "issue"], cwd=tmp_path)
    assert done.code == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema["properties"]["related"]["description"].startswith("typed references")
    assert schema["additionalProperties"] is False and schema["required"] == ["id"]
    committed = Path(__file__).parents[2] / "docs" / "generated" / "schemas" / "issue.json"
    assert committed.read_text(encoding="utf-8") == done.stdout


def test_every_admitted_key_has_a_meaning() -> None:
    from majordomus.layer.kinds import load_kinds
    from majordomus.layer.reference import described_keys

    missing = [
        f"{name}.{key.display}"
        for name, spec in load_kinds().kinds.items()
        for key, value, meaning in described_keys(spec)
        if not value or not meaning
    ]
    assert missing == []


def test_the_wheel_ships_the_package_data(tmp_path: Path) -> None:
    """The glossary, the examples, the kinds, the edge table and the synthetic data are
    package data: the wheel built from a copy of the tree carries them, and the majordomus it
    installs reads them and generates the reference the tree holds, byte for byte."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, source / name)
    shutil.copytree(
        REPO_ROOT / "majordomus",
        source / "majordomus",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", "dist", str(source)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    site = tmp_path / "site"
    with zipfile.ZipFile(next((tmp_path / "dist").glob("majordomus-*.whl"))) as wheel:
        wheel.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import majordomus, majordomus.synthetic as s; "
            "s.demo_data(); print(majordomus.__file__)",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert Path(where.stdout.strip()).is_relative_to(site), where.stderr
    generated = str(REPO_ROOT / "docs" / "generated")
    checked = subprocess.run(
        [sys.executable, "-m", "majordomus", "generate", "all", "--check", "--out", generated],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_example_of_the_reference_validates_against_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from majordomus.layer.frontmatter import split
    from majordomus.layer.reference import glossary, json_schema, schema_kinds
    from majordomus.layer.yaml import parse

    for kind in schema_kinds():
        text = glossary()["examples"].get(kind)
        if text is None or kind == "document":
            continue
        metadata = parse(split(text)[0] or "") if text.startswith("---") else parse(text)
        jsonschema.validate(metadata, json_schema(kind))
