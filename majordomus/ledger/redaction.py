"""Secret redaction: what is removed from a record before it touches disk, and from every
text before it leaves the process (`majordomus.egress`).

Owns the table of secret shapes (docs/ledger.md names each one), the control-character scrub
and the walk over every string value of a body. Pure: no disk, no clock. The store calls
`redact` between admission and writing; nothing else decides what counts as a secret.
Cheap to import (no pydantic until a body is redacted): every error line uses it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Any

from majordomus.order import canonical_strings

if TYPE_CHECKING:
    from majordomus.ledger.record import ReasoningBody

_ASCII = re.ASCII

#: Words that make a following `key` a secret's name (`api_key`, `ClientKey`, `signing-key`),
#: spelt in every case a key name is written in.
_KEY_WORDS = ("api", "access", "secret", "private", "signing", "encryption", "master", "client")
_KEY_AFTER = "|".join(
    f"(?<={spelling}{joint})"
    for word in (*_KEY_WORDS, "app")
    for spelling in (word, word.upper(), word.capitalize())
    for joint in ("", "_", "-")
)

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
    # Shapes beyond the table (docs/ledger.md lists every name): applied after it, so the
    # table's own matches and names stay exactly as specified. Each starts at a literal, a
    # word start or the start of a run and uses possessive repeats, so no input makes one
    # quadratic; `_GATES` and `_ANCHORS` below keep the others from scanning every position.
    (
        "private-key-block",
        re.compile(
            r"(?:(?<=\[redacted:private-key-header\])"
            r"|-----BEGIN PGP PRIVATE KEY BLOCK-----"
            r"|-----BEGIN [A-Z0-9]+(?: [A-Z0-9]+)*+ PRIVATE KEY(?: [A-Z]+)?-----)"
            r"(?:(?:(?:\s|\\+[nr])*+[A-Za-z-]+: [^\n\\]*)*+(?:[A-Za-z0-9+/=\s]|\\+[nr])*+"
            r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----"
            r"|(?:(?:\s|\\+[nr])*+[A-Za-z0-9+/=]{40,})++)",
            _ASCII,
        ),
    ),
    (
        "jwt",
        re.compile(
            r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*",
            _ASCII,
        ),
    ),
    (
        "url-credentials",
        re.compile(
            r"(?P<keep>://(?<=[A-Za-z0-9+.-]://)[^\s/?#@:]*+:)"
            r"(?!\[redacted:[a-z-]+\]@)(?!\d++(?:[/?#\s]|$))"
            r"(?:[^\s/?#@]|@(?=[^\s/?#@]*+@)|[/?#](?=[^\s@]*+@))++(?=@)",
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
    (
        "openssh-private-key",
        re.compile(r"b3BlbnNzaC1rZXktdjE(?:[A-Za-z0-9+/=]|\s|\\+[nr])++", _ASCII),
    ),
    (
        "aws-key-id",
        re.compile(
            r"(?:A3T[A-Z0-9]|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASCA)(?<![A-Za-z0-9]....)[A-Z0-9]{16}"
            r"(?![A-Za-z0-9])",
            _ASCII,
        ),
    ),
    (
        "gitlab-other-token",
        re.compile(
            r"gl(?:dt|ptt|rt|cbt|imt|oas|soat|ffct|ft|agent)-[A-Za-z0-9_-]{20,}"
            r"|GR1348941[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/[A-Za-z0-9/_-]{20,}", _ASCII)),
    ("slack-app-token", re.compile(r"x(?:app|ox[oe])-[A-Za-z0-9-]{10,}", _ASCII)),
    (
        "discord-webhook",
        re.compile(
            r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    (
        "discord-bot-token",
        re.compile(
            r"[MNO](?<![A-Za-z0-9_-][MNO])[A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}",
            _ASCII,
        ),
    ),
    (
        "telegram-bot-token",
        re.compile(r"[0-9]{8,10}:AA[A-Za-z0-9_-]{32,}", _ASCII),
    ),
    ("npm-token", re.compile(r"npm_[A-Za-z0-9]{36}", _ASCII)),
    ("pypi-token", re.compile(r"pypi-AgE[A-Za-z0-9_-]{40,}", _ASCII)),
    ("huggingface-token", re.compile(r"hf_(?<![A-Za-z0-9]hf_)[A-Za-z0-9]{30,}", _ASCII)),
    (
        "sendgrid-key",
        re.compile(r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}", _ASCII),
    ),
    ("google-oauth-secret", re.compile(r"GOCSPX-[A-Za-z0-9_-]{20,}", _ASCII)),
    ("google-oauth-token", re.compile(r"ya29\.[A-Za-z0-9_-]{20,}", _ASCII)),
    ("stripe-webhook-secret", re.compile(r"whsec_[A-Za-z0-9+/=]{24,}", _ASCII)),
    (
        "twilio-api-key",
        re.compile(r"SK(?<![A-Za-z0-9]SK)[0-9a-f]{32}(?![A-Za-z0-9])", _ASCII),
    ),
    (
        "mailgun-key",
        re.compile(r"key-(?<![A-Za-z0-9_-]key-)[0-9a-zA-Z]{32}(?![A-Za-z0-9])", _ASCII),
    ),
    ("shopify-token", re.compile(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", _ASCII)),
    ("digitalocean-token", re.compile(r"do[opr]_v1_[a-f0-9]{64}", _ASCII)),
    (
        "heroku-api-key",
        re.compile(
            r"HRKU-[A-Za-z0-9_-]{20,}"
            r"|(?P<keep>(?i:heroku)[A-Za-z0-9_.-]*+[\\\"']? *[:=] *[\\\"']?)"
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
            _ASCII,
        ),
    ),
    (
        "square-token",
        re.compile(r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA[A-Za-z0-9_-]{60,}", _ASCII),
    ),
    ("atlassian-token", re.compile(r"ATATT3[A-Za-z0-9_=-]{40,}", _ASCII)),
    ("databricks-token", re.compile(r"dapi[a-f0-9]{32}(?:-[0-9])?", _ASCII)),
    (
        "grafana-token",
        re.compile(r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}", _ASCII),
    ),
    ("vault-token", re.compile(r"hv[sb]\.(?<![A-Za-z0-9]hv[sb]\.)[A-Za-z0-9_-]{24,}", _ASCII)),
    ("doppler-token", re.compile(r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", _ASCII)),
    ("postman-key", re.compile(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", _ASCII)),
    ("linear-key", re.compile(r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", _ASCII)),
    ("newrelic-key", re.compile(r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}", _ASCII)),
    ("age-secret-key", re.compile(r"AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58}", re.ASCII | re.I)),
    ("alibaba-access-key-id", re.compile(r"LTAI(?<![A-Za-z0-9]LTAI)[A-Za-z0-9]{20}", _ASCII)),
    (
        "azure-client-secret",
        re.compile(r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}", _ASCII),
    ),
    (
        "azure-storage-key",
        re.compile(
            r"(?P<keep>(?i:AccountKey|SharedAccessKey|SharedAccessSignature)[\\\"']? *= *)"
            r"[A-Za-z0-9+/%]{20,}={0,2}",
            _ASCII,
        ),
    ),
    (
        "curl-credentials",
        re.compile(
            r"(?P<keep>(?<![A-Za-z0-9_-])curl\b[^\n]{0,200}?\s(?:-u|--user)(?:\s+|=)"
            r"[\\\"']?[^\s:\\\"'@]++:)[^\s\\\"']++",
            _ASCII,
        ),
    ),
    (
        "secret-assignment",
        re.compile(
            r"(?P<keep>(?:(?i:password|passwd|passphrase|secret|token)"
            r"|(?<![A-Za-z0-9])(?i:pass)|(?<![A-Za-z0-9])(?:pwd|Pwd|PWD(?!=/))"
            r"|(?:" + _KEY_AFTER + r")(?i:key))"
            r"(?:\\?[\"'])?[ \t]*+(?::=|=>|=|(?P<colon>:))[ \t]*+(?P<quote>\\?[\"'])?)"
            r"(?!\[redacted:)"
            r"(?!(?i:none|null|nil|true|false|undefined|str|string|int|bytes|bool|boolean"
            r"|optional|secretstr|required|redacted)(?![A-Za-z0-9_]))"
            r"(?(quote)[^\"'\\\n]{3,}+"
            r"|(?![A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)++(?![A-Za-z0-9_.]))"
            r"[^\s\"'`\\,;&|<>(){}\[\]$]{3,}+(?![(\[{])(?(colon)(?=[ \t]*+(?:[\r\n,;}#\\]|$))))",
            _ASCII,
        ),
    ),
)

SHAPE_NAMES: tuple[str, ...] = tuple(name for name, _ in SHAPES)

#: Literals one of which a text must hold for a shape to possibly match, for the shapes whose
#: pattern does not start with a literal (a pattern that does is searched as fast as a
#: substring): such a shape runs only where its gate passes. Case-sensitive literals are
#: searched in the text itself, those after `ANY_CASE` in the text lower-cased.
ANY_CASE = ""
_GATES: dict[str, tuple[str, ...]] = {
    "stripe-key": ("k_live_", "k_test_"),
    "bearer-token": ("earer ",),
    "assignment": (ANY_CASE, "key", "token", "password"),
    "private-key-block": ("-----BEGIN", "[redacted:private-key-header]"),
    "aws-secret-access-key": (ANY_CASE, "secret"),
    "basic-auth": (ANY_CASE, "authorization"),
    "gitlab-other-token": ("gl", "GR1348941"),
    "discord-bot-token": (ANY_CASE, "discord"),
    "telegram-bot-token": (":AA",),
    "heroku-api-key": ("HRKU-", ANY_CASE, "heroku"),
    "square-token": ("sq0", "EAAA"),
    "age-secret-key": (ANY_CASE, "age-secret-key-1"),
    "azure-client-secret": ("Q~",),
    "azure-storage-key": (ANY_CASE, "accountkey", "sharedaccess"),
    "curl-credentials": ("curl",),
    "secret-assignment": (ANY_CASE, "pass", "pwd", "secret", "token", "key"),
}


#: For the shapes whose pattern cannot start with a literal (a key word in any case), the
#: lower-case words a match starts at: the pattern is tried only there, instead of at every
#: position of the text.
_ANCHORS: dict[str, str] = {
    "assignment": "api|access|secret|password",
    "aws-secret-access-key": "aws",
    "basic-auth": "authorization",
    "heroku-api-key": "hrku-|heroku",
    "age-secret-key": "age-secret-key-1",
    "azure-storage-key": "accountkey|sharedaccess",
    "curl-credentials": "curl",
    "secret-assignment": "pass|pwd|secret|token|key",
}

#: ASCII-only lower-casing keeps every offset (`str.lower` lengthens a dotted capital I).
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def _split_gate(gate: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if ANY_CASE not in gate:
        return gate, ()
    at = gate.index(ANY_CASE)
    return gate[:at], gate[at + 1 :]


class _Shape:
    """One compiled shape with its gate, its anchor and its marker."""

    __slots__ = ("anchor", "any_case", "exact", "gated", "keep", "marker", "pattern")

    def __init__(self, name: str, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.exact, self.any_case = _split_gate(_GATES.get(name, ()))
        self.gated = name in _GATES
        anchor = _ANCHORS.get(name)
        self.anchor = re.compile(anchor) if anchor else None
        self.marker = f"[redacted:{name}]"
        self.keep = "keep" in pattern.groupindex

    def replace(self, match: re.Match[str]) -> str:
        return (match.group("keep") or "") + self.marker if self.keep else self.marker

    def sub(self, text: str) -> str:
        if self.anchor is None:
            return self.pattern.sub(self.replace, text)
        lowered = text.lower()
        if len(lowered) != len(text):
            lowered = text.translate(_ASCII_LOWER)
        pieces: list[str] = []
        done = 0
        for hit in self.anchor.finditer(lowered):
            start = hit.start()
            if start < done:
                continue
            match = self.pattern.match(text, start)
            if match is None:
                continue
            pieces += (text[done:start], self.replace(match))
            done = match.end()
        return "".join((*pieces, text[done:])) if pieces else text


_COMPILED: tuple[_Shape, ...] = tuple(_Shape(name, pattern) for name, pattern in SHAPES)

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


def redact_secrets(text: str) -> str:
    """Replace every secret shape, in table order, by its marker (controls left alone)."""
    lowered: str | None = None
    for shape in _COMPILED:
        if shape.gated and not any(literal in text for literal in shape.exact):
            if not shape.any_case:
                continue
            if lowered is None:
                lowered = text.lower()
            if not any(literal in lowered for literal in shape.any_case):
                continue
        text = shape.sub(text)
    return text


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    return redact_secrets(strip_controls(text))


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
    from pydantic import ValidationError

    from majordomus.ledger.record import parse_body

    value = body.wire()
    cleaned, kinds = redact_value(value)
    if cleaned == value:
        return body, kinds
    try:
        return parse_body(cleaned), kinds
    except ValidationError:
        return body, kinds
