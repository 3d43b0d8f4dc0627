"""Refusals in the user's words: paths as the record was written, the kinds listed when `kind`
is wrong, a `task` inside the record pointing to where the task goes, a byte-order mark
accepted, a huge integer refused naming its field, one 1 MiB record limit on every surface,
and none of the validation library's own phrases in any message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import CapabilityError
from majordomus.ledger.record import KINDS, MAX_RECORD_BYTES
from tests.conftest import initialised_repo, run_majordomus
from tests.mcp.conftest import Pipes

JARGON = (
    "Unable to extract tag",
    "discriminator",
    "Extra inputs are not permitted",
    "Input should be",
    "Field required",
    "model_type",
    "model_attributes_type",
    "pydantic",
    "union_tag",
    "ValidationError",
    "ValueError",
    "validation error for",
    "errors.pydantic.dev",
    "input_value",
    "Value error,",
    "literal_error",
    "extra_forbidden",
    "Traceback",
)
KIND_LIST = ", ".join(KINDS)

#: Bare records a caller might write, each wrong in its own way.
BAD_RECORDS: list[Any] = [
    {},
    {"subject": "s"},
    {"kind": "hunch"},
    {"kind": 7},
    {"kind": None},
    {"kind": "assessment"},
    {"kind": "assessment", "subject": 5},
    {"kind": "assessment", "subject": "s", "task": "t"},
    {"kind": "assessment", "subject": "s", "id": "x", "recorded_at": "now"},
    {"kind": "assessment", "subject": "s", "materiality": "huge"},
    {"kind": "assessment", "subject": "s", "affects": "one"},
    {"kind": "assessment", "subject": "s", "affects": [1]},
    {"kind": "assessment", "subject": "s", "new_evidence": "yes"},
    {"kind": "assessment", "subject": "s", "evidence": [{"kind": "file"}]},
    {"kind": "assessment", "subject": "s", "evidence": [{"kind": "hearsay", "reference": "r"}]},
    {"kind": "assessment", "subject": "s", "evidence": "src/x.py"},
    {
        "kind": "assessment",
        "subject": "s",
        "evidence": [{"kind": "file", "reference": "r", "x": 1}],
    },
    {"kind": "consultation", "plan": "p", "advisor": "a", "status": "done"},
    {
        "kind": "consultation",
        "plan": "p",
        "advisor": "a",
        "status": "rate_limited",
        "retry_after_seconds": 300000000000,
    },
    {"kind": "consultation", "plan": "p", "advisor": "a", "status": "timeout", "duration_ms": -1},
    {
        "kind": "consultation",
        "plan": "p",
        "advisor": "a",
        "status": "completed",
        "usage": {"input_tokens": 1.5, "output_tokens": "2"},
    },
    {"kind": "consultation", "plan": "p", "advisor": "a", "status": "error", "stance": "agrees"},
    {"kind": "disagreement", "assessment": "a", "positions": [{"source": "primary"}]},
    {"kind": "resolution", "disagreement": "d"},
    {"kind": "conclusion", "assessment": "a", "decision": "d", "rationale": "r", "reviewed_by": []},
    {"kind": "conclusion", "assessment": "a", "decision": "d", "rationale": "r", "supersedes": 3},
    {"kind": "validation", "conclusion": "c", "check": "c", "outcome": "maybe"},
    {"kind": "attempt", "attempt": "a"},
    {"kind": "plan", "assessment": "nowhere"},
    {"kind": "assessment", "subject": "   "},
    [],
    "assessment",
    None,
]


def clean(message: str) -> None:
    for phrase in JARGON:
        assert phrase not in message, message
    assert "\n" not in message


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return initialised_repo(tmp_path_factory.mktemp("messages") / "repo")


@pytest.fixture(scope="module")
def ctx(root: Path) -> Workspace:
    return Workspace(root, environ={"PATH": "", "HOME": str(root)})


def refusal(ctx: Workspace, raw: Any) -> str:
    with pytest.raises(CapabilityError) as refused:
        ctx.executor.call("reasoning.record", raw)
    return refused.value.display


@pytest.mark.parametrize("record", BAD_RECORDS)
def test_every_refusal_in_process_is_free_of_library_words(ctx: Workspace, record: Any) -> None:
    clean(refusal(ctx, {"record": record}))


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {},
        {"record": {"kind": "assessment", "subject": "s"}, "task": 5},
        {"record": {"kind": "assessment", "subject": "s"}, "tasks": "t"},
        {"record": {"kind": "assessment", "subject": "s"}, "task": "all"},
        {"record": {"kind": "assessment", "subject": "s"}, "task": "../up"},
        [1],
    ],
)
def test_the_envelope_of_the_input_is_worded_plainly_too(ctx: Workspace, raw: Any) -> None:
    clean(refusal(ctx, raw))


def test_wrapped_paths_start_at_record_and_name_the_fields(ctx: Workspace) -> None:
    assert refusal(ctx, {"record": {"kind": "assessment"}}) == (
        "invalid input: record.subject: is required"
    )
    assert refusal(ctx, {"record": {"subject": "s"}}) == (
        f"invalid input: record.kind: is required; the kinds are {KIND_LIST}"
    )
    assert refusal(ctx, {"record": {"kind": "hunch"}}) == (
        f"invalid input: record.kind: 'hunch' is not a kind; the kinds are {KIND_LIST}"
    )
    assert refusal(ctx, {"record": {"kind": "assessment", "subject": "s", "task": "t"}}) == (
        "invalid input: record.task: a record does not carry its task; pass `task` beside `record`"
    )
    bad_evidence = {"kind": "assessment", "subject": "s", "evidence": [{"kind": "file"}]}
    assert refusal(ctx, {"record": bad_evidence}) == (
        "invalid input: record.evidence[0].reference: is required"
    )
    waits = {
        "kind": "consultation",
        "plan": "p",
        "advisor": "a",
        "status": "rate_limited",
        "retry_after_seconds": 300000000000,
    }
    assert refusal(ctx, {"record": waits}) == (
        "invalid input: record.retry_after_seconds: must be at most 604800"
    )


def test_an_oversized_record_is_refused_in_process(ctx: Workspace) -> None:
    big = {"kind": "assessment", "subject": "x" * (MAX_RECORD_BYTES + 1)}
    message = refusal(ctx, {"record": big})
    size = len(json.dumps(big, separators=(",", ":")))
    assert message == (
        "invalid input: the record is over the 1 MiB limit "
        f"({MAX_RECORD_BYTES} bytes): {size} bytes"
    )


def cli(root: Path, data: bytes | str, *args: str) -> tuple[int, str]:
    done = run_majordomus(["reasoning", "record", *args], cwd=root, input=data)
    return done.code, done.stderr


def test_the_cli_speaks_of_the_bare_record(root: Path) -> None:
    assert cli(root, '{"kind": "assessment"}') == (
        13,
        "majordomus: invalid input: subject: is required\n",
    )
    assert cli(root, '{"subject": "s"}') == (
        13,
        f"majordomus: invalid input: kind: is required; the kinds are {KIND_LIST}\n",
    )
    assert cli(root, '{"kind": "assessment", "subject": "s", "task": "t"}') == (
        13,
        "majordomus: invalid input: task: a record does not carry its task; name it with --task\n",
    )
    digits = '{"kind": "consultation", "plan": "p", "advisor": "a", "status": "timeout", '
    digits += '"duration_ms": ' + "9" * 5000 + "}"
    assert cli(root, digits) == (
        13,
        "majordomus: invalid input: the record holds an integer of more than 20 digits\n",
    )


def test_a_byte_order_mark_is_accepted(root: Path) -> None:
    code, stderr = cli(root, b'\xef\xbb\xbf{"kind": "assessment", "subject": "s"}')
    assert (code, stderr) == (0, "")


def test_one_limit_on_the_cli_for_files_and_standard_input(root: Path, tmp_path: Path) -> None:
    at_limit = json.dumps({"kind": "assessment", "subject": ""}).encode()
    at_limit = at_limit.replace(b'""', b'"' + b"x" * (MAX_RECORD_BYTES - len(at_limit)) + b'"')
    assert len(at_limit) == MAX_RECORD_BYTES
    assert cli(root, at_limit) == (0, "")
    over = at_limit.replace(b'"x', b'"xy', 1)
    path = tmp_path / "big.json"
    path.write_bytes(over)
    assert cli(root, b"", "--file", str(path)) == (
        13,
        "majordomus: invalid input: the record is over the 1 MiB limit "
        f"({MAX_RECORD_BYTES} bytes): {MAX_RECORD_BYTES + 1} bytes\n",
    )
    assert cli(root, over * 20) == (
        13,
        "majordomus: invalid input: the record is over the 1 MiB limit "
        f"({MAX_RECORD_BYTES} bytes)\n",
    )


@pytest.mark.parametrize("record", BAD_RECORDS)
def test_every_cli_refusal_is_free_of_library_words(root: Path, record: Any) -> None:
    code, stderr = cli(root, json.dumps(record))
    assert code == 13
    assert stderr.startswith("majordomus: ")
    clean(stderr.rstrip("\n"))


def test_mcp_refuses_an_oversized_record_as_an_over_long_line(root: Path) -> None:
    """A record over 1 MiB cannot arrive in a line within the 1 MiB line limit: the line is
    answered -32600 without being read whole, and the session goes on."""
    big = {"kind": "assessment", "subject": "x" * (MAX_RECORD_BYTES + 1)}
    session = Pipes().run(
        root,
        [
            Pipes.request(0, "initialize", {}),
            Pipes.call(1, "majordomus_reasoning_record", {"record": big}),
            Pipes.call(2, "majordomus_reasoning_record", {"record": {"kind": "hunch"}}),
        ],
    )
    answers = {a["id"]: a for a in session.responses}
    assert 1 not in answers
    assert answers[None]["error"]["code"] == -32600
    assert "the line is over the 1 MiB limit" in answers[None]["error"]["message"]
    unknown = answers[2]["result"]["content"][0]["text"]
    assert f"record.kind: 'hunch' is not a kind; the kinds are {KIND_LIST}" in unknown
    clean(unknown)
