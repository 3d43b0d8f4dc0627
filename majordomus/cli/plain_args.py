"""The command lines the plain paths answer (`cli/plain.py`, `cli/plain_reasoning.py`),
read exactly as click reads them or not at all.

A command line is `[shared] GROUP [shared] COMMAND [options]`: every level takes the shared
options (`majordomus.cli.settings`), the last also the command's own. Each option counts by
its first appearance (the order in which click runs their callbacks) with its last value.
Anything this module cannot read so (help, a positional argument, a value that looks like
an option, an empty value, a choice click refuses, a lone surrogate) answers None and the
click path words it. The tests of each plain path build the click command and compare its
option table with the one given here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

#: The options every level of the command line takes, with the values a choice admits
#: (None: any text).
SHARED: dict[str, tuple[str, ...] | None] = {
    "--repo": None,
    "--discovery": ("vcs", "filesystem"),
    "--format": ("text", "json"),
    "--log-level": ("trace", "debug", "info", "warn", "error", "off"),
}
#: The flags every level takes, by spelling, and the setting each stands for.
SHARED_FLAGS = {"--strict": "strict", "--quiet": "quiet", "-q": "quiet"}


#: A plain path's request.
R = TypeVar("R", bound="Settings")
#: What a capability's function answers.
T = TypeVar("T")


class Settings:
    """The shared settings of a command line read, and the logging options in the order
    click would apply them; a plain path's request adds its command's own fields."""

    __slots__ = ("discovery", "format", "logging", "repo", "strict")

    def __init__(self) -> None:
        self.repo: Path | None = None
        self.discovery = "vcs"
        self.strict = False
        self.format = "text"
        #: `--log-level` values and `--quiet` ("off"), as their callbacks run.
        self.logging: list[str] = []


def read_command(
    args: list[str],
    words: tuple[str, str],
    options: dict[str, str],
    flags: dict[str, str],
    request: Settings,
) -> bool:
    """Fill `request` from `args` when they are `words` with their levels' options, as
    click reads them (`options` and `flags`: the command's own, by spelling, each naming
    its field); False for anything else."""
    try:
        first = args.index(words[0])
        second = args.index(words[1], first + 1)
    except ValueError:
        return False
    none: dict[str, str] = {}
    levels = (
        (args[:first], none, none),
        (args[first + 1 : second], none, none),
        (args[second + 1 :], options, flags),
    )
    for tokens, own, own_flags in levels:
        values = _read_level(tokens, own, own_flags)
        if values is None:
            return False
        _apply(values, request, own_flags)
    return True


def _read_level(
    tokens: list[str], options: dict[str, str], flags: dict[str, str]
) -> dict[str, str] | None:
    """One level's options and flags, each by its first appearance with its last value;
    None when something is not what this module reads."""
    values: dict[str, str] = {}
    at = 0
    while at < len(tokens):
        token = tokens[at]
        at += 1
        name, value = token, None
        if token.startswith("--") and "=" in token:
            name, _, value = token.partition("=")
        if value is None and (name in SHARED_FLAGS or name in flags):
            values.setdefault(SHARED_FLAGS.get(name) or flags[name], "on")
            continue
        if name not in SHARED and name not in options:
            return None
        if value is None:
            if at == len(tokens):
                return None
            value = tokens[at]
            at += 1
        choices = SHARED.get(name)
        if not value or value.startswith("-") or (choices and value not in choices):
            return None
        try:
            value.encode("utf-8")  # a lone surrogate (undecodable argv) is the input's to word
        except UnicodeEncodeError:
            return None
        values[options.get(name, name)] = value
    return values


def _apply(values: dict[str, str], request: Settings, flags: dict[str, str]) -> None:
    for key, value in values.items():
        if key == "quiet":
            request.logging.append("off")
        elif key == "--log-level":
            request.logging.append(value)
        elif key == "strict" or key in flags.values():
            setattr(request, key, True)
        elif key == "--repo":
            request.repo = Path(value)
        else:
            setattr(request, key.removeprefix("--"), value)


def respond(request: R, answer: Callable[[R], int]) -> int:
    """The exit code of `answer(request)` after the request's logging options, as the click
    path sets them: a reader gone early is no failure, and any failure is rendered as the
    command line renders it."""
    from majordomus.cli import logs
    from majordomus.pipes import silence

    logs.configure(server=False)
    for level in request.logging:
        logs.set_level(level)
    try:
        return answer(request)
    except BrokenPipeError:
        silence(sys.stdout)
        return 0
    except Exception as exc:
        from majordomus.cli.errors import exit_code_for

        return exit_code_for(exc)


def workspace(request: Settings) -> Workspace:
    """The one-shot workspace the request's settings name (no freshness watch)."""
    from majordomus.capabilities.workspace import Workspace

    return Workspace(
        request.repo,
        discovery=request.discovery,  # type: ignore[arg-type]
        strict=request.strict,
        watch=False,
    )


def asked(capability: str, call: Callable[[], T]) -> T:
    """`call()`, its failures worded as the executor words a handler's: a capability's own
    error or a fatal one as raised, anything else logged and made an internal error."""
    from majordomus.errors import CapabilityError, Fatal, Internal

    try:
        return call()
    except (CapabilityError, Fatal):
        raise
    except Exception as exc:
        from majordomus.logger import log

        log.debug("capability %s failed", capability, exc_info=True)
        raise Internal(f"{capability} failed: {exc}") from exc


def write_parts(parts: Iterable[bytes]) -> int:
    """A JSON answer's parts on stdout, as the click path writes them; exit code 0."""
    stdout = sys.stdout.buffer
    for part in parts:
        stdout.write(part)
    stdout.write(b"\n")
    stdout.flush()
    return 0
