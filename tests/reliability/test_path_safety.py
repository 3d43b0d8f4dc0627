"""Path safety: no task name, record id, URI or pathspec a caller names makes the product read or
write outside where it should, on any surface (docs/RELIABILITY.md#filesystem-guards)."""

from __future__ import annotations

import builtins
import io
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

import majordomus
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import CapabilityError, Refused
from majordomus.layer.index import build
from majordomus.ledger.store import STATE_DIR, Store
from tests.conftest import git, run_majordomus, serve
from tests.ledger.records import stored_record
from tests.mcp.conftest import Pipes

BAD_TASKS = [
    "a/b",
    "a\\b",
    "..",
    ".",
    "../escape",
    "x/../../escape",
    "/tmp/escape",
    "/",
    "C:\\escape",
    "a\x00b",
    "\x00",
    "a" * 256,
    "b" * 10_000,
    "-rf",
    ".hidden",
    "a b",
    "a\n",
    "\n",
    "",
    "tâche",
    "a:b",
    "~",
    "%2e%2e",
]
CLI_BAD_TASKS = [t for t in BAD_TASKS if "\x00" not in t]  # argv cannot carry a NUL
RECORD = {"kind": "assessment", "subject": "where does this go"}


def tree(root: Path) -> list[str]:
    """Every path under `root` except git's internals (lstat only)."""
    found = []
    for base, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in dirs + files:
            found.append(os.path.relpath(os.path.join(base, name), root))
    return sorted(found)


@pytest.fixture
def sandbox(fresh_repo: Callable[[str], Path]) -> Path:
    """A repository inside an otherwise empty directory, so an escape would show up."""
    return fresh_repo("sandbox/repo")


def test_bad_task_names_are_refused_in_process(sandbox: Path, suite_env: dict[str, str]) -> None:
    before = tree(sandbox.parent)
    ctx = Workspace(sandbox, environ=suite_env)
    for task in BAD_TASKS:
        with pytest.raises(CapabilityError) as refused:
            ctx.executor.call("reasoning.record", {"record": RECORD, "task": task})
        assert refused.value.code == "refused", task
        assert "task name" in refused.value.message and "\n" not in refused.value.message
    assert tree(sandbox.parent) == before
    assert not (sandbox / STATE_DIR).exists()


def test_the_longest_allowed_task_name_is_written(sandbox: Path, suite_env: dict[str, str]) -> None:
    ctx = Workspace(sandbox, environ=suite_env)
    answer = ctx.executor.call("reasoning.record", {"record": RECORD, "task": "a" * 255})
    assert answer["path"].startswith(f"{STATE_DIR}/{'a' * 255}/")


def test_a_body_cannot_carry_an_id_or_a_task(sandbox: Path, suite_env: dict[str, str]) -> None:
    ctx = Workspace(sandbox, environ=suite_env)
    for extra in ({"id": "../../escape"}, {"task": "../escape"}, {"path": "/tmp/escape"}):
        with pytest.raises(CapabilityError) as refused:
            ctx.executor.call("reasoning.record", {"record": {**RECORD, **extra}})
        assert refused.value.code == "invalid_input"
    for extra in ({"id": "../../escape"}, {"path": "/tmp/x"}):
        with pytest.raises(CapabilityError) as refused:
            ctx.executor.call("reasoning.record", {"record": RECORD, **extra})
        assert refused.value.code == "invalid_input"
    assert not (sandbox / STATE_DIR).exists()


def test_the_writer_refuses_a_crafted_id_or_task(sandbox: Path) -> None:
    """`Store.write` is the one writer: an envelope that did not come from the minting
    `record()` is checked as well, before the task directory is created."""
    store = Store(sandbox)
    before = tree(sandbox.parent)
    for ident in [
        "../../escape",
        "/tmp/escape",
        "a/b",
        "a\\b",
        "..",
        ".x",
        "",
        "a\x00b",
        "a" * 246,
    ]:
        record = stored_record(ident, RECORD)
        with pytest.raises(Refused, match=r"^record id "):
            store.write(record)
    for task in BAD_TASKS:
        record = stored_record("assessment-1", RECORD, task=task)
        with pytest.raises(Refused, match=r"^task name "):
            store.write(record)
    assert tree(sandbox.parent) == before
    record = stored_record("a" * 245, RECORD)
    assert store.write(record).endswith("/" + "a" * 245 + ".json")


def test_bad_task_names_are_refused_by_the_cli(sandbox: Path, suite_env: dict[str, str]) -> None:
    before = tree(sandbox.parent)
    for task in CLI_BAD_TASKS:
        done = run_majordomus(
            ["reasoning", "record", "--task", task],
            cwd=sandbox,
            input=json.dumps(RECORD),
            env=suite_env,
        )
        assert done.code == 13, (task, done.stderr)
        assert done.stdout == ""
        assert done.stderr.startswith("majordomus: refused: task name ")
        assert done.stderr.count("\n") == 1
    assert tree(sandbox.parent) == before


def test_a_bad_current_task_is_refused_naming_the_file(
    sandbox: Path, suite_env: dict[str, str]
) -> None:
    current = sandbox / ".ai/local/state/current.yaml"
    for task in ("../../escape", "/tmp/escape", "a/b"):
        current.write_text(f"id: {task}\n", encoding="utf-8")
        before = tree(sandbox.parent)
        done = run_majordomus(
            ["reasoning", "record"], cwd=sandbox, input=json.dumps(RECORD), env=suite_env
        )
        assert done.code == 13
        assert "it comes from .ai/local/state/current.yaml" in done.stderr
        assert tree(sandbox.parent) == before


def test_bad_task_names_are_refused_over_mcp(sandbox: Path, suite_env: dict[str, str]) -> None:
    before = tree(sandbox.parent)
    arguments = [{"record": RECORD, "task": task} for task in BAD_TASKS]
    messages = [Pipes.call(n, "majordomus_reasoning_record", a) for n, a in enumerate(arguments)]
    session = Pipes().run(sandbox, messages, env=suite_env)
    assert session.result.code == 0
    assert [a["id"] for a in session.responses] == list(range(len(BAD_TASKS)))
    for answer in session.responses:
        result = answer["result"]
        assert result["isError"] is True
        assert result["_meta"]["majordomus"]["error"]["code"] == "refused"
        assert result["content"][0]["text"].startswith("refused: task name ")
    assert tree(sandbox.parent) == before


def test_bad_task_names_are_refused_over_http(sandbox: Path, suite_env: dict[str, str]) -> None:
    before = tree(sandbox.parent)
    # --open-loopback: no token file is made, so the tree stays as it was
    server = serve(sandbox, "--open-loopback", env=suite_env)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for task in BAD_TASKS:
                answer = client.post(
                    "/api/v1/reasoning/records", json={"record": RECORD, "task": task}
                )
                assert answer.status_code == 422, (task, answer.text)
                assert answer.json()["error"]["code"] == "refused"
    finally:
        assert server.stop() == 0
    assert tree(sandbox.parent) == before


# -- reads: open() watched in-process -------------------------------------------------------


@dataclass
class Watch:
    """What a block asked to open, list or scan, and what the kernel really opened."""

    asked: list[str] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)


class _Spy:
    """Stand-ins for the calls that open, list or scan, each noting into `watch` first."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.real_open, self.real_io_open = builtins.open, io.open
        self.real_os_open, self.real_scandir, self.real_listdir = os.open, os.scandir, os.listdir

    def ask(self, path: Any) -> bool:
        if isinstance(path, int):
            return False
        self.watch.asked.append(
            os.fsdecode(path) if isinstance(path, bytes | os.PathLike) else str(path)
        )
        return True

    def got(self, fd: int) -> None:
        self.watch.opened.append(os.readlink(f"/proc/self/fd/{fd}"))

    def open_(self, file: Any, *args: Any, **kwargs: Any) -> Any:
        handle = self.real_open(file, *args, **kwargs)
        if self.ask(file):
            self.got(handle.fileno())
        return handle

    def os_open(self, path: Any, *args: Any, **kwargs: Any) -> int:
        self.ask(path)
        fd = self.real_os_open(path, *args, **kwargs)
        self.got(fd)
        return fd

    def scandir(self, path: Any = ".") -> Any:
        if self.ask(path):
            self.watch.opened.append(os.path.realpath(path))
        return self.real_scandir(path)

    def listdir(self, path: Any = ".") -> list[Any]:
        if self.ask(path):
            self.watch.opened.append(os.path.realpath(path))
        return self.real_listdir(path)


@contextmanager
def watched_opens() -> Iterator[Watch]:
    """Every path this process opens, lists or scans while the block runs: as asked, and
    as really opened (the target of the descriptor, `/proc/self/fd`, or the resolved
    directory), so a followed symlink shows up as its target."""
    watch = Watch()
    spy = _Spy(watch)
    builtins.open = io.open = spy.open_  # type: ignore[assignment]
    os.open, os.scandir, os.listdir = spy.os_open, spy.scandir, spy.listdir  # type: ignore[assignment]
    try:
        yield watch
    finally:
        builtins.open, io.open = spy.real_open, spy.real_io_open  # type: ignore[assignment]
        os.open, os.scandir, os.listdir = spy.real_os_open, spy.real_scandir, spy.real_listdir  # type: ignore[assignment]


PACKAGE = Path(majordomus.__file__).resolve().parent


def allowed(path: str, root: Path) -> bool:
    """Inside the repository, the package's own data, or the null device git's stdin uses."""
    real = Path(os.path.realpath(path))
    return (
        real.is_relative_to(os.path.realpath(root))
        or real.is_relative_to(PACKAGE)
        or (path == os.devnull)
    )


CRAFTED_IDS = ["../../../etc/passwd", "/etc/passwd", "untasked/../../x", "a\x00b", "x" * 100_000]


def test_explain_and_status_of_crafted_names_read_nothing_outside_the_store(
    sandbox: Path, suite_env: dict[str, str]
) -> None:
    ctx = Workspace(sandbox, environ=suite_env)
    ctx.executor.call("reasoning.record", {"record": RECORD, "task": "t"})
    store = str(sandbox / STATE_DIR)
    with watched_opens() as watch:
        for ident in CRAFTED_IDS:
            with pytest.raises(CapabilityError) as missing:
                ctx.executor.call("reasoning.explain", {"id": ident})
            assert missing.value.code == "not_found"
        for task in ["../../../etc", "/etc", "t/../../..", "a\x00b"]:
            answer = ctx.executor.call("reasoning.status", {"task": task})
            assert answer["state"]["totals"]["records"] == 0
    assert [p for p in watch.opened if not allowed(p, sandbox)] == []
    assert [p for p in watch.asked if ".." in Path(p).parts or "\x00" in p] == []
    inside = {p for p in watch.opened if p.startswith(str(sandbox))}
    # the directories on the way to the store are opened to reach it without following links
    on_the_way = {p for p in inside if store.startswith(p + "/")}
    assert inside <= {p for p in inside if p.startswith(store) or "/.ai/" in p} | on_the_way


CRAFTED_URIS = [
    "majordomus://document/../../etc/passwd",
    "majordomus://document/../../../../../../etc/passwd",
    "majordomus://document//etc/passwd",
    "majordomus://document/%2e%2e/%2e%2e/etc/passwd",
    "majordomus://document/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "majordomus://document/..%2f..%2fREADME.md",
    "majordomus://document/.ai/repo/rules/../../manifest.yaml",
    "majordomus://document/./.ai/repo/rules/README.md",
    "majordomus://document/.ai/repo/rules/README.md\x00.png",
    "majordomus://document/.ai/repo/rules/README.md/",
    "majordomus://policy/.ai/repo/../manifest.yaml",
    "majordomus://policy//work/main/.ai/repo/policy.yaml",
    "majordomus://rule/../../etc/passwd",
    "majordomus://repository/../../etc/passwd",
    "MAJORDOMUS://document/.ai/repo/rules/README.md",
    "file:///etc/passwd",
    "/etc/passwd",
    "../../etc/passwd",
    ".ai/manifest.yaml",
    "\x00",
    "",
    "majordomus://" + "a/" * 50_000,
]


def test_objects_get_of_crafted_uris_opens_nothing(
    sandbox: Path, suite_env: dict[str, str]
) -> None:
    ctx = Workspace(sandbox, environ=suite_env)
    assert ctx.executor.call("objects.get", {"uri": "majordomus://policy/.ai/repo/policy.yaml"})
    with watched_opens() as watch:
        for uri in CRAFTED_URIS:
            with pytest.raises(CapabilityError) as missing:
                ctx.executor.call("objects.get", {"uri": uri})
            assert missing.value.code == "not_found", uri
    assert (watch.asked, watch.opened) == ([], [])


def test_crafted_uris_are_not_found_on_every_surface(
    sandbox: Path, suite_env: dict[str, str]
) -> None:
    for uri in CRAFTED_URIS[:8]:
        done = run_majordomus(["objects", "get", uri], cwd=sandbox, env=suite_env)
        assert (done.code, done.stdout) == (12, ""), uri
        assert done.stderr.startswith("majordomus: not found: unknown resource: ")
    messages = []
    for n, uri in enumerate(CRAFTED_URIS):
        messages.append(Pipes.request(2 * n, "resources/read", {"uri": uri}))
        messages.append(Pipes.call(2 * n + 1, "majordomus_get", {"uri": uri}))
    answers = Pipes().run(sandbox, messages, env=suite_env).responses
    assert len(answers) == len(messages)
    for answer in answers:
        if answer["id"] % 2 == 0:
            assert answer["error"]["code"] == -32002
        else:
            assert answer["result"]["_meta"]["majordomus"]["error"]["code"] == "not_found"
    server = serve(sandbox, env=suite_env)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for uri in CRAFTED_URIS[:-1]:
                answer = client.get("/api/v1/object", params={"uri": uri})
                assert answer.status_code == 404, (uri, answer.text)
                assert answer.json()["error"]["code"] == "not_found"
    finally:
        assert server.stop() == 0


# -- layer discovery and symlinks --------------------------------------------------------


RULE = """\
---
id: outside.leak
version: 1
kind: rule
title: Leaked
description: A rule that lives outside the repository.
statement: Never read.
status: active
class: advisory
depends_on: []
tags: [leak]
---

# Leaked
"""
PROFILE = "name: leaked\ndescription: a profile outside the repository\n"


@pytest.fixture
def linked(fresh_repo: Callable[[str], Path], tmp_path: Path) -> tuple[Path, Path]:
    """A repository whose tracked classes hold symlinks to a FIFO, to files and to a
    directory outside the root, and to a file inside it; all committed as links."""
    root = fresh_repo("linked/repo")
    outside = tmp_path / "outside"
    (outside / "rules").mkdir(parents=True)
    os.mkfifo(outside / "fifo")
    os.mkfifo(outside / "rules" / "fifo.v1.md")
    (outside / "rule.v1.md").write_text(RULE, encoding="utf-8")
    (outside / "rules" / "leak.v1.md").write_text(RULE, encoding="utf-8")
    (outside / "profile.yaml").write_text(PROFILE, encoding="utf-8")
    project = root / ".ai/repo/rules/project"
    (project / "fifo.v1.md").symlink_to(outside / "fifo")
    (project / "leak.v1.md").symlink_to(outside / "rule.v1.md")
    (project / "shared.v1.md").symlink_to(outside / "rules")
    (project / "shared").symlink_to(outside / "rules")
    (project / "inside.v1.md").symlink_to("../vendor/majordomus/rules/scope-integrity.v1.md")
    (root / ".ai/repo/profiles/leak.yaml").symlink_to(outside / "profile.yaml")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "links")
    return root, outside


LINKS = [
    ".ai/repo/profiles/leak.yaml",
    ".ai/repo/rules/project/fifo.v1.md",
    ".ai/repo/rules/project/inside.v1.md",
    ".ai/repo/rules/project/leak.v1.md",
    ".ai/repo/rules/project/shared.v1.md",
]


@pytest.mark.parametrize("discovery", ["vcs", "filesystem"])
def test_discovery_never_reads_a_symlink(linked: tuple[Path, Path], discovery: str) -> None:
    root, outside = linked
    with watched_opens() as watch:
        index = build(root, discovery).index  # type: ignore[arg-type]
    assert [p for p in watch.opened if p.startswith(os.path.realpath(outside))] == []
    assert [p for p in watch.opened if not allowed(p, root)] == []
    vendored = os.path.realpath(
        root / ".ai/repo/rules/vendor/majordomus/rules/scope-integrity.v1.md"
    )
    assert watch.opened.count(vendored) == 1, "the link to the vendored rule was followed"
    assert not [o for o in index.objects if "leak" in o.uri or o.provenance.path in LINKS]
    found = [(d.code, d.path) for d in index.diagnostics if d.severity == "error"]
    if discovery == "vcs":
        assert found == [("symlink", path) for path in LINKS]
    else:
        assert found == []


@pytest.mark.parametrize("discovery", ["vcs", "filesystem"])
def test_inspect_does_not_block_on_a_linked_fifo(
    linked: tuple[Path, Path], suite_env: dict[str, str], discovery: str
) -> None:
    root, _ = linked
    try:
        done = run_majordomus(
            ["mcp", "--inspect", "--discovery", discovery, "--format", "json"],
            cwd=root,
            env=suite_env,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("--inspect blocked: a symlink was followed to the FIFO")
    report = json.loads(done.stdout)
    codes = {(d["code"], d.get("path")) for d in report["repository"]["diagnostics"]}
    if discovery == "vcs":
        assert done.code == 10
        assert codes == {("symlink", path) for path in LINKS}
    else:
        assert done.code == 0, done.stderr
        assert codes == set()


ESCAPING_CLASS = """
  - id: escape
    kind: document
    discovery: vcs
    pathspec: '{pathspec}'
    required: false
"""


@pytest.mark.parametrize(
    "pathspec", [":(glob)../outside/*.md", ":(glob)../../**/*.md", ":(glob)/etc/*"]
)
def test_a_pathspec_never_leads_discovery_out_of_the_root(
    fresh_repo: Callable[[str], Path], tmp_path: Path, suite_env: dict[str, str], pathspec: str
) -> None:
    root = fresh_repo("climb/repo")
    outside = tmp_path / "climb" / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text("# outside\n", encoding="utf-8")
    sources = root / ".ai/repo/knowledge/sources.yaml"
    sources.write_text(
        sources.read_text(encoding="utf-8") + ESCAPING_CLASS.format(pathspec=pathspec),
        encoding="utf-8",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a class that climbs")
    with watched_opens() as watch:
        index = build(root, "filesystem").index
    assert [p for p in watch.opened if not allowed(p, root)] == []
    assert not [o for o in index.objects if "outside" in o.uri or "etc" in o.uri]
    done = run_majordomus(["mcp", "--inspect"], cwd=root, env=suite_env)
    assert done.code == 13, "vcs discovery: git refuses the pathspec, a fatal Git error"
    assert "is outside repository" in done.stderr
    assert "outside/leak.md" not in done.stdout
