"""A corrupted store (docs/ledger.md#replay-never-fails, docs/RELIABILITY.md property 3): what is
not a record is `unreadable` and a `check` finding, `status` renders, nothing is rewritten,
and no planted FIFO or endless device makes a reader block or exhaust memory."""

from __future__ import annotations

import json
import os
import random
import resource
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from majordomus.ledger.lock import LOCK_NAME
from majordomus.ledger.store import STATE_DIR, Store
from majordomus.order import natural_key
from tests.conftest import MAJORDOMUS, answered, command_env, run_majordomus
from tests.ledger.records import envelope
from tests.mcp.conftest import Pipes

SEED = 9
TASK = "t"
MEMORY_CAP = 2 * 1024**3


def good_record(ident: str, stamp: str) -> dict[str, Any]:
    return envelope(ident, {"kind": "assessment", "subject": f"subject of {ident}"}, stamp=stamp)


GOOD = good_record("assessment-1", "2026-10-01T09:30:00.000Z")
GOOD_TEXT = json.dumps(GOOD, indent=2) + "\n"
_noise = random.Random(SEED)


def _with(**changes: Any) -> bytes:
    return json.dumps({**GOOD, "id": "x", **changes}).encode()


#: name → bytes of a file that is not a record of this store.
PLANTED: dict[str, bytes] = {
    "truncated.json": GOOD_TEXT.encode()[: len(GOOD_TEXT) // 2],
    "truncated-one-brace.json": GOOD_TEXT.encode()[:-3],
    "empty.json": b"",
    "blank.json": b" \n\t\n",
    "binary.json": _noise.randbytes(777),
    "nul.json": b"\x00" * 64,
    "png.json": b"\x89PNG\r\n\x1a\n" + _noise.randbytes(100),
    "latin1.json": GOOD_TEXT.replace("subject of", "sujet d\u00e9").encode("latin-1"),
    "bom.json": b"\xef\xbb\xbf" + GOOD_TEXT.encode(),
    "array.json": b"[]",
    "null.json": b"null",
    "number.json": b"1",
    "string.json": b'"majordomus/reasoning-record"',
    "foreign-schema.json": _with(schema="acme/other-record"),
    "no-schema.json": json.dumps({k: v for k, v in GOOD.items() if k != "schema"}).encode(),
    "version-2.json": _with(version=2),
    "version-0.json": _with(version=0),
    "version-string.json": _with(version="1"),
    "version-negative.json": _with(version=-1),
    "no-body.json": json.dumps({k: v for k, v in GOOD.items() if k != "body"}).encode(),
    "unknown-kind.json": _with(body={"kind": "opinion", "text": "x"}),
    "body-wrong-shape.json": _with(body={"kind": "assessment", "subject": 7}),
    "body-is-list.json": _with(body=["assessment"]),
    "id-not-string.json": _with(id=12),
    "deep.json": b"[" * 200_000 + b"]" * 200_000,
    "deep-object.json": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "nan.json": GOOD_TEXT.replace('"version": 1', '"version": NaN').encode(),
    "trailing-garbage.json": GOOD_TEXT.encode() + b"}",
}


def plant(root: Path) -> Path:
    """Two good records (tasks t and u) and every planted file in task t."""
    folder = root / STATE_DIR / TASK
    folder.mkdir(parents=True)
    (folder / "assessment-1.json").write_text(GOOD_TEXT, encoding="utf-8")
    other = root / STATE_DIR / "u"
    other.mkdir()
    second = good_record("assessment-2", "2026-10-01T09:31:00.000Z") | {"task": "u"}
    (other / "assessment-2.json").write_text(json.dumps(second, indent=2) + "\n", "utf-8")
    for name, data in PLANTED.items():
        (folder / name).write_bytes(data)
    return folder


def plant_specials(folder: Path) -> list[str]:
    """Entries no reader may block on or read without end: a directory, a FIFO, devices."""
    (folder / "directory.json").mkdir()
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "random.json").symlink_to("/dev/urandom")
    os.mkfifo(folder.parent / "fifo-target")
    (folder / "to-fifo.json").symlink_to(folder.parent / "fifo-target")
    return ["directory.json", "fifo.json", "random.json", "to-fifo.json", "zero.json"]


def snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under the store: type, and bytes + mtime for files, target for links."""
    taken: dict[str, tuple[Any, ...]] = {}
    base = root / STATE_DIR
    for path in sorted(base.rglob("*")):
        info = path.lstat()
        rel = path.relative_to(base).as_posix()
        if stat.S_ISLNK(info.st_mode):
            taken[rel] = ("link", os.readlink(path), info.st_mtime_ns)
        elif stat.S_ISREG(info.st_mode):
            taken[rel] = ("file", path.read_bytes(), info.st_mtime_ns, info.st_ino)
        else:
            taken[rel] = (stat.S_IFMT(info.st_mode), info.st_mtime_ns)
    return taken


def expected_unreadable(names: list[str]) -> list[str]:
    return sorted((f"{TASK}/{name}" for name in names), key=natural_key)


def test_load_lists_every_planted_file_and_keeps_the_good_records(repo: Path) -> None:
    plant(repo)
    before = snapshot(repo)
    loaded = Store(repo).load()
    assert [r.id for r in loaded.records] == ["assessment-1", "assessment-2"]
    assert loaded.unreadable == expected_unreadable(list(PLANTED))
    assert snapshot(repo) == before


def test_every_truncation_of_a_record_is_unreadable(repo: Path) -> None:
    """Each prefix of a real record file, short of the whole text, is no record."""
    folder = repo / STATE_DIR / TASK
    folder.mkdir(parents=True)
    data = GOOD_TEXT.encode()
    for size in range(len(data) - 1):
        (folder / f"cut-{size:04d}.json").write_bytes(data[:size])
    before = snapshot(repo)
    loaded = Store(repo).load()
    assert loaded.records == []
    assert len(loaded.unreadable) == len(data) - 1
    assert snapshot(repo) == before


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def majordomus_bounded(
    args: list[str], root: Path, env: dict[str, str], stdin: bytes | None = None
) -> Any:
    """Run `majordomus` with a timeout and a memory cap: a reader that blocks or reads
    without end fails the test instead of stalling the suite or the machine."""
    try:
        return subprocess.run(
            [MAJORDOMUS, *args],
            cwd=root,
            input=stdin,
            capture_output=True,
            text=stdin is None,
            env=command_env(env),
            timeout=30,
            preexec_fn=_cap_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"majordomus {' '.join(args)} did not finish: a store entry blocked it")


def test_status_renders_check_reports_each_and_nothing_is_rewritten(
    repo: Path, suite_env: dict[str, str]
) -> None:
    folder = plant(repo)
    names = [*PLANTED, *plant_specials(folder)]
    unreadable = expected_unreadable(names)
    before = snapshot(repo)

    status = majordomus_bounded(
        ["reasoning", "status", "--task", "all", "--format", "json"], repo, suite_env
    )
    assert status.returncode == 0, status.stderr
    state = json.loads(status.stdout)["state"]
    assert state["unreadable"] == unreadable
    assert state["totals"]["records"] == 2

    text = majordomus_bounded(["reasoning", "status", "--task", "all"], repo, suite_env)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("task        all\n")
    assert "records     2 " in text.stdout

    check = majordomus_bounded(["reasoning", "check", "--format", "json"], repo, suite_env)
    assert check.returncode == 10, check.stderr
    findings = json.loads(check.stdout)["findings"]
    assert findings == [
        {"check": "records", "subject": path, "message": "a reasoning record that does not parse"}
        for path in unreadable
    ]
    lines = majordomus_bounded(["reasoning", "check"], repo, suite_env)
    assert lines.returncode == 10
    for path in unreadable:
        assert f"FAIL records   {path}: a reasoning record that does not parse\n" in lines.stdout

    explain = majordomus_bounded(["reasoning", "explain", "assessment-2"], repo, suite_env)
    assert explain.returncode == 0, explain.stderr
    assert snapshot(repo) == before, "reading a corrupted store changed it"

    recorded = run_majordomus(
        ["reasoning", "record", "--task", TASK, "--format", "json"],
        cwd=repo,
        input='{"kind": "assessment", "subject": "after the damage"}',
        env=suite_env,
        timeout=30,
    )
    assert recorded.code == 0, recorded.stderr
    after = snapshot(repo)
    after.pop(LOCK_NAME)  # the first write takes the writer lock, creating its file
    new = json.loads(recorded.stdout)["path"].removeprefix(STATE_DIR + "/")
    assert set(after) - set(before) == {new}
    assert {k: v for k, v in after.items() if k != new and k != TASK} == {
        k: v for k, v in before.items() if k != TASK
    }


def test_the_mcp_server_and_its_status_survive_the_specials(
    repo: Path, suite_env: dict[str, str]
) -> None:
    """The same store through the MCP tool: answered, not hung (a FIFO blocks a naive read)."""
    folder = plant(repo)
    names = [*PLANTED, *plant_specials(folder)]
    lines = [Pipes.call(1, "majordomus_reasoning", {"task": "all"}), Pipes.request(2, "ping")]
    data = "".join(json.dumps(line) + "\n" for line in lines)
    done = majordomus_bounded(["mcp"], repo, suite_env, stdin=data.encode())
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    state = answered(answers[0]["result"])["state"]
    assert state["unreadable"] == expected_unreadable(names)
