"""The table of secret shapes: each shape's name, pattern and the literals that gate it.

Data only; `majordomus.redaction.redactor` matches them. docs/ledger.md names every shape, in
the order they are applied."""

from __future__ import annotations

import re

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


def _spelled(pattern: str) -> str:
    """`(?W)` as `_WORD_START`, `(?S)` as whitespace (escaped too), `(?D)` as `_DOTTED`."""
    for short, long in (("(?W)", _WORD_START), ("(?S)", r"(?:\s|\\[nt])+"), ("(?D)", _DOTTED)):
        pattern = pattern.replace(short, long)
    return pattern


def _alone(prefix: str, also: str = "") -> str:
    """A token's prefix that matches at no word's middle (a JSON escape's letter may precede)."""
    return f"{prefix}(?<![A-Za-mo-qsu-z0-9{also}]{prefix})(?<![^\\\\][nrt]{prefix})"


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


#: The secret shapes in the order they are applied, as (name, pattern); each match becomes
#: `[redacted:<name>]` (compiled with `re.ASCII`, on first use).
SHAPES: tuple[tuple[str, str], ...] = (
    ("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{16,}"),
    ("openai-key", r"sk-(?:proj-)?[A-Za-z0-9_-]{20,}"),
    ("github-token", r"gh[pousr]_[A-Za-z0-9_]{20,}"),
    ("github-pat", r"github_pat_[A-Za-z0-9_]{20,}"),
    ("aws-access-key-id", r"AKIA[0-9A-Z]{16}"),
    ("google-api-key", r"AIza[0-9A-Za-z_-]{35}"),
    ("slack-token", r"xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("stripe-key", r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("private-key-header", r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"),
    ("bearer-token", r"[Bb]earer [A-Za-z0-9._~+/=-]{20,}"),
    (
        "assignment",
        r"(?P<keep>(?i:api[-_]?key|access[-_]?token|secret[-_]?key|password)"
        r"[\\\"']? *[:=] *[\\\"']?)"
        r"[A-Za-z0-9._~+/-]{16,}",
    ),
    # Shapes beyond the table, applied after it so its matches stay as specified; possessive
    # repeats from a literal or word start keep each linear.
    (
        "private-key-block",
        r"(?:(?<=\[redacted:private-key-header\])"
        r"|-----BEGIN PGP PRIVATE KEY BLOCK-----"
        r"|-----BEGIN [A-Z0-9]+(?: [A-Z0-9]+)*+ PRIVATE KEY(?: [A-Z]+)?-----)"
        r"(?:(?:(?:\s|\\+[nr])*+[A-Za-z-]+: [^\n\\\"]*)*+(?:[A-Za-z0-9+/=\s]|\\+[nr])*+"
        r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----"
        r"|(?:(?:\s|\\+[nr])*+[A-Za-z0-9+/=]{40,})++)",
    ),
    (
        "jwt",
        _alone("eyJ", "_-") + r"[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*",
    ),
    (
        "url-credentials",
        r"(?P<keep>://(?<=[A-Za-z0-9+.-]://)[^\s/?#@:]*+:)"
        r"(?!\[redacted:[a-z-]+\]@)(?!\d++(?:[/?#\s\"]|$))"
        r"(?:[^\s/?#@\"]|@(?=[^\s/?#@\"]*+@)|[/?#](?=[^\s@\"]*+@)"
        r"|(?<![\[{:,\s])\"(?![,:}\]\s]))++(?=@)",
    ),
    (
        "aws-secret-access-key",
        r"(?P<keep>(?i:aws[-_ ]?secret[-_ ]?access[-_ ]?key)(?: \[[^\]\n]{0,40}\])?"
        r"[\\\"']? *[:=] *[\\\"']?)"
        r"[A-Za-z0-9/+=]{40}",
    ),
    ("aws-temporary-access-key-id", r"ASIA[0-9A-Z]{16}"),
    ("gitlab-token", r"glpat-[A-Za-z0-9_-]{20,}"),
    (
        "basic-auth",
        r"(?P<keep>(?i:authorization)\\*[\"']?[ \t]*[:=] *[\\\"']?(?i:basic) +)"
        r"[A-Za-z0-9+/]{4,}={0,2}",
    ),
    (
        "openssh-private-key",
        r"b3BlbnNzaC1rZXktdjE(?:[A-Za-z0-9+/=]|\s|\\+[nr])++",
    ),
    (
        "aws-key-id",
        r"(?:A3T[A-Z0-9]|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASCA)" + _alone("....")[4:] + r"[A-Z0-9]{16}"
        r"(?![A-Za-z0-9])",
    ),
    (
        "gitlab-other-token",
        r"gl(?:dt|ptt|rt|cbt|imt|oas|soat|ffct|ft|agent)-[A-Za-z0-9_-]{20,}"
        r"|GR1348941[A-Za-z0-9_-]{20,}",
    ),
    ("slack-webhook", r"https://hooks\.slack\.com/[A-Za-z0-9/_-]{20,}"),
    ("slack-app-token", r"x(?:app|ox[oe])-[A-Za-z0-9-]{10,}"),
    (
        "discord-webhook",
        r"https://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}",
    ),
    (
        "discord-bot-token",
        _alone("[MNO]", "_-") + r"[A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}",
    ),
    (
        "telegram-bot-token",
        r"[0-9]{8,10}:AA[A-Za-z0-9_-]{32,}",
    ),
    ("npm-token", r"npm_[A-Za-z0-9]{36}"),
    ("pypi-token", r"pypi-AgE[A-Za-z0-9_-]{40,}"),
    (
        "huggingface-token",
        _alone("hf_") + r"[A-Za-z0-9]{30,}",
    ),
    (
        "sendgrid-key",
        r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
    ),
    ("google-oauth-secret", r"GOCSPX-[A-Za-z0-9_-]{20,}"),
    ("google-oauth-token", r"ya29\.[A-Za-z0-9_-]{20,}"),
    ("stripe-webhook-secret", r"whsec_[A-Za-z0-9+/=]{24,}"),
    (
        "twilio-api-key",
        _alone("SK") + r"[0-9a-f]{32}(?![A-Za-z0-9])",
    ),
    (
        "mailgun-key",
        _alone("key-", "_-") + r"[0-9a-zA-Z]{32}(?![A-Za-z0-9])",
    ),
    ("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}"),
    (
        "heroku-api-key",
        r"HRKU-[A-Za-z0-9_-]{20,}"
        r"|(?P<keep>(?i:heroku)[A-Za-z0-9_.-]*+[\\\"']? *[:=] *[\\\"']?)"
        r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    ),
    (
        "square-token",
        r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|" + _alone("EAAA", "+/") + r"[A-Za-z0-9_-]{60,}",
    ),
    ("atlassian-token", r"ATATT3[A-Za-z0-9_=-]{40,}"),
    ("databricks-token", r"dapi[a-f0-9]{32}(?:-[0-9])?"),
    (
        "grafana-token",
        r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}",
    ),
    (
        "vault-token",
        _alone(r"hv[sb]\.") + r"[A-Za-z0-9_-]{24,}",
    ),
    ("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    ("postman-key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("linear-key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
    ("newrelic-key", r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}"),
    ("age-secret-key", r"(?i:AGE-SECRET-KEY-1[02-9ac-hj-np-z]{58})"),
    (
        "alibaba-access-key-id",
        _alone("LTAI") + r"[A-Za-z0-9]{20}",
    ),
    (
        "azure-client-secret",
        r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}",
    ),
    (
        "azure-storage-key",
        r"(?P<keep>(?i:AccountKey|SharedAccessKey|SharedAccessSignature)[\\\"']? *= *)"
        r"[A-Za-z0-9+/%]{20,}={0,2}",
    ),
    (
        "curl-credentials",
        r"(?P<keep>" + _WORD_START + r"curl\b[^\n]{0,200}?\s(?:-u|--user)(?:\s+|=)"
        r"[\\\"']?[^\s:\\\"'@]++:)(?!\$)[^\s\\\"']++",
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
        r"(?P<keep>(?<![A-Za-z0-9])(?:auth|identitytoken)\\*\"[ \t]*:[ \t]*\\*\")"
        r"(?=[A-Za-z0-9+/=_.-]*[A-Z0-9])[A-Za-z0-9+/=_.-]{8,}+(?=\\*\")",
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
        r"(?P<keep>Private-Lines: *[0-9]+)"
        r"(?:[ \t]*(?:\r?\n|\\+[nr])+[A-Za-z0-9+/=]++(?=[ \t]*(?:\r?\n|\\+[nr]|\\*\"|$)))+",
    ),
    (
        "private-key-body",
        _alone("M", "+/") + r"(?:II[A-Za-z0-9+/]{3}IBA(?:DAN|AK)|IG[A-Za-z0-9+/]AgEA(?:MBMG|MA0G)"
        r"|[C-H][A-Za-z0-9+/]CAQAw(?:BQYDK2V|EwYHKoZIzj0)|HcCAQEE|IGkAgEBBD|IHcAgEBBE)"
        r"(?:[A-Za-z0-9+/=]|(?:\r?\n|\\+[nr])(?=[A-Za-z0-9+/=]{16}))++",
    ),
    (
        "password-next-line",
        r"(?P<keep>(?i:pass(?:word|phrase|wd))\\*[\"']?[ \t]*:[ \t]*(?:[|>][-+]?[ \t]*)?"
        r"(?:\r?\n|(?:\\+r)?\\+n)[ \t]*)(?![-#\[{<$%*]|\[redacted:)"
        r"[^\s\\\"':]{3,}+(?=[ \t]*(?:\r?\n|\\+[nr]|\\*\"|$))",
    ),
    (
        "passphrase",
        r"(?P<keep>(?i:pass(?:word|phrase|wd))\\*[\"']?[ \t]*[:=][ \t]*)"
        r"(?![a-z0-9' \t-]{0,120}?\b(?:" + _FUNCTION_WORDS + r")\b)"
        r"[a-z0-9][a-z0-9'-]*+(?:[ \t][a-z0-9'-]++){1,7}"
        r"(?=[ \t]*(?:[\r\n(),;]|\\+[nr]|\\*\"|$))",
    ),
    *((name, _alone(re.escape(prefix)) + body) for name, prefix, body in _PREFIXED),
    (
        "terraform-token",
        r"\.atlasv1\.(?<=[a-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,70}",
    ),
    (
        "secret-assignment",
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
_JOINTS = "_.-"


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
                [f"{joint}{word}{WORD_END}" for joint in _JOINTS]
                if word == "pass"
                else [f"{word}{WORD_END}"]
            )
        ),
    ),
}

#: Literals every match of a shape also holds, looked for after its gate passed (`://` is in
#: every `majordomus://` URI; credentials in a URL also need an `@`).
ALSO: dict[str, tuple[str, ...]] = {
    "url-credentials": ("@",),
    "curl-credentials": ("-u",),
    "azure-storage-key": ("=",),
    "netrc-password": ("password",),
}

#: For shapes that cannot start with a literal, the lower-case key words a match starts at:
#: the only positions tried.
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
    # any key word where no letter or digit follows, as `WORD_END` means in a gate
    "secret-assignment": "(?:" + "|".join(_SECRET_WORDS) + ")(?![a-z0-9])",
}
