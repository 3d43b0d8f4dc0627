"""The MCP server under a generated sweep of hostile input in one long session
(docs/RELIABILITY.md, property 6, lists the cases): each line gets the answer the rules
prescribe, a `ping` after each case is answered, an abrupt EOF exits 0, the witness is intact."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.record import ReasoningRecordInput
from majordomus.capabilities.schemas import canonical_schema
from majordomus.limits import MAX_JSON_DEPTH, MAX_LINE_BYTES
from tests.conftest import MAJORDOMUS, command_env, witness
from tests.mcp.conftest import Pipes
from tests.reliability.chain import MODELS, inputs
from tests.reliability.conftest import soak

SEED = 7
BATCHES = soak(60, 600)
BIG = 10 * 1024 * 1024
EXAMPLES: dict[str, Any] = {
    "string": "wrong",
    "integer": 7,
    "number": 1.5,
    "boolean": True,
    "array": [1],
    "object": {"x": 1},
    "null": None,
}


class Session:
    """`majordomus mcp` over pipes, one request at a time; stdout is read on a thread."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [MAJORDOMUS, "mcp"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=command_env(env),
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self.pings = 0
        self.cases = 0

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain(self) -> None:
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read()

    def send(self, raw: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(raw)
        self.process.stdin.flush()

    def next(self) -> Any:
        line = self.lines.get(timeout=120)
        assert line is not None, "the server stopped: " + self.stderr.decode(errors="replace")
        assert line.endswith(b"\n")
        return json.loads(line)

    def case(self, raw: bytes) -> list[Any]:
        """Send one line, then a ping; the answers the line got (the ping's is checked)."""
        self.cases += 1
        self.pings += 1
        ping = f"ping-{self.pings}"
        self.send(raw + b"\n" + json.dumps(request(ping, "ping")).encode() + b"\n")
        answers = []
        while True:
            answer = self.next()
            if isinstance(answer, dict) and answer.get("id") == ping:
                assert answer == {"jsonrpc": "2.0", "id": ping, "result": {}}
                return answers
            answers.append(answer)

    def one(self, raw: bytes) -> Any:
        [answer] = self.case(raw)
        return answer

    def finish(self, tail: bytes) -> tuple[list[Any], int]:
        """Send `tail` without a line end, close stdin: the last answers and the exit code."""
        self.send(tail)
        assert self.process.stdin is not None
        self.process.stdin.close()
        answers = []
        while (line := self.lines.get(timeout=120)) is not None:
            answers.append(json.loads(line))
        return answers, self.process.wait(timeout=60)


request, error = Pipes.request, Pipes.error


def encode(message: Any) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode()


assert_parse_error, assert_refusal = Pipes.assert_parse_error, Pipes.assert_refusal


# -- the generated cases -------------------------------------------------------------------


def allowed_types(schema: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    """The JSON types a schema admits (looking through $ref, anyOf, oneOf)."""
    if "$ref" in schema:
        return allowed_types(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    found: set[str] = set()
    for option in schema.get("anyOf", []) + schema.get("oneOf", []):
        found |= allowed_types(option, defs)
    kind = schema.get("type")
    if isinstance(kind, list):
        found |= set(kind)
    elif kind is not None:
        found.add(kind)
    elif "enum" in schema:
        found |= {type(v).__name__.replace("str", "string") for v in schema["enum"]}
    if "number" in found:
        found.add("integer")
    return found


def wrong_values(schema: dict[str, Any], defs: dict[str, Any]) -> list[Any]:
    allowed = allowed_types(schema, defs)
    assert allowed, schema
    return [value for kind, value in EXAMPLES.items() if kind not in allowed]


def tool_cases(tools: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(tool, arguments, what) for every wrong type of every parameter, an unknown
    parameter, and each missing required parameter; every one is an `invalid_input`."""
    for tool in tools:
        schema = tool["inputSchema"]
        defs = schema.get("$defs", {})
        base = base_arguments(tool["name"])
        required = set(schema.get("required", []))
        for name, sub in schema.get("properties", {}).items():
            for value in wrong_values(sub, defs):
                if value is None and name not in required:
                    continue  # null for an optional input means absent
                yield tool["name"], {**base, name: value}, f"{name}={value!r}"
        yield tool["name"], {**base, "zz_unknown": 1}, "unknown parameter"
        for name in schema.get("required", []):
            yield tool["name"], {k: v for k, v in base.items() if k != name}, f"no {name}"
    # the tool lists the record's tag; each kind's fields are its own schema
    defs = canonical_schema(ReasoningRecordInput, "validation")["$defs"]
    for kind, model in MODELS.items():
        base = inputs(kind, lambda path: "words", {k: f"{k}-1" for k in MODELS})
        properties = defs[model.__name__]["properties"]
        for name, sub in properties.items():
            if name == "kind":
                continue
            for value in wrong_values(sub, defs):
                yield (
                    "majordomus_reasoning_record",
                    {"record": {**base, name: value}},
                    f"record.{kind}.{name}={value!r}",
                )
        yield "majordomus_reasoning_record", {"record": {**base, "zz": 1}}, f"{kind}.zz"


def base_arguments(tool: str) -> dict[str, Any]:
    """Arguments that satisfy a tool's required parameters with values of the right type."""
    return {
        "majordomus_capability": {"id": "objects.get"},
        "majordomus_get": {"uri": "majordomus://repository"},
        "majordomus_search": {"query": "scope"},
        "majordomus_reasoning_explain": {"id": "assessment-1"},
        "majordomus_devcontext_explain": {"uri": "majordomus://prompt/continue"},
        "majordomus_reasoning_record": {"record": {"kind": "assessment", "subject": "s"}},
    }.get(tool, {})


def garbage_element(rng: random.Random) -> Any:
    choice = rng.randrange(9)
    ident = rng.choice(
        [rng.randrange(-5, 10**6), f"g{rng.randrange(10**6)}", 1.5, True, [1], {"a": 1}]
    )
    if choice == 0:
        return rng.choice([0, -1, 1.25, "text", None, True, False])
    if choice == 1:
        return rng.choice([[], [1, 2], [{"jsonrpc": "2.0", "id": 1, "method": "ping"}]])
    if choice == 2:
        return {}
    if choice == 3:
        return {"jsonrpc": "2.0", "id": ident}
    if choice == 4:
        return {"jsonrpc": "2.0", "id": ident, "method": rng.choice([1, None, [], {"m": 1}])}
    if choice == 5:
        return {"jsonrpc": "2.0", "method": rng.choice(["ping", "nope", "notifications/x"])}
    if choice == 6:
        return {"jsonrpc": "2.0", "id": None, "method": "ping"}
    if choice == 7:
        return {"jsonrpc": rng.choice(["2.0", "1.0", 2]), "id": ident, "method": "ping"}
    return {"jsonrpc": "2.0", "id": ident, "method": f"garbage/{rng.randrange(100)}", "params": 3}


def expected_for(element: Any) -> Any:
    """What the server answers one batch element: the answer, or None when it gets none."""
    if not isinstance(element, dict):
        return error(None, -32600, "a message is a JSON object")
    method, ident = element.get("method"), element.get("id")
    if not isinstance(method, str):
        return None if ident is None else error(ident, -32600, "missing method")
    if ident is None:
        return None
    if method == "ping":
        return {"jsonrpc": "2.0", "id": ident, "result": {}}
    return error(ident, -32601, f"method not found: {shown(method)}")


def shown(name: str) -> str:
    """How an error quotes a name the client sent: controls escaped, at most 80 characters."""
    visible = "".join(f"\\x{ord(c):02x}" if ord(c) < 0x20 else c for c in name)
    return visible if len(visible) <= 80 else visible[:79] + "…"


UNKNOWN_METHODS = [
    "logging/setLevel",
    "server/discover",
    "rpc.discover",
    "notifications/initialized",
    "PING",
    "ping ",
    " ping",
    "tools/call/",
    "",
    "\u0000",
    "мethod",
    "m" * 100_000,
]
INVALID_JSON = [
    b"{",
    b"}",
    b'{"a":}',
    b"nul",
    b"[1,]",
    b"{'jsonrpc':'2.0'}",
    b'{"jsonrpc":"2.0","id":1,"method":"ping"',
    b'{"jsonrpc":"2.0","id":1,"method":"ping"} trailing',
    b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":Infinity,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":"\\x41","method":"ping"}',
    b'"unterminated',
    b"\x00",
    b"\x1b[31m{}",
]
INVALID_UTF8 = [
    b"\xff",
    b'{"jsonrpc":"2.0","id":1,"method":"\xc3\x28"}',
    b'{"jsonrpc":"2.0","id":1,"method":"\xc0\xaf"}',
    b'{"jsonrpc":"2.0","id":1,"method":"\xed\xa0\x80"}',
    b'{"jsonrpc":"2.0","id":1,"method":"\xe2\x82"}',
    b"\xfe\xff\x00{",
]


@pytest.fixture
def session(repo: Path, suite_env: dict[str, str]) -> Iterator[tuple[Session, Path]]:
    before = witness(repo)
    running = Session(repo, suite_env)
    running.one(encode(request(0, "initialize", {"protocolVersion": "2025-06-18"})))
    yield running, repo
    if running.process.poll() is None:
        running.process.kill()
    assert witness(repo) == before, "the session changed the tracked tree"


def _framing(mcp: Session) -> None:
    """Lines that are not JSON, not UTF-8, or only blank."""
    for raw in INVALID_JSON:
        assert_parse_error(mcp.one(raw))
    for raw in INVALID_UTF8:
        assert_parse_error(mcp.one(raw), "parse error: input is not UTF-8")
    assert mcp.case(b"   \t ") == []


def _big_lines(mcp: Session) -> None:
    """10 MB lines (valid, unterminated, not UTF-8, blank, a huge query) are over the line
    limit and answered -32600; a line of exactly the limit is read and answered."""
    over = error(None, -32600, "the line is over the 1 MiB limit (1048576 bytes)")
    for raw in (
        encode(request("big", "ping", {"pad": "x" * BIG})),
        b'{"pad":"' + b"y" * BIG,
        b"\xff" * BIG,
        b" " * BIG,
        encode(
            request(
                "q", "tools/call", {"name": "majordomus_search", "arguments": {"query": "z" * BIG}}
            )
        ),
    ):
        assert mcp.one(raw) == over
    pad = MAX_LINE_BYTES - len(encode(request("exact", "ping", {"pad": ""})))
    exact = encode(request("exact", "ping", {"pad": "x" * pad}))
    assert len(exact) == MAX_LINE_BYTES
    assert mcp.one(exact) == {"jsonrpc": "2.0", "id": "exact", "result": {}}
    assert mcp.one(exact[:-1] + b" }") == over


def _assert_nested_answer(template: str, depth: int, nested: str, answer: Any) -> None:
    """The answer to `template` filled with `depth` nested lists."""
    if depth > MAX_JSON_DEPTH:
        assert_parse_error(answer, "parse error: nesting too deep")
    elif template == "%s":
        assert answer == [error(None, -32600, "a message is a JSON object")]
    elif '"id":%s' in template:
        assert answer == {"jsonrpc": "2.0", "id": json.loads(nested), "result": {}}
    elif "tools/call" in template:
        assert_refusal(answer, 1, "invalid_input")
    else:
        assert answer == {"jsonrpc": "2.0", "id": 1, "result": {}}


def _nesting(mcp: Session) -> None:
    """Nesting at every place a message can hold it, below and above the limit."""
    for depth in (10, 100, 500, 1_000, 5_000, 100_000):
        nested = "[" * depth + "]" * depth
        for template in (
            '{"jsonrpc":"2.0","id":1,"method":"ping","params":%s}',
            '{"jsonrpc":"2.0","id":%s,"method":"ping"}',
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"majordomus_search","arguments":{"query":%s}}}',
            "%s",
        ):
            answer = mcp.one((template % nested).encode())
            _assert_nested_answer(template, depth, nested, answer)


def _methods(mcp: Session) -> None:
    """Unknown methods, and methods that are not strings."""
    for n, method in enumerate(UNKNOWN_METHODS):
        assert mcp.one(encode(request(n, method))) == error(
            n, -32601, f"method not found: {shown(method)}"
        )
    for method in (1, None, [], {"name": "ping"}, True):
        assert mcp.one(encode({"jsonrpc": "2.0", "id": "m", "method": method})) == error(
            "m", -32600, "missing method"
        )


def _params(mcp: Session) -> None:
    """Params that are not what a method needs."""
    for params in (None, {"arguments": {}}, {"name": 5}):
        assert mcp.one(encode(request(1, "tools/call", params))) == error(
            1, -32602, "params.name is required"
        )
    for arguments in ([], "x", 3, True):
        assert mcp.one(
            encode(request(3, "tools/call", {"name": "majordomus_list", "arguments": arguments}))
        ) == error(3, -32602, "params.arguments must be an object")
    assert mcp.one(encode(request(4, "tools/call", {"name": "nope"}))) == error(
        4, -32602, "unknown tool: nope"
    )
    for params in (None, {}, {"uri": 5}, {"uri": None}):
        assert mcp.one(encode(request(5, "resources/read", params))) == error(
            5, -32602, "params.uri is required"
        )
    assert mcp.one(encode(request(6, "resources/read", {"uri": "majordomus://nope"}))) == error(
        6, -32002, "resource not found: majordomus://nope"
    )


def _tool_sweep(mcp: Session) -> None:
    """Every wrong type of every parameter of every tool."""
    tools = mcp.one(encode(request("list", "tools/list")))["result"]["tools"]
    swept = 0
    for number, (tool, arguments, what) in enumerate(tool_cases(tools)):
        answer = mcp.one(
            encode(request(number, "tools/call", {"name": tool, "arguments": arguments}))
        )
        assert "error" not in answer, (tool, what, answer)
        assert answer["result"]["isError"] is True, (tool, what)
        assert_refusal(answer, number, "invalid_input")
        swept += 1
    assert swept >= 500


def _garbage(mcp: Session, rng: random.Random) -> None:
    """Seeded batches of garbage, then a batch of a thousand pings."""
    assert mcp.one(b"[]") == error(None, -32600, "empty batch")
    for _ in range(BATCHES):
        batch = [garbage_element(rng) for _ in range(rng.randrange(1, 12))]
        expected = [e for e in map(expected_for, batch) if e is not None]
        got = mcp.case(encode(batch))
        assert got == ([expected] if expected else []), batch
    pings = [request(n, "ping") for n in range(1000)]
    assert mcp.one(encode(pings)) == [
        {"jsonrpc": "2.0", "id": n, "result": {}} for n in range(1000)
    ]


def test_one_long_session_of_hostile_input(session: tuple[Session, Path]) -> None:
    mcp, root = session
    rng = random.Random(SEED)

    _framing(mcp)
    _big_lines(mcp)
    _nesting(mcp)
    _methods(mcp)
    _params(mcp)
    _tool_sweep(mcp)
    _garbage(mcp, rng)

    assert mcp.cases > 700
    # an abrupt EOF in the middle of a message
    answers, code = mcp.finish(b'{"jsonrpc":"2.0","id":"last","method":"pi')
    assert code == 0
    [last] = answers
    assert_parse_error(last)
    assert b"Traceback" not in mcp.stderr
    assert not (root / ".ai/local/state/reasoning").exists(), "no refused call wrote a record"


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":"cut","method":"\xe2\x82', "parse error: input is not UTF-8"),
        (b'{"jsonrpc":"2.0","id":"cut","method":"ping"}', None),
        (b"", None),
    ],
    ids=["inside-a-character", "complete-but-unterminated", "between-lines"],
)
def test_an_abrupt_eof(session: tuple[Session, Path], tail: bytes, expected: str | None) -> None:
    mcp, _ = session
    answers, code = mcp.finish(tail)
    assert code == 0
    if expected is not None:
        [answer] = answers
        assert_parse_error(answer, expected)
    elif tail:
        assert answers == [{"jsonrpc": "2.0", "id": "cut", "result": {}}]
    else:
        assert answers == []
