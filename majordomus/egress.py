"""The one filter every text passes on its way out of the process (docs/RELIABILITY.md)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import IO, Any

from majordomus.redaction.redactor import Candidates, redact_secrets

#: What a terminal or a bidi-aware viewer would act on instead of showing.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_LINE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
#: In JSON text the C0 controls are already escaped by the encoder; these are not.
_UNSAFE_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: Where those characters may be, in UTF-8: the lead bytes of their encodings that ordinary
#: text rarely holds (each looked for with a `memchr`), and the encodings that start with
#: the one lead byte common in ordinary text (`—`, `→`, `…`).
_UNSAFE_JSON_LEADS = (b"\x7f", b"\xc2", b"\xd8")
#: One scan for all of them, stopping only at their common lead byte (a search per encoding
#: would walk a large answer once for each).
_UNSAFE_JSON_E2 = re.compile(
    b"|".join(
        re.escape(char.encode("utf-8"))
        for char in "\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    )
)

_PRINTABLE = bytes(range(0x20, 0x7F))
_SAFE_ASCII = _PRINTABLE + b"\n\t"

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


def _json_escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _has_unsafe(text: str, pattern: re.Pattern[str], safe: bytes) -> bool:
    if text.isascii():
        return bool(text.encode("ascii").translate(None, safe))
    return pattern.search(text) is not None


def escape_controls(text: str) -> str:
    """Control characters other than newline and tab, written visibly."""
    if not _has_unsafe(text, _UNSAFE, _SAFE_ASCII):
        return text
    return _UNSAFE.sub(_escaped, text)


def clean(text: str) -> str:
    """Human text as it may leave the process: redacted, controls escaped."""
    return escape_controls(redact_secrets(text))


def clean_line(text: str) -> str:
    """One line as it may leave the process: redacted, every control escaped."""
    return one_line(redact_secrets(text))


def one_line(text: str) -> str:
    """Every control escaped, newline and tab included: the text stays one line."""
    if not _has_unsafe(text, _UNSAFE_LINE, _PRINTABLE):
        return text
    return _UNSAFE_LINE.sub(_escaped, text)


def excerpt(text: str, limit: int = 80) -> str:
    """At most `limit` characters of `text` for an error message: redacted, one line."""
    window = text[:_EXCERPT_WINDOW]
    shown = clean_line(window)
    if len(shown) > limit or len(window) < len(text):
        shown = shown[: limit - 1] + "…"
    return shown


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, list):
        return [_clean_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _clean_value(item) for key, item in value.items()}
    return value


def json_safe(text: str) -> str:
    """JSON text with DEL, C1 controls, bidi overrides and line separators as `\\uNNNN`."""
    if text.isascii():
        return text.replace("\x7f", "\\u007f") if "\x7f" in text else text
    return _UNSAFE_JSON.sub(_json_escaped, text)


def clean_json(text: str, dumps: Callable[[Any], str], candidates: Candidates | None = None) -> str:
    """JSON text as it may leave the process: every secret in it redacted, still valid JSON."""
    redacted = redact_secrets(text, candidates)
    if redacted != text:
        try:
            json.loads(redacted)
        except ValueError:
            redacted = dumps(_clean_value(json.loads(text)))
    return json_safe(redacted)


def _json_safe_already(data: bytes) -> bool:
    """Whether `json_safe` would leave the text of these UTF-8 bytes as it is (False when
    it may not: the text is then decoded and looked at)."""
    if data.isascii():
        return b"\x7f" not in data
    if any(lead in data for lead in _UNSAFE_JSON_LEADS):
        return False
    return _UNSAFE_JSON_E2.search(data) is None


def clean_json_bytes(data: bytes, dumps: Callable[[Any], str]) -> bytes:
    """`clean_json` over UTF-8 bytes, decoded only when something in them may need cleaning."""
    candidates = Candidates(data)
    safe = _json_safe_already(data)
    if candidates.none() and safe:
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
    if safe and redact_secrets(text, candidates) == text:
        # a literal was there but no secret: `clean_json` would give the text back
        return data
    cleaned = clean_json(text, dumps, candidates)
    return data if cleaned == text else cleaned.encode("utf-8", "surrogateescape")


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
