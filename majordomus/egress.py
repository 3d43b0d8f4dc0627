"""The one filter every text passes on its way out of the process (docs/RELIABILITY.md)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from majordomus.redaction.redactor import redact_secrets, redact_value
from majordomus.wire import dumps_pretty

if TYPE_CHECKING:
    from pydantic import BaseModel

#: What a terminal or a bidi-aware viewer would act on instead of showing.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_LINE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
#: In JSON text the C0 controls are already escaped by the encoder; these are not.
_UNSAFE_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: How much of a quoted text is looked at before it is cut: enough that a secret straddling
#: the cut is still recognised whole and replaced.
_EXCERPT_WINDOW = 4096


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: str) -> str:
    """Human text as it may leave the process: redacted, controls but newline and tab escaped."""
    return _UNSAFE.sub(_escaped, redact_secrets(text))


def clean_line(text: str) -> str:
    """One line as it may leave the process: redacted, every control escaped."""
    return one_line(redact_secrets(text))


def one_line(text: str) -> str:
    """Every control escaped, newline and tab included: the text stays one line."""
    return _UNSAFE_LINE.sub(_escaped, text)


def excerpt(text: str, limit: int = 80) -> str:
    """At most `limit` characters of `text` for an error message: redacted, one line."""
    window = text[:_EXCERPT_WINDOW]
    shown = clean_line(window)
    if len(shown) > limit or len(window) < len(text):
        shown = shown[: limit - 1] + "…"
    return shown


def json_safe(text: str) -> str:
    """JSON text with DEL, C1 controls, bidi overrides and line separators as `\\uNNNN`."""
    return _UNSAFE_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def clean_json(text: str, dumps: Callable[[Any], str]) -> str:
    """JSON text as it may leave the process: every secret in it redacted, still valid JSON."""
    redacted = redact_secrets(text)
    if redacted != text:
        try:
            json.loads(redacted)
        except ValueError:
            redacted = dumps(redact_value(json.loads(text), redact_secrets)[0])
    return json_safe(redacted)


def answer_json(answer: BaseModel) -> bytes:
    """An answer's indented JSON and its newline, cleaned, as UTF-8: what the CLI and HTTP send."""
    text = dumps_pretty(answer.model_dump(mode="json", by_alias=True))
    return (clean_json(text, dumps_pretty) + "\n").encode("utf-8")


def silence(out: IO[bytes] | IO[str]) -> None:
    """When the reader closed the output pipe: point `out`'s descriptor at /dev/null, so the
    flush at exit cannot fail loudly (a stream without one is left alone)."""
    try:
        fd = out.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
