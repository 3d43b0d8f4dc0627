"""`reasoning status --format json` answered without click (`majordomus.cli.plain_reasoning`):
the command lines it reads, the same answers as the click path (stdout bytes, stderr, exit
code) over healthy and hostile stores, and no click imported on its way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from majordomus.capabilities.reasoning import ReasoningStatusInput
from majordomus.cli import plain_reasoning
from majordomus.cli.plain_args import SHARED, SHARED_FLAGS
from majordomus.cli.plain_reasoning import read_request
from tests.cli.plain_support import click_command, import_probe, option_table
from tests.conftest import FIXTURES, MAJORDOMUS, command_env, make_git_repo
from tests.projections.store_files import STORE, chain, current_task, put

#: The console entry point with both plain paths switched off: what click answers.
CLICK_PATH = (
    "import sys\n"
    "import majordomus.cli.plain as plain\n"
    "import majordomus.cli.plain_reasoning as plain_reasoning\n"
    "plain.answer = plain_reasoning.answer = lambda args: None\n"
    "from majordomus.cli.entry import console\n"
    "sys.argv[0] = 'majordomus'\n"
    "console()\n"
)

#: The plain entry point, reporting whether click was imported.
PROBE = import_probe("click")


def test_the_option_table_is_the_click_commands() -> None:
    """What the plain path reads is what the command built from the input model and its view
    declares: the same options, each taking one value (a choice's the same values) or none."""
    command = click_command("reasoning", "status")
    taking, flags = option_table(command)
    assert flags == {*SHARED_FLAGS, *plain_reasoning.FLAGS}
    assert taking == {**SHARED, **dict.fromkeys(plain_reasoning.OPTIONS)}
    # the input fields behind the command's own options: optional texts, nothing else
    fields = ReasoningStatusInput.model_fields
    assert sorted(fields) == sorted(plain_reasoning.OPTIONS.values())
    for info in fields.values():
        assert not info.is_required()


def test_the_check_option_table_is_the_click_commands() -> None:
    """`reasoning check` is read only to find its root for the read-ahead; what it reads is
    what its click command declares."""
    taking, flags = option_table(click_command("reasoning", "check"))
    assert flags == set(SHARED_FLAGS)
    assert taking == {**SHARED, **dict.fromkeys(plain_reasoning.CHECK_OPTIONS)}


def test_the_settings_as_click_applies_them() -> None:
    root = ["--format", "text", "--quiet"]
    group = ["--log-level", "info", "--quiet"]
    command = ["--format", "json", "--log-level", "debug", "-q", "--task", "a", "--task=b"]
    request = read_request([*root, "reasoning", *group, "status", *command, "--report"])
    assert request is not None
    assert (request.format, request.task, request.report) == ("json", "b", True)
    assert request.as_of is None
    # per level, each option's callback runs once, in the order of its first appearance
    assert request.logging == ["off", "info", "off", "debug", "off"]
    moment = read_request(["reasoning", "status", "--as-of", "2026-10-01T09:30:00Z"])
    assert moment is not None and moment.as_of == "2026-10-01T09:30:00Z"


@pytest.mark.parametrize(
    "args",
    [
        ["reasoning", "status", "--help"],
        ["-h", "reasoning", "status"],
        ["reasoning", "status", "extra"],
        ["reasoning", "status", "--task"],
        ["reasoning", "status", "--task", "--report"],
        ["reasoning", "status", "--task", ""],
        ["reasoning", "status", "--task", "a\udcffb"],
        ["reasoning", "status", "--as-of", "yesterday"],
        ["reasoning", "status", "--report=yes"],
        ["reasoning", "--task", "t", "status"],
        ["reasoning", "--report", "status"],
        ["reasoning", "status", "--", "--task"],
        ["reasoning", "check"],
        ["status", "reasoning"],
        ["--repo", "reasoning", "reasoning", "status"],
    ],
)
def test_refused_command_lines(args: list[str]) -> None:
    assert read_request(args) is None


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, env=env, timeout=120)
    return done.returncode, done.stdout, done.stderr


CASES = [
    ["reasoning", "status", "--format", "json"],
    ["--format", "json", "reasoning", "status", "--task", "all"],
    ["reasoning", "--format=json", "status", "--task=nobody", "--report"],
    ["reasoning", "status", "--format", "json", "--as-of", "2026-10-01T09:02:00Z"],
    ["reasoning", "status", "--format", "json", "--as-of", "2026-10-01T11:03:30.5+02:00"],
    ["reasoning", "status", "--format", "json", "--as-of", "2026-13-01T00:00:00Z"],
    ["reasoning", "status", "--format", "json", "--bogus"],
    ["-q", "reasoning", "status", "--format", "json", "--log-level", "debug"],
    ["reasoning", "status", "--format", "json", "--repo", "gone"],
    ["reasoning", "status"],
]


def _hostile(root: Path) -> None:
    """Records a hand could write: secrets, controls, bidi marks, odd stamps, duplicates,
    and files that hold no record."""
    put(root, "assessment-9", "2026-10-01T09:05:00Z", {
        "kind": "assessment",
        "subject": "key AKIAABCDEFGHIJKLMNOP\n\u202e turn \x1b[31m red \x7f",
        "materiality": "material",
        "confidence": "low",
        "hypothesis": "@@part-0@@ \"q\" \\ b",
        "evidence": [],
    })  # fmt: skip
    put(root, "assessment-10", "1790000000", {
        "kind": "assessment",
        "subject": "x" * 300,
        "materiality": "low",
        "confidence": "high",
        "hypothesis": "h",
        "evidence": [],
    }, task="u")  # fmt: skip
    store = root / STORE / "t"
    (store / "garbage.json").write_bytes(b"{not json")
    (store / "empty.json").write_bytes(b"")
    (store / "dup.json").write_bytes((store / "assessment-9.json").read_bytes())
    os.symlink("/etc/passwd", store / "link.json")
    os.mkfifo(store / "fifo.json")


@pytest.mark.parametrize("store", ["healthy", "hostile", "untasked", "empty"])
def test_answers_are_the_click_paths(tmp_path: Path, store: str) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "planned")
    if store != "empty":
        chain(root)
    if store != "untasked":
        current_task(root, "t")
    if store == "hostile":
        _hostile(root)
    for env in (command_env(), command_env({"MAJORDOMUS_REASONING_MODE": "off"})):
        for args in CASES:
            fast = _run([MAJORDOMUS, *args], root, env)
            slow = _run([sys.executable, "-c", CLICK_PATH, *args], root, env)
            assert fast == slow, args


def test_outside_a_repository_the_error_is_the_same(tmp_path: Path) -> None:
    args = ["reasoning", "status", "--format", "json"]
    fast = _run([MAJORDOMUS, *args], tmp_path, command_env())
    slow = _run([sys.executable, "-c", CLICK_PATH, *args], tmp_path, command_env())
    assert fast == slow
    assert fast[0] != 0 and fast[2].startswith(b"majordomus: ")


def test_the_plain_path_imports_no_click(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "planned")
    chain(root)
    args = ["reasoning", "status", "--format", "json", "--task", "t"]
    code, out, err = _run([sys.executable, "-c", PROBE, *args], root, command_env())
    assert code == 0 and json.loads(out)["state"]["task"] == "t"
    assert err.decode().splitlines()[-1] == "CLICK False"
