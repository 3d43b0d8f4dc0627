"""`reasoning status --format json` answered without click and without building its input.

The command line of a status is a few optional texts and a flag: building the click command
tree, the command itself (from the input model) and the `ReasoningStatusInput` model adds
nothing to the answer but the cost of a fifth of a small command's start. A command line
this module can read exactly as click would (the options `OPTIONS` and `FLAGS` name, each in
its place, no help, no positional argument, no value that looks like an option, an `--as-of`
the input admits) asking for JSON is answered here with the capability's own answer
(`status_of`), serialised in the parts the click path writes; anything else returns None and
takes the click path, which words every usage error and renders the text views. The option
table is the one the click command of the capability declares: tests/cli/test_plain_reasoning.py
builds that command and compares, and proves the answers (bytes, stderr and exit code) the
same on both paths.
"""

from __future__ import annotations

from majordomus.cli.plain_args import (
    Settings,
    asked,
    read_command,
    respond,
    workspace,
    write_parts,
)

#: The words of the command answered here.
WORDS = ("reasoning", "status")
#: The capability behind it.
CAPABILITY = "reasoning.status"
#: The options of `reasoning status` itself taking a value: its input fields.
OPTIONS = {"--task": "task", "--as-of": "as_of"}
#: Its flags: `--report` (the view's, which changes the text alone).
FLAGS = {"--report": "report"}
#: `reasoning check`, and its one option (read to find the root; click answers).
CHECK_WORDS = ("reasoning", "check")
CHECK_OPTIONS = {"--as-of": "as_of"}


class Request(Settings):
    """A command line read: the shared settings, the input and the view's flag."""

    __slots__ = ("as_of", "report", "task")

    def __init__(self) -> None:
        super().__init__()
        self.task: str | None = None
        self.as_of: str | None = None
        self.report = False


class CheckRequest(Settings):
    """A `reasoning check` command line read: the shared settings and its option."""

    __slots__ = ("as_of",)

    def __init__(self) -> None:
        super().__init__()
        self.as_of: str | None = None


def read_request(args: list[str]) -> Request | None:
    """The request `args` make when they are `[shared] reasoning [shared] status [options]`
    exactly as click reads them, with an `--as-of` the input admits; None for anything else."""
    request = Request()
    if not read_command(args, WORDS, OPTIONS, FLAGS, request):
        return None
    if request.as_of is not None:
        from majordomus.projections.moment import moment_problem

        if moment_problem(request.as_of) is not None:
            return None  # click's usage error names the flag
    return request


def answer(args: list[str]) -> int | None:
    """The exit code of `args` answered here, or None when the click path must answer
    alone; a `reasoning check` or a status in text it can read is answered by the click
    path."""
    request = read_request(args)
    if request is None:
        check = CheckRequest()
        if not read_command(args, CHECK_WORDS, CHECK_OPTIONS, {}, check):
            return None
        return _clicked(args, check)
    if request.format != "json":
        return _clicked(args, request)
    return respond(request, _answer)


def _answer(request: Request) -> int:
    """What the capability's command does with `--format json` (`capability_commands`):
    the handler's failures worded as the executor words them, the answer in parts."""
    ctx = workspace(request)
    from majordomus.capabilities.reasoning_status import status_of
    from majordomus.wire_parts import pretty_parts

    status = asked(CAPABILITY, lambda: status_of(ctx, request.task, request.as_of))
    return write_parts(pretty_parts(status, _clean_json))


def _clicked(args: list[str], request: Settings) -> int:
    """`args` answered by the click path: `reasoning check`, and a status in text."""
    from majordomus.cli.app import run

    return run(args)


def _clean_json(data: bytes) -> bytes:
    from majordomus.egress import clean_json_bytes
    from majordomus.wire import dumps_pretty

    return clean_json_bytes(data, dumps_pretty)
