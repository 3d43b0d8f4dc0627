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
from typing import TYPE_CHECKING, Any, NamedTuple

from majordomus.errors import Refused

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
class _Source(NamedTuple):
    """A shape's pattern, compiled on first use: most texts never need most shapes, and
    compiling all of them would cost every command some milliseconds at start-up."""

    pattern: str
    flags: int = 0


SHAPES: tuple[tuple[str, _Source], ...] = (
    ("anthropic-key", _Source(r"sk-ant-[A-Za-z0-9_-]{16,}", _ASCII)),
    ("openai-key", _Source(r"sk-(?:proj-)?[A-Za-z0-9_-]{20,}", _ASCII)),
    ("github-token", _Source(r"gh[pousr]_[A-Za-z0-9_]{20,}", _ASCII)),
    ("github-pat", _Source(r"github_pat_[A-Za-z0-9_]{20,}", _ASCII)),
    ("aws-access-key-id", _Source(r"AKIA[0-9A-Z]{16}", _ASCII)),
    ("google-api-key", _Source(r"AIza[0-9A-Za-z_-]{35}", _ASCII)),
    ("slack-token", _Source(r"xox[abprs]-[A-Za-z0-9-]{10,}", _ASCII)),
    ("stripe-key", _Source(r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}", _ASCII)),
    ("private-key-header", _Source(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----", _ASCII)),
    ("bearer-token", _Source(r"[Bb]earer [A-Za-z0-9._~+/=-]{20,}", _ASCII)),
    (
        "assignment",
        _Source(
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
        _Source(
            r"(?:(?<=\[redacted:private-key-header\])"
            r"|-----BEGIN PGP PRIVATE KEY BLOCK-----"
            r"|-----BEGIN [A-Z0-9]+(?: [A-Z0-9]+)*+ PRIVATE KEY(?: [A-Z]+)?-----)"
            r"(?:(?:(?:\s|\\+[nr])*+[A-Za-z-]+: [^\n\\\"]*)*+(?:[A-Za-z0-9+/=\s]|\\+[nr])*+"
            r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----"
            r"|(?:(?:\s|\\+[nr])*+[A-Za-z0-9+/=]{40,})++)",
            _ASCII,
        ),
    ),
    (
        "jwt",
        _Source(
            r"eyJ(?<![A-Za-mo-qsu-z0-9_-]eyJ)(?<![^\\][nrt]eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*",
            _ASCII,
        ),
    ),
    (
        "url-credentials",
        _Source(
            r"(?P<keep>://(?<=[A-Za-z0-9+.-]://)[^\s/?#@:]*+:)"
            r"(?!\[redacted:[a-z-]+\]@)(?!\d++(?:[/?#\s\"]|$))"
            r"(?:[^\s/?#@\"]|@(?=[^\s/?#@\"]*+@)|[/?#](?=[^\s@\"]*+@))++(?=@)",
            _ASCII,
        ),
    ),
    (
        "aws-secret-access-key",
        _Source(
            r"(?P<keep>(?i:aws[-_]?secret[-_]?access[-_]?key)[\\\"']? *[:=] *[\\\"']?)"
            r"[A-Za-z0-9/+=]{40}",
            _ASCII,
        ),
    ),
    ("aws-temporary-access-key-id", _Source(r"ASIA[0-9A-Z]{16}", _ASCII)),
    ("gitlab-token", _Source(r"glpat-[A-Za-z0-9_-]{20,}", _ASCII)),
    (
        "basic-auth",
        _Source(
            r"(?P<keep>(?i:authorization)[\\\"']? *[:=] *[\\\"']?(?i:basic) +)"
            r"[A-Za-z0-9+/]{4,}={0,2}",
            _ASCII,
        ),
    ),
    (
        "openssh-private-key",
        _Source(r"b3BlbnNzaC1rZXktdjE(?:[A-Za-z0-9+/=]|\s|\\+[nr])++", _ASCII),
    ),
    (
        "aws-key-id",
        _Source(
            r"(?:A3T[A-Z0-9]|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASCA)(?<![A-Za-mo-qsu-z0-9]....)(?<![^\\][nrt]....)[A-Z0-9]{16}"
            r"(?![A-Za-z0-9])",
            _ASCII,
        ),
    ),
    (
        "gitlab-other-token",
        _Source(
            r"gl(?:dt|ptt|rt|cbt|imt|oas|soat|ffct|ft|agent)-[A-Za-z0-9_-]{20,}"
            r"|GR1348941[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    ("slack-webhook", _Source(r"https://hooks\.slack\.com/[A-Za-z0-9/_-]{20,}", _ASCII)),
    ("slack-app-token", _Source(r"x(?:app|ox[oe])-[A-Za-z0-9-]{10,}", _ASCII)),
    (
        "discord-webhook",
        _Source(
            r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    (
        "discord-bot-token",
        _Source(
            r"[MNO](?<![A-Za-mo-qsu-z0-9_-][MNO])(?<![^\\][nrt][MNO])[A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}",
            _ASCII,
        ),
    ),
    (
        "telegram-bot-token",
        _Source(r"[0-9]{8,10}:AA[A-Za-z0-9_-]{32,}", _ASCII),
    ),
    ("npm-token", _Source(r"npm_[A-Za-z0-9]{36}", _ASCII)),
    ("pypi-token", _Source(r"pypi-AgE[A-Za-z0-9_-]{40,}", _ASCII)),
    (
        "huggingface-token",
        _Source(r"hf_(?<![A-Za-mo-qsu-z0-9]hf_)(?<![^\\][nrt]hf_)[A-Za-z0-9]{30,}", _ASCII),
    ),
    (
        "sendgrid-key",
        _Source(r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}", _ASCII),
    ),
    ("google-oauth-secret", _Source(r"GOCSPX-[A-Za-z0-9_-]{20,}", _ASCII)),
    ("google-oauth-token", _Source(r"ya29\.[A-Za-z0-9_-]{20,}", _ASCII)),
    ("stripe-webhook-secret", _Source(r"whsec_[A-Za-z0-9+/=]{24,}", _ASCII)),
    (
        "twilio-api-key",
        _Source(r"SK(?<![A-Za-mo-qsu-z0-9]SK)(?<![^\\][nrt]SK)[0-9a-f]{32}(?![A-Za-z0-9])", _ASCII),
    ),
    (
        "mailgun-key",
        _Source(
            r"key-(?<![A-Za-mo-qsu-z0-9_-]key-)(?<![^\\][nrt]key-)[0-9a-zA-Z]{32}(?![A-Za-z0-9])",
            _ASCII,
        ),
    ),
    ("shopify-token", _Source(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", _ASCII)),
    ("digitalocean-token", _Source(r"do[opr]_v1_[a-f0-9]{64}", _ASCII)),
    (
        "heroku-api-key",
        _Source(
            r"HRKU-[A-Za-z0-9_-]{20,}"
            r"|(?P<keep>(?i:heroku)[A-Za-z0-9_.-]*+[\\\"']? *[:=] *[\\\"']?)"
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
            _ASCII,
        ),
    ),
    (
        "square-token",
        _Source(
            r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA(?<![A-Za-mo-qsu-z0-9+/]EAAA)(?<![^\\][nrt]EAAA)[A-Za-z0-9_-]{60,}",
            _ASCII,
        ),
    ),
    ("atlassian-token", _Source(r"ATATT3[A-Za-z0-9_=-]{40,}", _ASCII)),
    ("databricks-token", _Source(r"dapi[a-f0-9]{32}(?:-[0-9])?", _ASCII)),
    (
        "grafana-token",
        _Source(r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}", _ASCII),
    ),
    (
        "vault-token",
        _Source(
            r"hv[sb]\.(?<![A-Za-mo-qsu-z0-9]hv[sb]\.)(?<![^\\][nrt]hv[sb]\.)[A-Za-z0-9_-]{24,}",
            _ASCII,
        ),
    ),
    ("doppler-token", _Source(r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", _ASCII)),
    ("postman-key", _Source(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", _ASCII)),
    ("linear-key", _Source(r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", _ASCII)),
    ("newrelic-key", _Source(r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}", _ASCII)),
    ("age-secret-key", _Source(r"AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58}", re.ASCII | re.I)),
    (
        "alibaba-access-key-id",
        _Source(r"LTAI(?<![A-Za-mo-qsu-z0-9]LTAI)(?<![^\\][nrt]LTAI)[A-Za-z0-9]{20}", _ASCII),
    ),
    (
        "azure-client-secret",
        _Source(r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}", _ASCII),
    ),
    (
        "azure-storage-key",
        _Source(
            r"(?P<keep>(?i:AccountKey|SharedAccessKey|SharedAccessSignature)[\\\"']? *= *)"
            r"[A-Za-z0-9+/%]{20,}={0,2}",
            _ASCII,
        ),
    ),
    (
        "curl-credentials",
        _Source(
            r"(?P<keep>(?<![A-Za-mo-qsu-z0-9_-])(?<![^\\][nrt])curl\b[^\n]{0,200}?\s(?:-u|--user)(?:\s+|=)"
            r"[\\\"']?[^\s:\\\"'@]++:)(?!\$)[^\s\\\"']++",
            _ASCII,
        ),
    ),
    (
        "secret-assignment",
        _Source(
            r"(?P<keep>(?:(?i:password|passwd|passphrase|secret|token)"
            r"|(?<=[A-Za-z0-9][_.-])(?i:pass)|(?<![A-Za-mo-qsu-z0-9])(?<![^\\][nrt])(?:pwd|Pwd|PWD(?!=/))"
            r"|(?:" + _KEY_AFTER + r")(?i:key))"
            r"(?P<keyquote>\\*+[\"'])?(?P<before>[ \t]++)?(?::=|=>|=|(?P<colon>:))"
            r"(?P<after>[ \t]++)?(?P<quote>\\*+[\"'])?)"
            r"(?!\[redacted:)(?![<${%*])"
            r"(?!(?i:none|null|nil|true|false|undefined|str|string|int|bytes|bool|boolean"
            r"|optional|secretstr|required|redacted|await|new|self|this)(?![A-Za-z0-9_]))"
            r"(?(quote)[^\"'\\\n]{3,}+"
            r"|(?(keyquote)(?!)"
            r"|(?![A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)++(?![A-Za-z0-9_.]))"
            r"[^\s\"'`\\,;&|<>(){}\[\]$]{3,}+(?![(\[{])"
            r"(?(colon)(?=[ \t]*+(?:[\r\n,;)}#\\\"']|$))"
            r"|(?(before)(?=[ \t]*+(?:[\r\n,;)}#\\\"']|$))"
            r"|(?(after)(?=[ \t]*+(?:[\r\n,;)}#\\\"']|$)))))))",
            _ASCII,
        ),
    ),
)

SHAPE_NAMES: tuple[str, ...] = tuple(name for name, _ in SHAPES)

#: Literals one of which a text must hold for a shape to possibly match. Case-sensitive
#: literals are looked for in the text itself, those after `ANY_CASE` in the text lower-cased.
#: No shape is tried on a text that holds none of its literals: `_Prefilter` finds every
#: literal a text holds in one scan, instead of one scan per literal.
ANY_CASE = ""
#: Ends a literal that counts only where no letter or digit follows it (a whole key word).
WORD_END = "$"
_GATES: dict[str, tuple[str, ...]] = {
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "github-pat": ("github_pat_",),
    "aws-access-key-id": ("AKIA",),
    "google-api-key": ("AIza",),
    "slack-token": ("xox",),
    "stripe-key": ("k_live_", "k_test_"),
    "private-key-header": ("-----BEGIN",),
    "bearer-token": ("earer ",),
    "assignment": (
        ANY_CASE,
        *(
            f"{word}{joint}{tail}"
            for word, tail in (("api", "key"), ("access", "token"), ("secret", "key"))
            for joint in ("", "-", "_")
        ),
        "password",
    ),
    "private-key-block": ("-----BEGIN", "[redacted:private-key-header]"),
    "jwt": ("eyJ",),
    "url-credentials": ("://",),
    "aws-secret-access-key": (ANY_CASE, "secret"),
    "aws-temporary-access-key-id": ("ASIA",),
    "gitlab-token": ("glpat-",),
    "basic-auth": (ANY_CASE, "authorization"),
    "openssh-private-key": ("b3BlbnNzaC1rZXktdjE",),
    "aws-key-id": ("A3T", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ASCA"),
    "gitlab-other-token": ("gl", "GR1348941"),
    "slack-webhook": ("hooks.slack.com",),
    "slack-app-token": ("xapp-", "xoxo-", "xoxe-"),
    "discord-webhook": ("/api/webhooks/",),
    "discord-bot-token": (ANY_CASE, "discord"),
    "telegram-bot-token": (":AA",),
    "npm-token": ("npm_",),
    "pypi-token": ("pypi-AgE",),
    "huggingface-token": ("hf_",),
    "sendgrid-key": ("SG.",),
    "google-oauth-secret": ("GOCSPX-",),
    "google-oauth-token": ("ya29.",),
    "stripe-webhook-secret": ("whsec_",),
    "twilio-api-key": ("SK",),
    "mailgun-key": ("key-",),
    "shopify-token": ("shp",),
    "digitalocean-token": ("_v1_",),
    "heroku-api-key": ("HRKU-", ANY_CASE, "heroku"),
    "square-token": ("sq0", "EAAA"),
    "atlassian-token": ("ATATT3",),
    "databricks-token": ("dapi",),
    "grafana-token": ("glsa_", "glc_"),
    "vault-token": ("hvs.", "hvb."),
    "doppler-token": ("dp.",),
    "postman-key": ("PMAK-",),
    "linear-key": ("lin_",),
    "newrelic-key": ("NRAK-", "NRII-", "NRJS-"),
    "age-secret-key": (ANY_CASE, "age-secret-key-1"),
    "alibaba-access-key-id": ("LTAI",),
    "azure-client-secret": ("Q~",),
    "azure-storage-key": (ANY_CASE, "accountkey", "sharedaccess"),
    "curl-credentials": ("curl",),
    "secret-assignment": (
        ANY_CASE,
        *(f"{word}{WORD_END}" for word in ("password", "passwd", "passphrase", "pass", "pwd")),
        *(f"{word}{WORD_END}" for word in ("secret", "token", "key")),
    ),
}

#: For the shapes whose pattern cannot start with a literal (a key word in any case), the
#: lower-case words a match starts at: the pattern is tried only there, instead of at every
#: position of the text.
_ANCHORS: dict[str, str] = {
    "assignment": "api[-_]?key|access[-_]?token|secret[-_]?key|password",
    "aws-secret-access-key": "aws",
    "basic-auth": "authorization",
    "heroku-api-key": "hrku-|heroku",
    "age-secret-key": "age-secret-key-1",
    "azure-storage-key": "accountkey|sharedaccess",
    "curl-credentials": "curl",
    "secret-assignment": "(?:password|passwd|passphrase|pass|pwd|secret|token|key)(?![a-z0-9])",
}

#: ASCII-only lower-casing keeps every offset (`str.lower` lengthens a dotted capital I).
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def _split_gate(gate: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if ANY_CASE not in gate:
        return gate, ()
    at = gate.index(ANY_CASE)
    return gate[:at], gate[at + 1 :]


class _Shape:
    """One shape with its gate, its anchor and its marker; compiled on first need."""

    __slots__ = ("anchor", "any_case", "exact", "keep", "marker", "pattern", "source")

    def __init__(self, name: str, source: _Source) -> None:
        self.source = source
        self.pattern: re.Pattern[str] | None = None
        self.exact, self.any_case = _split_gate(_GATES[name])
        self.anchor = _ANCHORS.get(name)
        self.marker = f"[redacted:{name}]"
        self.keep = "(?P<keep>" in source.pattern

    def replace(self, match: re.Match[str]) -> str:
        return (match.group("keep") or "") + self.marker if self.keep else self.marker

    def compiled(self) -> re.Pattern[str]:
        if self.pattern is None:
            self.pattern = re.compile(self.source.pattern, self.source.flags)
        return self.pattern

    def sub(self, text: str, lowered: str | None) -> str:
        """The text with every match replaced; an anchored shape looks for its key words in
        `lowered`, which is `_lowered(text)`."""
        pattern = self.compiled()
        if self.anchor is None or lowered is None:
            return pattern.sub(self.replace, text)
        pieces: list[str] = []
        done = 0
        for hit in re.finditer(self.anchor, lowered):
            start = hit.start()
            if start < done:
                continue
            match = pattern.match(text, start)
            if match is None:
                continue
            pieces += (text[done:start], self.replace(match))
            done = match.end()
        return "".join((*pieces, text[done:])) if pieces else text


def _lowered(text: str) -> str:
    """`text` lower-cased with every offset kept."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


#: Characters of ordinary text and JSON, the most frequent first. A literal is looked for
#: from its rarest character (the first one not listed, else the one listed last).
_FREQUENT = ' \n"etaoinsrhldcu0123456789-/:,._mfpgywbvk(){}[]='


def _bare(literal: str) -> str:
    """The characters of a literal, without its `WORD_END`."""
    return literal.removesuffix(WORD_END)


def _word_end(literal: str) -> str:
    """What must follow a literal's characters in the lower-cased text."""
    return "(?![a-z0-9])" if literal.endswith(WORD_END) else ""


def _pivot(literal: str) -> int:
    """Where the scan looks for `literal`: at its rarest character."""
    bare = _bare(literal)
    rank = [_FREQUENT.find(char) % (len(_FREQUENT) + 1) for char in bare]
    return min(range(len(bare)), key=lambda at: (-rank[at], at))


class _Prefilter:
    """Which of a set of ASCII literals a text holds, in one scan of its UTF-8 bytes.

    One alternation finds each literal from its rarest character (`_pivot`): the rest of
    the literal (its tail), factored by common prefixes, then a look behind for the part
    before the pivot. The scan stops only where a literal may have its pivot, not at every
    common letter. Where a match could stand for several literals (tails that share a
    start), each is checked in place; where another tail may start inside a match (which
    the scan steps over), the alternation is tried there too. Compiled on first use.
    """

    __slots__ = ("_covered", "_pattern", "_tails", "literals")

    def __init__(self, literals: set[str]) -> None:
        self.literals = tuple(sorted(literals))
        self._tails = {literal: _bare(literal)[_pivot(literal) :] for literal in self.literals}
        self._pattern: re.Pattern[bytes] | None = None
        self._covered: dict[bytes, frozenset[str]] = {}

    def found(self, text: str, *, lower: bool = False) -> frozenset[str]:
        data = text.encode("utf-8", "surrogatepass")
        if lower:
            data = data.lower()  # ASCII letters only: no other character lowers to one
        if self._pattern is None:
            self._pattern = re.compile(_alternation(self.literals).encode("ascii"))
        held: frozenset[str] = frozenset()
        for hit in set(self._pattern.findall(data)):
            covered = self._covered.get(hit)
            if covered is None:
                covered = self._covered[hit] = self._covering(hit.decode("ascii"))
            held |= covered
        return held

    def _covering(self, hit: str) -> frozenset[str]:
        """The literals a matched tail may stand for: those whose tail starts it, and those
        whose tail may start inside it (where the scan, resuming after it, did not look)."""
        return frozenset(
            literal
            for literal, tail in self._tails.items()
            if hit.startswith(tail)
            or any(
                tail.startswith(hit[at:]) or hit[at:].startswith(tail) for at in range(1, len(hit))
            )
        )


def _alternation(literals: tuple[str, ...]) -> str:
    """A regular expression matching, at each place one of `literals` has its rarest
    character, the longest tail there whose literal is whole."""
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for char in _bare(literal)[_pivot(literal) :]:
            node = node.setdefault(char, {})
        node.setdefault("", []).append(literal)

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + emit(node[char]) for char in sorted(node) if char]
        ends = node.get("", [])
        if ends:
            behind = [
                (f"(?<={re.escape(_bare(literal))})" if _pivot(literal) else "")
                + _word_end(literal)
                for literal in ends
            ]
            branches += [""] if "" in behind else behind
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(trie)


_COMPILED: tuple[_Shape, ...] = tuple(_Shape(name, source) for name, source in SHAPES)
_EXACT = _Prefilter({literal for shape in _COMPILED for literal in shape.exact})
_ANY_CASE = _Prefilter({literal for shape in _COMPILED for literal in shape.any_case})

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
    exact, any_case = _EXACT.found(text), _ANY_CASE.found(text, lower=True)
    lowered: str | None = None
    for shape in _COMPILED:
        if exact.isdisjoint(shape.exact) and any_case.isdisjoint(shape.any_case):
            continue
        if lowered is None and shape.anchor is not None:
            lowered = _lowered(text)
        replaced = shape.sub(text, lowered)
        if replaced != text:
            # What a replacement adds is its marker: no case-sensitive literal but the
            # marker itself holds `[` or `]`, so none can span its edges. A key word next
            # to a marker may have become a whole word, so those are looked for again.
            text, lowered = replaced, None
            exact |= _EXACT.found(shape.marker)
            any_case = _ANY_CASE.found(text, lower=True)
    return text


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    return redact_secrets(strip_controls(text))


def shapes_in(text: str) -> set[str]:
    """The shape names whose markers appear in `text` (a marker given as input counts too)."""
    return {name for name in _MARKER.findall(text) if name in SHAPE_NAMES}


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string value of a JSON value (keys untouched); kinds in canonical order."""
    from majordomus.order import canonical_strings

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

    Should the redacted form no longer parse as a body (a secret in a field whose markers
    break its constraints), the record is refused: a secret never reaches disk, and the
    refusal names only the shapes, never the value.
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
        raise Refused(
            f"the record holds a secret ({', '.join(kinds)}) where its redacted form is no "
            "longer a valid record; remove the secret and record again"
        ) from None
