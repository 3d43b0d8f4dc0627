"""Secret redaction (reasoning §7.6): what is removed from a record before it touches disk.

Owns the table of secret shapes, the control-character scrub and the walk over every string
value of a body. Pure: no disk, no clock. The store calls `redact` between admission and
writing; nothing else may decide what counts as a secret.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import ValidationError

from majordomus.ledger.record import ReasoningBody, parse_body
from majordomus.order import canonical_strings

_ASCII = re.ASCII

#: The secret shapes in the order they are applied; each match becomes `[redacted:<name>]`.
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("anthropic-key", re.compile(r"sk-ant-[A-Za-z0-9_-]{16,}", _ASCII)),
    ("openai-key", re.compile(r"sk-(?:proj-)?[A-Za-z0-9_-]{20,}", _ASCII)),
    ("github-token", re.compile(r"gh[pousr]_[A-Za-z0-9_]{20,}", _ASCII)),
    ("github-pat", re.compile(r"github_pat_[A-Za-z0-9_]{20,}", _ASCII)),
    ("aws-access-key-id", re.compile(r"AKIA[0-9A-Z]{16}", _ASCII)),
    ("google-api-key", re.compile(r"AIza[0-9A-Za-z_-]{35}", _ASCII)),
    ("slack-token", re.compile(r"xox[abprs]-[A-Za-z0-9-]{10,}", _ASCII)),
    ("stripe-key", re.compile(r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}", _ASCII)),
    ("private-key-header", re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----", _ASCII)),
    ("bearer-token", re.compile(r"[Bb]earer [A-Za-z0-9._~+/=-]{20,}", _ASCII)),
    (
        "assignment",
        re.compile(
            r"(?P<keep>(?i:api[-_]?key|access[-_]?token|secret[-_]?key|password)"
            r"[\\\"']? *[:=] *[\\\"']?)"
            r"[A-Za-z0-9._~+/-]{16,}",
            _ASCII,
        ),
    ),
    # Shapes beyond the table of §7.6, found by the reliability corpus (tests/reliability):
    # applied after it, so the table's own matches and names stay exactly as specified.
    # Each starts at a literal or at the start of a run, so no input makes them quadratic.
    (
        "private-key-block",
        re.compile(
            r"(?:(?<=\[redacted:private-key-header\])|-----BEGIN PGP PRIVATE KEY BLOCK-----)"
            r"(?:(?:\s*[A-Za-z-]+: [^\n]*)*+[A-Za-z0-9+/=\s]*+"
            r"-----END [A-Z ]*PRIVATE KEY[A-Z ]*-----"
            r"|(?:\s*[A-Za-z0-9+/=]{40,})++)",
            _ASCII,
        ),
    ),
    (
        "jwt",
        re.compile(
            r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*",
            _ASCII,
        ),
    ),
    (
        "url-credentials",
        re.compile(
            r"(?P<keep>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*+://[^\s/?#@:]*+:)"
            r"(?!\[redacted:[a-z-]+\]@)[^\s/?#]+(?=@)",
            _ASCII,
        ),
    ),
    (
        "aws-secret-access-key",
        re.compile(
            r"(?P<keep>(?i:aws[-_]?secret[-_]?access[-_]?key)[\\\"']? *[:=] *[\\\"']?)"
            r"[A-Za-z0-9/+=]{40}",
            _ASCII,
        ),
    ),
    ("aws-temporary-access-key-id", re.compile(r"ASIA[0-9A-Z]{16}", _ASCII)),
    ("gitlab-token", re.compile(r"glpat-[A-Za-z0-9_-]{20,}", _ASCII)),
    (
        "basic-auth",
        re.compile(
            r"(?P<keep>(?i:authorization)[\\\"']? *[:=] *[\\\"']?(?i:basic) +)"
            r"[A-Za-z0-9+/]{4,}={0,2}",
            _ASCII,
        ),
    ),
)

SHAPE_NAMES: tuple[str, ...] = tuple(name for name, _ in SHAPES)

_MARKER = re.compile(r"\[redacted:([a-z-]+)\]")


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc"


def strip_controls(text: str) -> str:
    """Drop control characters other than `\\n`; an ESC `[` sequence goes up to its letter.

    Terminal escapes in advisor output must not reach a reader's terminal through a record.
    """
    if not any(_is_control(ch) and ch != "\n" for ch in text):
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\x1b" and i + 1 < n and text[i + 1] == "[":
            i += 2
            while i < n and not ("A" <= text[i] <= "Z" or "a" <= text[i] <= "z"):
                i += 1
            i += 1
            continue
        if ch == "\n" or not _is_control(ch):
            out.append(ch)
        i += 1
    return "".join(out)


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    text = strip_controls(text)
    for name, pattern in SHAPES:
        marker = f"[redacted:{name}]"
        if "keep" in pattern.groupindex:
            text = pattern.sub(r"\g<keep>" + marker, text)
        else:
            text = pattern.sub(marker, text)
    return text


def shapes_in(text: str) -> set[str]:
    """The shape names whose markers appear in `text` (a marker given as input counts too)."""
    return {name for name in _MARKER.findall(text) if name in SHAPE_NAMES}


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string value of a JSON value (keys untouched); kinds in canonical order."""
    found: set[str] = set()

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            cleaned = redact_text(node)
            found.update(shapes_in(cleaned))
            return cleaned
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        return node

    cleaned = walk(value)
    return cleaned, canonical_strings(found)


def redact(body: ReasoningBody) -> tuple[ReasoningBody, list[str]]:
    """The body with every secret shape replaced in every string, and the shapes found.

    Should the redacted form no longer parse as a body, the original is kept (with the
    shapes still reported), so a record is never lost to its own scrubbing.
    """
    value = body.wire()
    cleaned, kinds = redact_value(value)
    if cleaned == value:
        return body, kinds
    try:
        return parse_body(cleaned), kinds
    except ValidationError:
        return body, kinds
