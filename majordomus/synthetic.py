"""A generated repository and reasoning ledger for examples, tests and benchmarks
(docs/layer-internals.md)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from majordomus.errors import ProtocolFailure
from majordomus.layer.git import GitState
from majordomus.layer.model import Index
from majordomus.shipped import shipped_text

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

COMMIT_DATE = "2026-09-10T00:00:00+00:00"

MANIFEST = """\
schema: ai-repository/v1
repo:
  path: repo
local:
  path: local
  tracked: false
  implicit_context: false
sections:
  policy: repo/policy.yaml
  profiles: repo/profiles
  rules: repo/rules
  prompts: repo/prompts
  skills: repo/skills
  workflows: repo/workflows
  knowledge: repo/knowledge
  adrs: repo/adrs
  project: repo/project
"""

_CLASSES = (
    ("policy", ".ai/repo/policy.yaml", "true"),
    ("profile", ".ai/repo/profiles/*.yaml", "true"),
    ("rule", ".ai/repo/rules/**/*.md", "true"),
    ("prompt", ".ai/repo/prompts/*.md", "false"),
    ("document", "docs/*.md", "false"),
)
SOURCES = "version: 1\nsources:\n" + "".join(
    f"  - id: {kind}\n    kind: {kind}\n    discovery: vcs\n"
    f"    pathspec: ':(glob){spec}'\n    required: {required}\n"
    for kind, spec, required in _CLASSES
)

POLICY = """\
version: 1
context:
  always_loaded_budget_lines: 150
"""

PROFILE = """\
name: implementation
description: d
capability: standard
effort: medium
verbosity: concise
presentation: engineering
checkpoint_interval: 15m
"""

#: A rule's file up to its rationale lines; `{i}` is the rule's number.
RULE = """\
---
id: project.rule-{i}
version: 1
kind: rule
title: Rule {i}
description: Rule number {i}, in one sentence.
statement: Do the thing number {i}.
status: active
class: advisory
depends_on: []
tags: [synthetic]
---

# Rationale

"""


@dataclass(frozen=True)
class Shape:
    """How much the generator writes; the default is the `small()` repository."""

    rules: int = 10
    prompts: int = 2
    documents: int = 5
    body_lines: int = 8

    @classmethod
    def scaling(cls, rules: int) -> Shape:
        """The benchmark shape: `rules` rules, two prompts, a document per ten rules."""
        return cls(rules=rules, prompts=2, documents=rules // 10, body_lines=8)


def rule_path(i: int) -> str:
    return f".ai/repo/rules/project/rule-{i}.v1.md"


def files_of(shape: Shape) -> dict[str, str]:
    """Every file of a shape, repo-relative path → text."""
    files = {
        ".ai/manifest.yaml": MANIFEST,
        ".ai/repo/knowledge/sources.yaml": SOURCES,
        ".ai/repo/policy.yaml": POLICY,
        ".ai/repo/profiles/implementation.yaml": PROFILE,
    }
    for i in range(shape.rules):
        rationale = "".join(
            f"Rationale line {line} of rule {i}: keep the scope and check the state.\n"
            for line in range(shape.body_lines)
        )
        files[rule_path(i)] = RULE.format(i=i) + rationale
    for i in range(shape.prompts):
        files[f".ai/repo/prompts/prompt-{i}.md"] = (
            "---\n"
            f"name: prompt-{i}\n"
            f"description: Prompt number {i}.\n"
            "---\n"
            "\n"
            f"# Prompt {i}\n"
            "\n"
            "{{CONTEXT}}\n"
        )
    for i in range(shape.documents):
        lines = "".join(
            f"Line {line} of document {i}: the quick brown fox names scope and rule.\n"
            for line in range(shape.body_lines)
        )
        files[f"docs/DOC_{i}.md"] = f"# Document {i}\n\n{lines}"
    return files


def git(root: Path, *args: str) -> str:
    """Run git in a repository this module (or the demo) made, as a fixed writer at a fixed
    date; never used by the product's read path (that is `layer/git.py`)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "majordomus synthetic",
        "GIT_AUTHOR_EMAIL": "synthetic@majordomus.invalid",
        "GIT_COMMITTER_NAME": "majordomus synthetic",
        "GIT_COMMITTER_EMAIL": "synthetic@majordomus.invalid",
        "GIT_AUTHOR_DATE": COMMIT_DATE,
        "GIT_COMMITTER_DATE": COMMIT_DATE,
    }
    done = subprocess.run(
        ["git", "-C", str(root), "-c", "commit.gpgsign=false", *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return done.stdout


class SyntheticRepository:
    """A generated layer on disk; see the module docstring."""

    def __init__(self, root: Path, owner: tempfile.TemporaryDirectory[str] | None) -> None:
        self.root = root
        self._owner = owner

    @classmethod
    def new(cls, shape: Shape | None = None, at: Path | None = None) -> SyntheticRepository:
        """Write `shape` into a new temporary directory, or into `at` (kept on close)."""
        shape = shape or Shape()
        owner = None
        if at is None:
            owner = tempfile.TemporaryDirectory(prefix="majordomus-synthetic-")
            root = Path(owner.name).resolve()
        else:
            root = at.resolve()
            if (root / ".ai").exists():
                raise FileExistsError(f"{root / '.ai'} already exists; choose an empty directory")
        files = files_of(shape)
        for folder in sorted({(root / rel).parent for rel in files}):
            folder.mkdir(parents=True, exist_ok=True)
        for rel, text in files.items():
            with open(root / rel, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
        return cls(root, owner)

    @classmethod
    def small(cls) -> SyntheticRepository:
        """The default shape: 10 rules, 2 prompts, 5 documents, 8 body lines (19 objects)."""
        return cls.new(Shape())

    def touch_rule(self, i: int, suffix: str) -> None:
        """Append a line to rule `i`, which moves every fingerprint."""
        with (self.root / rule_path(i)).open("a", encoding="utf-8", newline="\n") as out:
            out.write(f"\n{suffix}\n")

    def index(self) -> Index:
        """The index read from the work tree, git reported unavailable."""
        from majordomus.layer.index import build

        index = build(self.root, "filesystem").index
        return replace(index, git=GitState.unavailable("synthetic repository"))

    def context(self) -> Workspace:
        """The capability context over `index()`: what the Python API takes."""
        from majordomus.capabilities.workspace import Workspace

        return Workspace.from_index(self.index())

    # --- the generator's git writes (never used by the product's read path) ---------------

    def git_init(self) -> None:
        """Make the directory a git repository on `master` that ignores `.ai/local/`."""
        if not (self.root / ".git").exists():
            git(self.root, "init", "-q", "-b", "master")
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            ignore.write_text(".ai/local/\n", encoding="utf-8", newline="\n")

    def commit(self, message: str = "synthetic repository") -> str:
        """Stage everything and commit it (initialising git first); returns the new head."""
        self.git_init()
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", message)
        return git(self.root, "rev-parse", "HEAD").strip()

    # --- lifetime -------------------------------------------------------------------------

    def close(self) -> None:
        """Remove the temporary directory (a directory given with `at` is kept)."""
        if self._owner is not None:
            self._owner.cleanup()
            self._owner = None

    def __enter__(self) -> SyntheticRepository:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


# --- a reasoning ledger -------------------------------------------------------------------------

LEDGER_TASK = "synthetic"
LEDGER_START = 1_790_000_000  # 2026-09-21T...Z: the first record's second


@cache
def _data() -> dict[str, Any]:
    """The synthetic ledger's record bodies and the demo's files and records
    (`data/synthetic.json`), read once per process."""
    data: dict[str, Any] = json.loads(shipped_text("data", "synthetic.json"))
    return data


def _filled(template: Any, names: Mapping[str, Any]) -> Any:
    """`template` with each `{name}` in its strings filled from `names`."""
    if isinstance(template, str):
        return template.format_map(names)
    if isinstance(template, list):
        return [_filled(item, names) for item in template]
    if isinstance(template, dict):
        return {key: _filled(value, names) for key, value in template.items()}
    return template


def synthetic_ledger(root: Path, n: int, task: str = LEDGER_TASK) -> int:
    """Write `n` records into the store of `root` on `task` and make it current; returns n.
    Record `i` is kind `i mod 8` of chain `i div 8`, stamped `LEDGER_START + i` seconds, its
    body the kind's template in `data/synthetic.json`."""
    from majordomus.clock import stamp_of
    from majordomus.ledger.record import KINDS, RECORD_SCHEMA, RECORD_VERSION, ReasoningRecord
    from majordomus.ledger.store import STATE_DIR, record_bytes
    from majordomus.ledger.tasks import CURRENT_FILE

    folder = root / STATE_DIR / task
    folder.mkdir(parents=True, exist_ok=True)
    ids: dict[str, str] = {}
    for i in range(n):
        chain, kind = divmod(i, len(KINDS))
        kind_word = KINDS[kind]
        stamp = stamp_of(LEDGER_START + i).replace("Z", ".000Z")
        compact = "".join(ch for ch in stamp if ch.isalnum())
        record_id = f"{kind_word}-{compact}-{hashlib.sha256(str(i).encode()).hexdigest()[:6]}"
        # a record's body names its chain, a line in it, and the chain's earlier records
        names = {"chain": chain, "line": chain % 97 + 1, **ids}
        record = ReasoningRecord.model_validate(
            {
                "schema": RECORD_SCHEMA,
                "version": RECORD_VERSION,
                "id": record_id,
                "task": task,
                "recorded_at": stamp,
                "body": _filled(_data()["ledger"][kind_word], names),
            }
        )
        ids[kind_word] = record_id
        (folder / f"{record_id}.json").write_bytes(record_bytes(record))
    current = root / CURRENT_FILE
    current.parent.mkdir(parents=True, exist_ok=True)
    current.write_text(f'id: "{task}"\n', encoding="utf-8", newline="\n")
    return n


# --- the demo repository of `majordomus demo` ---------------------------------------------

DEMO_TASK = "PAY-2"


def demo_data() -> dict[str, Any]:
    """The demo's `files` (path → text) and the `assessment` and `conclusion` it records."""
    demo: dict[str, Any] = _data()["demo"]
    return demo


@contextlib.contextmanager
def demo_repository(directory: Path | None, *, keep: bool) -> Iterator[Path]:
    """The demo repository built at `directory` (default: a new temporary folder), removed
    afterwards unless `keep`."""
    if directory is not None and directory.exists():
        raise ProtocolFailure(f"{directory} exists; the demo writes a new folder")
    root = (directory or Path(tempfile.mkdtemp(prefix="majordomus-demo-")) / "payments").absolute()
    try:
        _build_demo(root)
        yield root
    finally:
        if not keep:
            shutil.rmtree(root if directory else root.parent, ignore_errors=True)


def _build_demo(root: Path) -> None:
    """A new git repository at `root` holding the demo's layer, committed."""
    from majordomus import safefs
    from majordomus.layer.init import init_layer

    root.mkdir(parents=True)
    git(root, "init", "-q")
    init_layer(root)
    for rel, text in demo_data()["files"].items():
        safefs.write_file(root, rel, text.encode("utf-8"), replacing=True)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "A payments service")


def demo_input(root: Path, record: dict[str, Any]) -> tuple[str, str]:
    """A record input written as `.ai/local/<kind>.json`: its path and text."""
    from majordomus import safefs

    rel, text = f".ai/local/{record['kind']}.json", json.dumps(record, indent=2) + "\n"
    safefs.write_file(root, rel, text.encode("utf-8"), replacing=True)
    return rel, text


def newest_demo_record(root: Path, kind: str) -> tuple[str, str]:
    """The newest stored record of `kind` in the demo's task: its path and text."""
    from majordomus import safefs
    from majordomus.ledger.store import RECORD_FILE_LIMIT, STATE_DIR, Store

    records = Store(root).load(team=False).records
    ident = max(r.id for r in records if r.kind == kind and r.task == DEMO_TASK)
    rel = f"{STATE_DIR}/{DEMO_TASK}/{ident}.json"
    return rel, safefs.read_file(root, rel, RECORD_FILE_LIMIT).decode("utf-8")
