"""Task names (`[A-Za-z0-9][A-Za-z0-9._-]*`, checked before anything is written) and the
current task (docs/ledger.md#the-current-task)."""

from __future__ import annotations

import pytest

from majordomus.errors import Refused
from majordomus.ledger.tasks import (
    CURRENT_FILE,
    MAX_TASK_LENGTH,
    UNTASKED,
    check_task,
    current_task,
    task_problem,
)
from tests.layer.support import write


@pytest.mark.parametrize(
    "name", ["t", "untasked", "issue-4", "Feature_2.rc1", "9", "a..b", "x" * MAX_TASK_LENGTH]
)
def test_plain_names_are_accepted(name):
    assert task_problem(name) is None
    assert check_task(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        "a/b",
        "a\\b",
        "..",
        ".",
        "../escape",
        ".hidden",
        "-flag",
        "_x",
        "/abs/path",
        "C:\\Windows",
        "nul\x00byte",
        "line\nbreak",
        "tab\tname",
        "with space",
        "ünïcode",
        "a:b",
        "trailing/",
    ],
)
def test_names_that_are_not_plain_directory_names_are_refused(name):
    with pytest.raises(Refused) as refused:
        check_task(name)
    message = refused.value.message
    assert message.startswith("task name ")
    assert "\n" not in message and "\x00" not in message
    assert "letters, digits, '.', '_' and '-'" in message


def test_a_name_too_long_for_a_directory_is_refused():
    with pytest.raises(Refused) as refused:
        check_task("x" * (MAX_TASK_LENGTH + 1))
    message = refused.value.message
    assert f"at most {MAX_TASK_LENGTH} characters" in message
    assert len(message) < 250, "the name itself is shown cut"


def test_all_is_reserved_for_every_task():
    with pytest.raises(Refused) as refused:
        check_task("all", origin=CURRENT_FILE)
    assert refused.value.message == (
        'task name "all" is reserved: `reasoning status --task all` means every task; '
        f"choose another name; it comes from {CURRENT_FILE}"
    )
    assert task_problem("All") is None and task_problem("all-hands") is None


def _current(tmp_path, text):
    write(tmp_path, CURRENT_FILE, text)
    return current_task(tmp_path)


def test_current_task_is_untasked_without_a_file(tmp_path):
    assert current_task(tmp_path) == UNTASKED


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("id: issue-4\nprofile: implementation\n", "issue-4"),
        ('profile: x\nid:   "quoted"  \n', "quoted"),
        ("id:\n", UNTASKED),
        ('id: ""\n', UNTASKED),
        ("profile: x\n", UNTASKED),
        ("  id: indented\n", UNTASKED),
        ("id: first\nid: second\n", "first"),
        ("id: crlf\r\n", "crlf"),
        ("id: a/b\n", "a/b"),
    ],
)
def test_current_task_is_the_first_id_line(tmp_path, text, expected):
    assert _current(tmp_path, text) == expected


@pytest.mark.parametrize(
    "token",
    [
        "ghp_" + "a1B2" * 9,
        "sk-ant-api03-" + "x" * 24,
        "AKIA" + "QWERTYUIOPASDFGH",
        "xoxb-1234567890-" + "b" * 12,
        "npm_" + "c" * 36,
        "glpat-" + "d" * 20,
    ],
)
def test_a_task_name_that_is_a_secret_is_refused_without_echoing_it(token):
    with pytest.raises(Refused) as caught:
        check_task(token)
    assert token not in caught.value.message
    assert token[4:12] not in caught.value.message
    assert "shape of a secret" in caught.value.message


@pytest.mark.parametrize("name", ["task-implement-the-cache-layer", "risk-assessment-of-the-pool"])
def test_ordinary_words_that_contain_a_key_prefix_stay_task_names(name):
    assert check_task(name) == name


def test_a_refused_name_is_shown_redacted():
    with pytest.raises(Refused) as caught:
        check_task("a/task-" + "z" * 24)
    assert "z" * 20 not in caught.value.message
    assert "[redacted:openai-key]" in caught.value.message
