"""The token bill (issue 31, item 7): what an MCP client receives in a typical session.

    python benchmarks/token_bill.py [--json] [--majordomus PATH] [--corpus DIR]
        [--issue I0905] [--budget 8000] [--keep DIR]

Copies /work/shared/corpus/prismatic-layer into a fresh, committed git repository with an
`adr` class added to its `sources.yaml` (benchmarks/corpus_repo.py; `majordomus lint`
confirms the ADRs are objects), starts `majordomus mcp` there with the official MCP Python
SDK client (`stdio_client` + `ClientSession`) and runs the session of issue 31: initialize,
tools/list, prompts/list, resources/templates/list, then the tools repository,
capabilities, list, list of kind rule, search "handover", get one issue, devcontext for
the issue at the budget plain and with `detail` (over MCP the plain answer is the bundle
already, docs/mcp.md; a server whose tool takes `bundle` instead is asked with that), and
reasoning status. Every list method follows `nextCursor` to the end, as a client that wants
the whole list does; a list tool is called once (its first page).

What is counted is what the client receives, on the wire: the server is started through a
relay (this script run as `relay CAPTURE -- COMMAND...`), which appends every byte of the
server's stdout to a capture file before passing it on. A step's bytes are what the
capture grew by while the step ran: the serialized JSON-RPC messages exactly as the server
wrote them, each with its newline, notifications included; tokens are bytes / 4. Tool
names and argument names are looked up in tools/list at run time; a step whose tool or
argument does not exist, or whose call fails, prints `n/a` and the error and is left out
of the total. `twice` marks a tool answer whose text block repeats its structuredContent.
The targets of issue 31 are checked at the end (informational; the exit status is 0
whenever the session ran). Without the corpus the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from benchmarks.corpus_repo import (  # noqa: E402
    CORPUS,
    MAJORDOMUS,
    check_adrs,
    corpus_repository,
    majordomus_environment,
    skip_unless_present,
)

#: The list methods of the session, in order, and the client's method for each.
LISTS = (
    ("tools/list", "list_tools"),
    ("prompts/list", "list_prompts"),
    ("resources/templates/list", "list_resource_templates"),
)
SESSION_TARGET = 40_000
TOOLS_LIST_TARGET = 5_000
ANSWER_TARGET = 10_000


# --- the relay: the server's stdout, byte for byte, to the client and to a capture file ---


def relay(capture: Path, command: list[str]) -> int:
    """Run COMMAND with this process's stdin and stderr; copy each line of its stdout to
    CAPTURE first, then to our stdout, so the capture holds a message before the client
    can have read it."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE)

    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    assert child.stdout is not None
    out = sys.stdout.buffer
    with capture.open("ab", buffering=0) as sink:
        for line in iter(child.stdout.readline, b""):
            sink.write(line)
            out.write(line)
            out.flush()
    return child.wait()


# --- the session ---


@dataclass
class Step:
    """One step of the session and what the client received during it."""

    step: str
    method: str
    bytes: int | None = None
    messages: int = 0
    status: str = "ok"
    error: str = ""
    twice: bool | None = None
    arguments: dict[str, Any] = field(default_factory=dict)

    @property
    def tokens(self) -> int | None:
        return None if self.bytes is None else round(self.bytes / 4)


@dataclass(frozen=True)
class ToolStep:
    """A tool call: the tool's possible names (first one tools/list has wins) and each
    argument's possible names with its value; `needed` arguments make the step n/a when
    the tool's schema takes none of their names."""

    label: str
    tools: tuple[str, ...]
    arguments: tuple[tuple[tuple[str, ...], Any], ...] = ()
    needed: tuple[str, ...] = ()


def tool_steps(issue: str, budget: int) -> tuple[ToolStep, ...]:
    devcontext = ("majordomus_devcontext", "majordomus_devcontext_compile")
    compile_args: tuple[tuple[tuple[str, ...], Any], ...] = (
        (("issue", "issue_id"), issue),
        (("budget_tokens", "budget"), budget),
    )
    listing = ("majordomus_list", "majordomus_objects_list")
    return (
        ToolStep("repository", ("majordomus_repository",)),
        ToolStep("capabilities", ("majordomus_capabilities", "majordomus_capabilities_list")),
        ToolStep("list", listing),
        ToolStep("list kind=rule", listing, ((("kind", "kinds"), "rule"),), ("kind",)),
        ToolStep(
            'search "handover"',
            ("majordomus_search", "majordomus_objects_search"),
            ((("query", "q", "text"), "handover"),),
            ("query",),
        ),
        ToolStep(
            f"get issue {issue}",
            ("majordomus_get", "majordomus_objects_get"),
            ((("uri", "id"), f"majordomus://issue/{issue}"),),
            ("uri",),
        ),
        ToolStep(f"devcontext {issue} @{budget}", devcontext, compile_args, ("issue",)),
        ToolStep(
            f"devcontext {issue} @{budget} +detail",
            devcontext,
            (*compile_args, (("detail", "bundle"), True)),
            ("issue", "detail"),
        ),
        ToolStep("reasoning status", ("majordomus_reasoning_status", "majordomus_reasoning")),
    )


def fit_arguments(step: ToolStep, schema: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The call's arguments under the names the tool's schema declares, or why it cannot
    be made. A schema without properties gets the first name of each argument."""
    properties = schema.get("properties")
    arguments: dict[str, Any] = {}
    for names, value in step.arguments:
        if not isinstance(properties, dict):
            arguments[names[0]] = value
            continue
        name = next((n for n in names if n in properties), None)
        if name is None:
            if names[0] in step.needed:
                taken = ", ".join(sorted(properties)) or "none"
                return {}, f"the tool takes no {'/'.join(names)} (its arguments: {taken})"
            continue
        declared = properties[name] if isinstance(properties[name], dict) else {}
        arguments[name] = [value] if declared.get("type") == "array" else value
    return arguments, ""


def repeats_itself(result: Any) -> bool | None:
    """Whether a tool answer's text block is its structuredContent again."""
    structured = getattr(result, "structured_content", None)
    if structured is None:
        return False
    for block in getattr(result, "content", None) or []:
        text = getattr(block, "text", None)
        if not isinstance(text, str):
            continue
        try:
            if json.loads(text) == structured:
                return True
        except ValueError:
            continue
    return False


def error_text(result: Any) -> str:
    for block in getattr(result, "content", None) or []:
        text = getattr(block, "text", None)
        if isinstance(text, str):
            return " ".join(text.split())[:200]
    return "the tool answered an error"


class Meter:
    """Reads how far the relay's capture has grown, and in how many messages."""

    def __init__(self, capture: Path) -> None:
        self.capture = capture
        self.seen = 0

    def take(self) -> tuple[int, int]:
        data = self.capture.read_bytes() if self.capture.exists() else b""
        grown = data[self.seen :]
        self.seen = len(data)
        return len(grown), grown.count(b"\n")


async def measured(
    meter: Meter, step: Step, call: Callable[[], Awaitable[Any]]
) -> tuple[Step, Any]:
    """Run one step; its bytes are the capture's growth (n/a when it failed)."""
    meter.take()
    result: Any = None
    try:
        result = await call()
    except Exception as exc:  # the surface is being redesigned: every failure is a row
        step.status, step.error = "error", f"{type(exc).__name__}: {exc}"[:300]
    received, messages = meter.take()
    step.messages = messages
    if step.status == "ok":
        step.bytes = received
    return step, result


async def list_all(client: Any, attribute: str) -> list[Any]:
    """Every page of the list method the client names `attribute`."""
    lister = getattr(client, attribute)
    return await paged(lambda params: lister(params=params))


async def paged(list_page: Callable[[Any], Awaitable[Any]]) -> list[Any]:
    """Every page of a list method, following nextCursor."""
    from mcp import types

    pages = [await list_page(None)]
    while getattr(pages[-1], "next_cursor", None) and len(pages) < 1000:
        params = types.PaginatedRequestParams(cursor=pages[-1].next_cursor)
        pages.append(await list_page(params))
    return pages


async def session(
    majordomus: str, root: Path, capture: Path, issue: str, budget: int
) -> list[Step]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

    env = get_default_environment() | {
        k: v for k, v in majordomus_environment().items() if k.startswith("MAJORDOMUS_")
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(Path(__file__).resolve()), "relay", str(capture), "--", majordomus, "mcp"],
        cwd=str(root),
        env=env,
    )
    meter = Meter(capture)
    steps: list[Step] = []
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as client,
        ):
            step, _ = await measured(meter, Step("initialize", "initialize"), client.initialize)
            steps.append(step)
            tools: dict[str, Any] = {}
            for method, attribute in LISTS:
                step, pages = await measured(
                    meter, Step(method, method), functools.partial(list_all, client, attribute)
                )
                steps.append(step)
                if method == "tools/list":
                    tools = {t.name: t for page in pages or [] for t in page.tools}
            for spec in tool_steps(issue, budget):
                steps.append(await tool_call(meter, client, tools, spec))
    return steps


async def tool_call(meter: Meter, client: Any, tools: dict[str, Any], spec: ToolStep) -> Step:
    name = next((n for n in spec.tools if n in tools), None)
    if name is None:
        return Step(
            spec.label,
            f"tools/call {spec.tools[0]}",
            status="n/a",
            error=f"no tool named {' or '.join(spec.tools)} in tools/list",
        )
    schema = getattr(tools[name], "input_schema", None) or {}
    arguments, why = fit_arguments(spec, schema)
    step = Step(spec.label, f"tools/call {name}", arguments=arguments)
    if why:
        step.status, step.error = "n/a", why
        return step
    step, result = await measured(meter, step, lambda: client.call_tool(name, arguments))
    if step.status == "ok" and getattr(result, "is_error", False):
        step.status, step.error, step.bytes = "error", error_text(result), None
    elif step.status == "ok":
        step.twice = repeats_itself(result)
    return step


# --- the report ---


def _row(target: str, value: object, met: bool) -> dict[str, Any]:
    return {"target": target, "value": value, "met": met}


def targets(steps: list[Step], total_tokens: int, budget: int) -> list[dict[str, Any]]:
    """Issue 31's targets against what was measured."""
    rows = [
        _row(f"session <= {SESSION_TARGET:,} tokens", total_tokens, total_tokens <= SESSION_TARGET)
    ]
    measured = [s for s in steps if s.tokens is not None]
    for s in measured:
        if s.step == "tools/list":
            rows.append(
                _row(
                    f"tools/list <= {TOOLS_LIST_TARGET:,} tokens",
                    s.tokens,
                    (s.tokens or 0) <= TOOLS_LIST_TARGET,
                )
            )
    if measured:
        largest = max(measured, key=lambda s: s.tokens or 0)
        value = f"{largest.tokens} ({largest.step})"
        rows.append(
            _row(
                f"no answer above {ANSWER_TARGET:,} tokens",
                value,
                (largest.tokens or 0) <= ANSWER_TARGET,
            )
        )
    for s in measured:
        if s.step.startswith("devcontext"):
            ratio = (s.tokens or 0) / budget
            rows.append(_row(f"{s.step} <= 1.0x budget", f"{ratio:.2f}x", ratio <= 1.0))
    answers = [s for s in steps if s.twice is not None]
    twice = [s.step for s in answers if s.twice]
    value = f"{len(twice)} of {len(answers)} tool answers do"
    rows.append(_row("no answer carries its content twice", value, not twice))
    return rows


def print_table(steps: list[Step], adrs: str, total: int, checks: list[dict[str, Any]]) -> None:
    print(adrs)
    print(f"{'step':<36} {'bytes':>10} {'tokens':>8} {'msgs':>4}  note")
    for s in steps:
        if s.bytes is None:
            print(f"{s.step:<36} {'n/a':>10} {'n/a':>8} {s.messages:>4}  {s.status}: {s.error}")
            continue
        note = "twice" if s.twice else ""
        print(f"{s.step:<36} {s.bytes:>10,} {s.tokens:>8,} {s.messages:>4}  {note}")
    print(f"{'total':<36} {total:>10,} {round(total / 4):>8,}")
    print()
    for row in checks:
        mark = "met" if row["met"] else "MISSED"
        print(f"{row['target']:<46} {row['value']!s:<28} {mark}")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["relay"]:
        if len(args) < 4 or args[2] != "--":
            raise SystemExit("usage: token_bill.py relay CAPTURE -- COMMAND...")
        return relay(Path(args[1]), args[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--majordomus", default=MAJORDOMUS, help="the executable to serve")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the layer to copy")
    parser.add_argument("--issue", default="I0905", help="the issue to get and compile")
    parser.add_argument("--budget", type=int, default=8000, help="devcontext budget_tokens")
    parser.add_argument("--keep", type=Path, help="build the repository here and keep it")
    opts = parser.parse_args(args)
    skip_unless_present(opts.corpus, "token_bill", opts.json)
    with corpus_repository(opts.corpus, opts.keep) as root, tempfile.TemporaryDirectory() as tmp:
        adrs = check_adrs(opts.majordomus, root)
        capture = Path(tmp) / "server-stdout.jsonl"
        steps = asyncio.run(session(opts.majordomus, root, capture, opts.issue, opts.budget))
    total = sum(s.bytes or 0 for s in steps)
    checks = targets(steps, round(total / 4), opts.budget)
    if opts.json:
        report = {
            "majordomus": opts.majordomus,
            "corpus": str(opts.corpus),
            "adrs": asdict(adrs),
            "steps": [asdict(s) | {"tokens": s.tokens} for s in steps],
            "total": {"bytes": total, "tokens": round(total / 4)},
            "targets": checks,
        }
        print(json.dumps(report, indent=2))
    else:
        print_table(steps, adrs.line(), total, checks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
