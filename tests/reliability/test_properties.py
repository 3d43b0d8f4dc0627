"""Properties of the inputs a stranger controls (object URIs, JSON-RPC framing, admission, replay
order) under Hypothesis: only their own errors, no hang, well-formed answers."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import unquote

from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.errors import CapabilityError
from majordomus.layer.uris import SCHEME, candidates, object_uri
from majordomus.ledger.admission import Admission
from majordomus.ledger.loaded import by_citation, cites
from majordomus.ledger.record import KINDS, ReasoningRecord, parse_input
from majordomus.ledger.service import Ledger
from majordomus.ledger.store import Store
from majordomus.mcp import session
from majordomus.mcp.jsonrpc import Dispatcher
from tests.ledger.records import stored_record

# -- object URIs -------------------------------------------------------------------------------


@given(st.text(min_size=1, max_size=40))
def test_a_uri_names_any_identity_on_one_printable_line(identity: str) -> None:
    uri = object_uri("document", identity)
    assert uri.isascii() and uri.isprintable() and " " not in uri
    assert unquote(uri.removeprefix(SCHEME + "document/")) == identity
    assert candidates(uri)[0] == uri
    assert uri in candidates(f"{SCHEME}document/{identity}")


# -- JSON-RPC framing --------------------------------------------------------------------------

LIMIT = 16


@given(st.lists(st.binary(max_size=3 * LIMIT).map(lambda b: b.replace(b"\n", b"")), max_size=6))
def test_each_line_is_read_whole_or_answered_as_over_long(lines: list[bytes]) -> None:
    data = b"".join(line + b"\n" for line in lines)
    with mock.patch.object(session, "MAX_LINE_BYTES", LIMIT):
        read = list(session._lines(io.BytesIO(data)))
    assert read == [line + b"\n" if len(line) <= LIMIT else None for line in lines]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
MESSAGE = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0"]),
        "id": st.none() | st.integers() | st.text(max_size=4),
        "method": st.sampled_from(["echo", "fail", "nothing"]) | JSON,
        "params": JSON,
    },
)
LINE = (
    st.binary(max_size=40)
    | JSON.map(lambda v: json.dumps(v).encode())
    | st.lists(MESSAGE, max_size=3).map(lambda v: json.dumps(v).encode())
    | MESSAGE.map(lambda v: json.dumps(v).encode())
)


def _fail(_: dict[str, Any]) -> Any:
    raise ValueError("boom")


@given(LINE)
def test_every_line_is_answered_with_valid_json_rpc(raw: bytes) -> None:
    server = Dispatcher({"echo": lambda params: params, "fail": _fail})
    for line in server.answer_lines(raw):
        answers = json.loads(line)
        for answer in answers if isinstance(answers, list) else [answers]:
            assert answer["jsonrpc"] == "2.0" and "id" in answer
            assert ("result" in answer) != ("error" in answer)
            if "error" in answer:
                assert answer["error"]["code"] in (-32700, -32600, -32601, -32602, -32603)


# -- record admission and the replay order -----------------------------------------------------

ADMISSION = Admission(mode=ModeResolution(mode=ReasoningMode.STANDARD, source="default"))
FIELD = st.sampled_from(
    [
        "subject",
        "assessment",
        "plan",
        "conclusion",
        "disagreement",
        "decision",
        "rationale",
        "advisor",
        "status",
        "outcome",
        "check",
        "attempt",
        "observed_failure",
        "supersedes",
        "materiality",
        "confidence",
        "consultations",
        "evidence",
        "experiment",
        "favours",
    ]
)
BODY = st.builds(
    lambda kind, fields: {"kind": kind, **fields},
    st.sampled_from(KINDS),
    st.dictionaries(
        FIELD, st.text(max_size=6) | st.sampled_from(["a-1", "low"]) | JSON, max_size=5
    ),
)


@given(st.lists(BODY, min_size=1, max_size=6))
def test_admission_refuses_in_its_own_words_and_what_it_admits_replays(
    bodies: list[dict[str, Any]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder))
        writer = Ledger(store, availability=lambda _: ADMISSION, head=lambda _: "b" * 40)
        admitted = []
        for body in bodies:
            try:
                admitted.append(writer.record(parse_input(body), task="t").record.id)
            except (ValidationError, CapabilityError):
                continue
        loaded = store.load()
        assert sorted(r.id for r in loaded.records) == sorted(admitted)
        assert loaded.unreadable == []


def _record(n: int, cited: list[int], at: int) -> ReasoningRecord:
    body: dict[str, Any] = {"kind": "assessment", "subject": f"s{n}"}
    if cited:
        body = {
            "kind": "conclusion",
            "assessment": f"r{cited[0]}",
            "decision": "d",
            "rationale": "r",
            "consultations": [f"r{c}" for c in cited[1:]],
        }
    return stored_record(f"r{n}", body, stamp=f"2026-10-01T09:00:{at:02}Z")


@given(st.lists(st.tuples(st.lists(st.integers(0, 7), max_size=3), st.integers(0, 59)), max_size=8))
def test_replay_never_puts_a_record_before_what_it_cites(
    shape: list[tuple[list[int], int]],
) -> None:
    records = [
        _record(n, [c for c in cited if c < len(shape) and c != n], at)
        for n, (cited, at) in enumerate(shape)
    ]
    ordered = by_citation(records)
    assert sorted(r.id for r in ordered) == sorted(r.id for r in records)
    place = {r.id: n for n, r in enumerate(ordered)}
    cyclic = False
    for r in records:
        cyclic = cyclic or any(place[c] > place[r.id] for c in cites(r) if c in place)
    # only a cycle of citations can keep a record before what it cites
    if cyclic:
        graph = {r.id: [c for c in cites(r) if c in place] for r in records}
        assert _has_cycle(graph)


def _has_cycle(graph: dict[str, list[str]]) -> bool:
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        if state.get(node) == 1:
            return True
        if state.get(node) == 2:
            return False
        state[node] = 1
        found = any(visit(n) for n in graph[node])
        state[node] = 2
        return found

    return any(visit(node) for node in graph)
