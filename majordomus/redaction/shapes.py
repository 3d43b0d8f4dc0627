"""The table of secret shapes: each shape's name, pattern and the literals that gate it.

Data only; `majordomus.redaction.redactor` matches them. docs/ledger.md names every shape, in
the order they are applied.
"""

from __future__ import annotations

import re
from typing import NamedTuple

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

#: Where a word starts: no letter, digit, `_` or `-` before it, but the letter of a JSON
#: escape (`\nmysql`) may be.
_WORD_START = r"(?<![A-Za-mo-qsu-z0-9_-])(?<![^\\][nrt])"
#: A dotted name (`settings.API_KEY`, `request.headers.get`): code naming a value, not one.
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)++(?![A-Za-z0-9_.])"
#: Words a description holds and a passphrase of words does not (`password: the user's`).
_FUNCTION_WORDS = "the|a|an|and|or|of|for|to|is|are|be|in|on|with|from|by|as|it|not|your|this|see"


def _spelled(pattern: str) -> Source:
    """A shape's pattern with `(?W)` for `_WORD_START`, `(?S)` for the whitespace between
    words (escaped newlines and tabs too) and `(?D)` for `_DOTTED`."""
    for short, long in (("(?W)", _WORD_START), ("(?S)", r"(?:\s|\\[nt])+"), ("(?D)", _DOTTED)):
        pattern = pattern.replace(short, long)
    return Source(pattern, _ASCII)


def _alone(prefix: str) -> str:
    """Look-behinds that keep a token's prefix from matching inside a longer word (a letter
    or digit before it), allowing the `n`, `r`, `t` of a JSON escape (`\\n`) before it."""
    escaped = re.escape(prefix)
    return f"(?<![A-Za-mo-qsu-z0-9]{escaped})(?<![^\\\\][nrt]{escaped})"


#: Tokens that start with a prefix of their own: (name, prefix, the rest of the token).
_PREFIXED = (
    ("groq-key", "gsk_", r"[A-Za-z0-9]{48,}"),
    ("replicate-token", "r8_", r"[A-Za-z0-9]{37}(?![A-Za-z0-9])"),
    ("supabase-token", "sbp_", r"[a-f0-9]{40}(?![a-f0-9])"),
    ("planetscale-token", "pscale_", r"(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64}"),
    ("pulumi-token", "pul-", r"[a-f0-9]{40}(?![a-f0-9])"),
    ("sentry-token", "sntry", r"(?:s_eyJ[A-Za-z0-9+/=]{20,}_[A-Za-z0-9+/]{43}|u_[a-f0-9]{64})"),
    ("mapbox-secret-token", "sk.eyJ", r"[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}"),
    ("xai-key", "xai-", r"[A-Za-z0-9]{70,}"),
    ("perplexity-key", "pplx-", r"[A-Za-z0-9]{40,}"),
    ("nvidia-key", "nvapi-", r"[A-Za-z0-9_-]{60,}"),
    ("docker-hub-token", "dckr_pat_", r"[A-Za-z0-9_-]{27,}"),
    ("tailscale-key", "tskey-", r"[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}"),
    ("langsmith-key", "lsv2_", r"(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("onepassword-token", "ops_eyJ", r"[A-Za-z0-9+/]{100,}={0,3}"),
    ("figma-token", "figd_", r"[A-Za-z0-9_-]{40,}"),
    ("notion-token", "ntn_", r"[A-Za-z0-9]{40,}"),
    ("rubygems-key", "rubygems_", r"[a-f0-9]{48}(?![a-f0-9])"),
    ("bitbucket-token", "ATBB", r"[A-Za-z0-9_=.-]{32,}"),
    ("google-refresh-token", "1//0", r"[A-Za-z0-9_-]{40,}"),
    ("fly-token", "fm2_", r"[A-Za-z0-9+/=,_-]{40,}"),
    ("brevo-key", "xkeysib-", r"[a-f0-9]{64}-[A-Za-z0-9]{16}"),
)


#: The secret shapes in the order they are applied; each match becomes `[redacted:<name>]`.
class Source(NamedTuple):
    """A shape's pattern, compiled on first use: most texts never need most shapes."""

    pattern: str
    flags: int = 0


SHAPES: tuple[tuple[str, Source], ...] = (
    ("anthropic-key", Source(r"sk-ant-[A-Za-z0-9_-]{16,}", _ASCII)),
    ("openai-key", Source(r"sk-(?:proj-)?[A-Za-z0-9_-]{20,}", _ASCII)),
    ("github-token", Source(r"gh[pousr]_[A-Za-z0-9_]{20,}", _ASCII)),
    ("github-pat", Source(r"github_pat_[A-Za-z0-9_]{20,}", _ASCII)),
    ("aws-access-key-id", Source(r"AKIA[0-9A-Z]{16}", _ASCII)),
    ("google-api-key", Source(r"AIza[0-9A-Za-z_-]{35}", _ASCII)),
    ("slack-token", Source(r"xox[abprs]-[A-Za-z0-9-]{10,}", _ASCII)),
    ("stripe-key", Source(r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}", _ASCII)),
    ("private-key-header", Source(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----", _ASCII)),
    ("bearer-token", Source(r"[Bb]earer [A-Za-z0-9._~+/=-]{20,}", _ASCII)),
    (
        "assignment",
        Source(
            r"(?P<keep>(?i:api[-_]?key|access[-_]?token|secret[-_]?key|password)"
            r"[\\\"']? *[:=] *[\\\"']?)"
            r"[A-Za-z0-9._~+/-]{16,}",
            _ASCII,
        ),
    ),
    # Shapes beyond the table (docs/ledger.md lists every name): applied after it, so the
    # table's own matches and names stay exactly as specified. Each starts at a literal, a
    # word start or the start of a run and uses possessive repeats, so no input makes one
    # quadratic; `GATES` and `ANCHORS` below keep the others from scanning every position.
    (
        "private-key-block",
        Source(
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
        Source(
            r"eyJ(?<![A-Za-mo-qsu-z0-9_-]eyJ)(?<![^\\][nrt]eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*",
            _ASCII,
        ),
    ),
    (
        "url-credentials",
        Source(
            r"(?P<keep>://(?<=[A-Za-z0-9+.-]://)[^\s/?#@:]*+:)"
            r"(?!\[redacted:[a-z-]+\]@)(?!\d++(?:[/?#\s\"]|$))"
            r"(?:[^\s/?#@\"]|@(?=[^\s/?#@\"]*+@)|[/?#](?=[^\s@\"]*+@)"
            r"|(?<![\[{:,\s])\"(?![,:}\]\s]))++(?=@)",
            _ASCII,
        ),
    ),
    (
        "aws-secret-access-key",
        Source(
            r"(?P<keep>(?i:aws[-_ ]?secret[-_ ]?access[-_ ]?key)(?: \[[^\]\n]{0,40}\])?"
            r"[\\\"']? *[:=] *[\\\"']?)"
            r"[A-Za-z0-9/+=]{40}",
            _ASCII,
        ),
    ),
    ("aws-temporary-access-key-id", Source(r"ASIA[0-9A-Z]{16}", _ASCII)),
    ("gitlab-token", Source(r"glpat-[A-Za-z0-9_-]{20,}", _ASCII)),
    (
        "basic-auth",
        Source(
            r"(?P<keep>(?i:authorization)\\*[\"']?[ \t]*[:=] *[\\\"']?(?i:basic) +)"
            r"[A-Za-z0-9+/]{4,}={0,2}",
            _ASCII,
        ),
    ),
    (
        "openssh-private-key",
        Source(r"b3BlbnNzaC1rZXktdjE(?:[A-Za-z0-9+/=]|\s|\\+[nr])++", _ASCII),
    ),
    (
        "aws-key-id",
        Source(
            r"(?:A3T[A-Z0-9]|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASCA)(?<![A-Za-mo-qsu-z0-9]....)(?<![^\\][nrt]....)[A-Z0-9]{16}"
            r"(?![A-Za-z0-9])",
            _ASCII,
        ),
    ),
    (
        "gitlab-other-token",
        Source(
            r"gl(?:dt|ptt|rt|cbt|imt|oas|soat|ffct|ft|agent)-[A-Za-z0-9_-]{20,}"
            r"|GR1348941[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    ("slack-webhook", Source(r"https://hooks\.slack\.com/[A-Za-z0-9/_-]{20,}", _ASCII)),
    ("slack-app-token", Source(r"x(?:app|ox[oe])-[A-Za-z0-9-]{10,}", _ASCII)),
    (
        "discord-webhook",
        Source(
            r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}",
            _ASCII,
        ),
    ),
    (
        "discord-bot-token",
        Source(
            r"[MNO](?<![A-Za-mo-qsu-z0-9_-][MNO])(?<![^\\][nrt][MNO])[A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}",
            _ASCII,
        ),
    ),
    (
        "telegram-bot-token",
        Source(r"[0-9]{8,10}:AA[A-Za-z0-9_-]{32,}", _ASCII),
    ),
    ("npm-token", Source(r"npm_[A-Za-z0-9]{36}", _ASCII)),
    ("pypi-token", Source(r"pypi-AgE[A-Za-z0-9_-]{40,}", _ASCII)),
    (
        "huggingface-token",
        Source(r"hf_(?<![A-Za-mo-qsu-z0-9]hf_)(?<![^\\][nrt]hf_)[A-Za-z0-9]{30,}", _ASCII),
    ),
    (
        "sendgrid-key",
        Source(r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}", _ASCII),
    ),
    ("google-oauth-secret", Source(r"GOCSPX-[A-Za-z0-9_-]{20,}", _ASCII)),
    ("google-oauth-token", Source(r"ya29\.[A-Za-z0-9_-]{20,}", _ASCII)),
    ("stripe-webhook-secret", Source(r"whsec_[A-Za-z0-9+/=]{24,}", _ASCII)),
    (
        "twilio-api-key",
        Source(r"SK(?<![A-Za-mo-qsu-z0-9]SK)(?<![^\\][nrt]SK)[0-9a-f]{32}(?![A-Za-z0-9])", _ASCII),
    ),
    (
        "mailgun-key",
        Source(
            r"key-(?<![A-Za-mo-qsu-z0-9_-]key-)(?<![^\\][nrt]key-)[0-9a-zA-Z]{32}(?![A-Za-z0-9])",
            _ASCII,
        ),
    ),
    ("shopify-token", Source(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", _ASCII)),
    ("digitalocean-token", Source(r"do[opr]_v1_[a-f0-9]{64}", _ASCII)),
    (
        "heroku-api-key",
        Source(
            r"HRKU-[A-Za-z0-9_-]{20,}"
            r"|(?P<keep>(?i:heroku)[A-Za-z0-9_.-]*+[\\\"']? *[:=] *[\\\"']?)"
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
            _ASCII,
        ),
    ),
    (
        "square-token",
        Source(
            r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA(?<![A-Za-mo-qsu-z0-9+/]EAAA)(?<![^\\][nrt]EAAA)[A-Za-z0-9_-]{60,}",
            _ASCII,
        ),
    ),
    ("atlassian-token", Source(r"ATATT3[A-Za-z0-9_=-]{40,}", _ASCII)),
    ("databricks-token", Source(r"dapi[a-f0-9]{32}(?:-[0-9])?", _ASCII)),
    (
        "grafana-token",
        Source(r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}", _ASCII),
    ),
    (
        "vault-token",
        Source(
            r"hv[sb]\.(?<![A-Za-mo-qsu-z0-9]hv[sb]\.)(?<![^\\][nrt]hv[sb]\.)[A-Za-z0-9_-]{24,}",
            _ASCII,
        ),
    ),
    ("doppler-token", Source(r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", _ASCII)),
    ("postman-key", Source(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", _ASCII)),
    ("linear-key", Source(r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", _ASCII)),
    ("newrelic-key", Source(r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}", _ASCII)),
    ("age-secret-key", Source(r"AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58}", re.ASCII | re.I)),
    (
        "alibaba-access-key-id",
        Source(r"LTAI(?<![A-Za-mo-qsu-z0-9]LTAI)(?<![^\\][nrt]LTAI)[A-Za-z0-9]{20}", _ASCII),
    ),
    (
        "azure-client-secret",
        Source(r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}", _ASCII),
    ),
    (
        "azure-storage-key",
        Source(
            r"(?P<keep>(?i:AccountKey|SharedAccessKey|SharedAccessSignature)[\\\"']? *= *)"
            r"[A-Za-z0-9+/%]{20,}={0,2}",
            _ASCII,
        ),
    ),
    (
        "curl-credentials",
        Source(
            r"(?P<keep>(?<![A-Za-mo-qsu-z0-9_-])(?<![^\\][nrt])curl\b[^\n]{0,200}?\s(?:-u|--user)(?:\s+|=)"
            r"[\\\"']?[^\s:\\\"'@]++:)(?!\$)[^\s\\\"']++",
            _ASCII,
        ),
    ),
    (
        "command-password",
        _spelled(
            r"(?P<keep>(?:(?W)(?:mysql(?:dump|admin|import|show|check)?|mariadb(?:-[a-z]+)?)"
            r"(?:[ \t]++(?!-p\S)[^\s|;&]++){0,12}+[ \t]++-p(?=\S)"
            r"|(?W)sshpass(?:[ \t]++(?!-p)[^\s|;&]++){0,12}+[ \t]++-p[ \t]*|(?W)SSHPASS="
            r"|(?W)redis-cli(?:[ \t]++(?!-a[ \t])[^\s|;&]++){0,12}+[ \t]++-a[ \t]+"
            r"|(?W)ldap[a-z]+(?:[ \t]++(?!-w[ \t])[^\s|;&]++){0,16}+[ \t]++-w[ \t]+"
            r"|(?W)htpasswd(?=(?:[ \t]++-[a-zA-Z]++)*?[ \t]++-[a-zA-Z]*b)"
            r"(?:[ \t]++-[a-zA-Z]++)*+[ \t]++[^\s-]\S*+[ \t]++[^\s-]\S*+[ \t]++"
            r"|(?W)ssh-keygen(?:[ \t]++(?!-[NP][ \t])[^\s|;&]++){0,12}+[ \t]++-[NP][ \t]+"
            r"|(?W)(?:docker|podman|buildah|skopeo|nerdctl|oras|helm(?:[ \t]+registry)?)"
            r"[ \t]+login(?:[ \t]++(?!-p[ \t])[^\s|;&]++){0,12}+[ \t]++-p[ \t]+"
            r"|[ \t]-pass(?:in|out)[ \t]+pass:"
            r"|[ \t]--pass(?:word|phrase)?[ \t]+(?=\\*[\"']|[^\s\"'`]*[^a-z\s\"'`])))"
            r"(?!\\*[\"']?[$<%{*\[-])"
            r"(?:(?P<vq>\\*[\"'])[^\n\"'\\]{1,200}(?P=vq)|[^\s\"'`\\;|&<>()]{2,200}+)"
        ),
    ),
    (
        "netrc-password",
        _spelled(
            r"(?P<keep>(?:(?W)machine(?S)[^\s\\]+|(?W)default)"
            r"(?:(?S)(?:account|port|macdef)(?S)[^\s\\]+)*(?S)login(?S)[^\s\\]+"
            r"(?:(?S)(?:account|port)(?S)[^\s\\]+)*(?S)password(?S))[^\s\\]++"
        ),
    ),
    (
        "docker-auth",
        Source(
            r"(?P<keep>(?<![A-Za-z0-9])(?:auth|identitytoken)\\*\"[ \t]*:[ \t]*\\*\")"
            r"(?=[A-Za-z0-9+/=_.-]*[A-Z0-9])[A-Za-z0-9+/=_.-]{8,}+(?=\\*\")",
            _ASCII,
        ),
    ),
    (
        "authorization-header",
        _spelled(
            r"(?P<keep>(?W)(?i:authorization)\\*[\"']?[ \t]*[:=] *[\\\"']?"
            r"(?:[A-Za-z][A-Za-z0-9_-]* +)?)(?!\[redacted:)(?!(?D))(?=[A-Za-z._~+/=-]*[0-9])"
            r"[A-Za-z0-9._~+/=-]{16,}+(?![(\[])"
        ),
    ),
    (
        "putty-private-key",
        Source(
            r"(?P<keep>Private-Lines: *[0-9]+)"
            r"(?:[ \t]*(?:\r?\n|\\+[nr])+[A-Za-z0-9+/=]++(?=[ \t]*(?:\r?\n|\\+[nr]|\\*\"|$)))+",
            _ASCII,
        ),
    ),
    (
        "private-key-body",
        Source(
            r"M(?<![A-Za-mo-qsu-z0-9+/]M)(?<![^\\][nrt]M)"
            r"(?:II[A-Za-z0-9+/]{3}IBA(?:DAN|AK)|IG[A-Za-z0-9+/]AgEA(?:MBMG|MA0G)"
            r"|[C-H][A-Za-z0-9+/]CAQAw(?:BQYDK2V|EwYHKoZIzj0)|HcCAQEE|IGkAgEBBD|IHcAgEBBE)"
            r"(?:[A-Za-z0-9+/=]|(?:\r?\n|\\+[nr])(?=[A-Za-z0-9+/=]{16}))++",
            _ASCII,
        ),
    ),
    (
        "password-next-line",
        Source(
            r"(?P<keep>(?i:pass(?:word|phrase|wd))\\*[\"']?[ \t]*:[ \t]*(?:[|>][-+]?[ \t]*)?"
            r"(?:\r?\n|(?:\\+r)?\\+n)[ \t]*)(?![-#\[{<$%*]|\[redacted:)"
            r"[^\s\\\"':]{3,}+(?=[ \t]*(?:\r?\n|\\+[nr]|\\*\"|$))",
            _ASCII,
        ),
    ),
    (
        "passphrase",
        Source(
            r"(?P<keep>(?i:pass(?:word|phrase|wd))\\*[\"']?[ \t]*[:=][ \t]*)"
            r"(?![a-z0-9' \t-]{0,120}?\b(?:" + _FUNCTION_WORDS + r")\b)"
            r"[a-z0-9][a-z0-9'-]*+(?:[ \t][a-z0-9'-]++){1,7}"
            r"(?=[ \t]*(?:[\r\n(),;]|\\+[nr]|\\*\"|$))",
            _ASCII,
        ),
    ),
    *(
        (name, Source(re.escape(prefix) + _alone(prefix) + body, _ASCII))
        for name, prefix, body in _PREFIXED
    ),
    (
        "terraform-token",
        Source(r"\.atlasv1\.(?<=[a-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,70}", _ASCII),
    ),
    (
        "secret-assignment",
        Source(
            r"(?P<keep>(?:(?i:password|passwd|passphrase|secret|token)"
            r"|(?<=[A-Za-z0-9][_.-])(?i:pass)|(?<![A-Za-mo-qsu-z0-9])(?<![^\\][nrt])(?:pwd|Pwd|PWD(?!=/))"
            r"|(?:" + _KEY_AFTER + r")(?i:key))"
            r"(?P<keyquote>\\*+[\"'])?(?P<before>[ \t]++)?(?::=|=>|=|(?P<colon>:))"
            r"(?P<after>[ \t]++)?(?P<quote>(?P<qb>\\++)?[\"'])?)"
            r"(?!\[redacted:)(?![<${%*])"
            r"(?!(?i:none|null|nil|true|false|undefined|str|string|int|bytes|bool|boolean"
            r"|optional|secretstr|required|redacted|await|new|self|this)(?![A-Za-z0-9_]))"
            r"(?(quote)(?:[^\"'\\\n]|(?(qb)\\{3,}|\\+)[\"']){3,}+"
            r"|(?(keyquote)(?!)"
            r"|(?!" + _DOTTED + r")"
            r"(?:[^\s\"'`\\,;&|<>(){}\[\]$]|\\*[\"'](?=[^\s\"'`\\,;&|<>(){}\[\]$])){3,}+(?![(\[{])"
            r"(?(colon)(?=[ \t]*+(?:[\r\n,;()}#\\\"']|$))"
            r"|(?(before)(?=[ \t]*+(?:[\r\n,;()}#\\\"']|$))"
            r"|(?(after)(?=[ \t]*+(?:[\r\n,;()}#\\\"']|$)))))))",
            _ASCII,
        ),
    ),
)

#: The name of the unlabelled tokens' rule (`majordomus.redaction.unlabelled`), applied last.
UNLABELLED = "high-entropy-token"
#: Every name a marker may carry.
SHAPE_NAMES: tuple[str, ...] = (*(name for name, _ in SHAPES), UNLABELLED)

#: In `GATES`, the literals one of which a text must hold for a shape to possibly match:
#: case-sensitive ones first, those after `ANY_CASE` looked for in the text lower-cased.
ANY_CASE = ""
#: Ends a literal that counts only where no letter or digit follows it (a whole key word).
WORD_END = "$"

#: The key words a secret assignment is named by, whole words in any case.
_SECRET_WORDS = ("password", "passwd", "passphrase", "pass", "pwd", "secret", "token", "key")
#: What joins `pass` to the name before it: only `…_pass`, `….pass` and `…-pass` name a
#: secret (`(?<=[A-Za-z0-9][_.-])(?i:pass)` in the shape), so the gate looks for those
#: spellings and not for the word alone, which ordinary text holds (`pass: pytest …`).
JOINTS = "_.-"


def words_anchor(words: tuple[str, ...]) -> str:
    """The anchor of a shape gated by whole key words alone: any of them, in their order,
    where no letter or digit follows (what `WORD_END` means in a gate)."""
    return "(?:" + "|".join(words) + ")(?![a-z0-9])"


GATES: dict[str, tuple[str, ...]] = {
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "github-pat": ("github_pat_",),
    "aws-access-key-id": ("AKIA",),
    "google-api-key": ("AIza",),
    "slack-token": ("xox",),
    "stripe-key": ("k_live_", "k_test_"),
    "private-key-header": ("-----BEGIN",),
    "bearer-token": ("Bearer ", "bearer "),
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
    "command-password": (
        "mysql",
        "mariadb",
        "sshpass",
        "SSHPASS",
        "redis-cli",
        "ldap",
        "htpasswd",
        "ssh-keygen",
        "-pass",
        "login",
    ),
    "netrc-password": ("login",),
    "docker-auth": ('auth"', 'auth\\"', "identitytoken"),
    "authorization-header": (ANY_CASE, "authorization"),
    "putty-private-key": ("PuTTY-User-Key-File",),
    "private-key-body": ("IBADAN", "IBAAK", "AgEAM", "CAQAw", "MHcCAQEE", "AgEBBD"),
    "password-next-line": (ANY_CASE, "password", "passphrase", "passwd"),
    "passphrase": (ANY_CASE, "password", "passphrase", "passwd"),
    **{name: (prefix,) for name, prefix, _ in _PREFIXED},
    "terraform-token": (".atlasv1.",),
    "secret-assignment": (
        ANY_CASE,
        *(
            literal
            for word in _SECRET_WORDS
            for literal in (
                [f"{joint}{word}{WORD_END}" for joint in JOINTS]
                if word == "pass"
                else [f"{word}{WORD_END}"]
            )
        ),
    ),
}

#: Literals every match of a shape holds beside its gate's, all of them: looked for (one
#: `bytes` search each) only in a text that passed the gate, so a shape whose gate literal
#: is common in answers (`://` in every `majordomus://` URI) is not run over a text that
#: cannot hold a match (credentials in a URL end at an `@`).
ALSO: dict[str, tuple[str, ...]] = {
    "url-credentials": ("@",),
    "curl-credentials": ("-u",),
    "azure-storage-key": ("=",),
    "netrc-password": ("password",),
}

#: For the shapes whose pattern cannot start with a literal (a key word in any case), the
#: lower-case words a match starts at: the pattern is tried only there, instead of at every
#: position of the text.
ANCHORS: dict[str, str] = {
    "assignment": "api[-_]?key|access[-_]?token|secret[-_]?key|password",
    "aws-secret-access-key": "aws",
    "basic-auth": "authorization",
    "heroku-api-key": "hrku-|heroku",
    "age-secret-key": "age-secret-key-1",
    "azure-storage-key": "accountkey|sharedaccess",
    "curl-credentials": "curl",
    "command-password": "mysql|mariadb|sshpass|redis-cli|ldap|htpasswd|ssh-keygen|docker"
    "|podman|buildah|skopeo|nerdctl|oras|helm|[ \t]--?pass",
    "netrc-password": "machine|default",
    "docker-auth": r"(?:auth|identitytoken)(?=\\*\"[ \t]*:)",
    "authorization-header": r"authorization(?=\\*[\"']?[ \t]*[:=])",
    "password-next-line": r"pass(?:word|phrase|wd)(?=\\*[\"']?[ \t]*:)",
    "passphrase": r"pass(?:word|phrase|wd)(?=\\*[\"']?[ \t]*[:=])",
    "secret-assignment": words_anchor(_SECRET_WORDS),
}
