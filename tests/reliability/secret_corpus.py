"""A corpus of realistic secret shapes (not real credentials), each in its usual context, with
the material that must never reach disk (`leaks`) and the shape names `redacted` must carry."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from tests.reliability.secret_samples import B62, B64, UPPER, _b64url, cycle


@dataclass(frozen=True)
class Secret:
    label: str
    text: str
    leaks: tuple[str, ...]
    shapes: frozenset[str]


def _pem(label: str, lines: int = 6) -> tuple[str, str]:
    """A PEM private-key block and the first line of its key material."""
    body = [cycle(B64, 64, offset=n) for n in range(lines)] + [cycle(B64, 24, 3) + "=="]
    block = "\n".join([f"-----BEGIN {label}-----", *body, f"-----END {label}-----"])
    return block, body[0]


_JWT = ".".join(
    [
        _b64url({"alg": "HS256", "typ": "JWT"}),
        _b64url({"sub": "1234567890", "name": "Ada", "admin": True, "iat": 1767225600}),
        cycle(B62 + "-_", 43, 5),
    ]
)
_RSA, _RSA_LINE = _pem("RSA PRIVATE KEY")
_PKCS8, _PKCS8_LINE = _pem("PRIVATE KEY")
_OPENSSH, _OPENSSH_LINE = _pem("OPENSSH PRIVATE KEY")
_EC, _EC_LINE = _pem("EC PRIVATE KEY", lines=2)
_PGP_LINE = cycle(B64, 64, 11)
_PGP = "\n".join(
    [
        "-----BEGIN PGP PRIVATE KEY BLOCK-----",
        "",
        _PGP_LINE,
        cycle(B64, 64, 12),
        "=" + cycle(B62, 4, 2),
        "-----END PGP PRIVATE KEY BLOCK-----",
    ]
)

_ANTHROPIC = "sk-ant-" + "api03-" + cycle(B62 + "-_", 93, 1)
_OPENAI_PROJECT = "sk-" + "proj-" + cycle(B62 + "-_", 64, 2)
_OPENAI_LEGACY = "sk-" + cycle(B62, 48, 3)
_GITHUB = {
    prefix: prefix + "_" + cycle(B62, 36, n)
    for n, prefix in enumerate(("ghp", "gho", "ghu", "ghs", "ghr"))
}
_GITHUB_PAT = "github" + "_pat_" + cycle(B62, 22, 4) + "_" + cycle(B62, 59, 5)
_AKIA = "AKIA" + cycle(UPPER, 16, 6)
_ASIA = "ASIA" + cycle(UPPER, 16, 7)
_AWS_SECRET = cycle(B64, 40, 8)
_GOOGLE = "AIza" + cycle(B62 + "-_", 35, 9)
_SLACK_BOT = "xoxb-" + "2048" + "1234567" + "-" + "4096123456789" + "-" + cycle(B62, 24, 10)
_SLACK_USER = "xoxp-" + "2048" + "1234567" + "-" + cycle(B62, 32, 11)
_STRIPE_LIVE = "sk_" + "live_" + cycle(B62, 24, 12)
_STRIPE_RESTRICTED = "rk_" + "test_" + cycle(B62, 24, 13)
_GITLAB = "glpat-" + cycle(B62 + "-_", 20, 14)
_BEARER = cycle(B62 + "._~+/-", 40, 15)
_DB_PASSWORD = "S3cr3t-" + cycle(B62, 9, 16)
_GIT_PASSWORD = cycle(B62, 12, 17)
_REDIS_PASSWORD = "hunter2" + cycle(B62, 5, 18)
_AT_PASSWORD = "p@ss" + cycle(B62, 8, 19)
_BASIC = base64.b64encode(b"deploy:" + cycle(B62, 14, 20).encode()).decode()
_API_KEY = cycle(B62, 32, 21)
_YAML_PASSWORD = cycle(B62 + "._~+/-", 20, 22)
_JSON_SECRET = cycle(B62, 40, 23)
_ACCESS_TOKEN = cycle(B62, 24, 24)


def _one(label: str, text: str, leaks: str | tuple[str, ...], *shapes: str) -> Secret:
    return Secret(label, text, (leaks,) if isinstance(leaks, str) else leaks, frozenset(shapes))


CORPUS: tuple[Secret, ...] = (
    _one("anthropic key", f"ANTHROPIC_KEY {_ANTHROPIC} in the log", _ANTHROPIC, "anthropic-key"),
    _one("openai project key", f"key {_OPENAI_PROJECT}", _OPENAI_PROJECT, "openai-key"),
    _one("openai legacy key", f"old key {_OPENAI_LEGACY}.", _OPENAI_LEGACY, "openai-key"),
    *(
        _one(f"github {prefix} token", f"token {token} leaked", token, "github-token")
        for prefix, token in _GITHUB.items()
    ),
    _one("github fine-grained pat", f"pat={_GITHUB_PAT}", _GITHUB_PAT, "github-pat"),
    _one("aws access key id", f"aws_access_key_id = {_AKIA}", _AKIA, "aws-access-key-id"),
    _one(
        "aws temporary access key id",
        f"AWS_ACCESS_KEY_ID={_ASIA}",
        _ASIA,
        "aws-temporary-access-key-id",
    ),
    _one(
        "aws secret access key (ini)",
        f"[default]\naws_secret_access_key = {_AWS_SECRET}\n",
        _AWS_SECRET,
        "aws-secret-access-key",
    ),
    _one(
        "aws secret access key (env)",
        f"export AWS_SECRET_ACCESS_KEY={_AWS_SECRET}",
        _AWS_SECRET,
        "aws-secret-access-key",
    ),
    _one("google api key", f"?key={_GOOGLE}&q=x", _GOOGLE, "google-api-key"),
    _one("slack bot token", f"SLACK_BOT_TOKEN: {_SLACK_BOT}", _SLACK_BOT, "slack-token"),
    _one("slack user token", f"({_SLACK_USER})", _SLACK_USER, "slack-token"),
    _one("stripe live key", f"stripe.api_key = '{_STRIPE_LIVE}'", _STRIPE_LIVE, "stripe-key"),
    _one("stripe restricted key", _STRIPE_RESTRICTED, _STRIPE_RESTRICTED, "stripe-key"),
    _one("gitlab token", f"PRIVATE-TOKEN: {_GITLAB}", _GITLAB, "gitlab-token"),
    _one("jwt", f"session cookie {_JWT} expired", _JWT.split(".")[1:], "jwt"),
    _one(
        "bearer header",
        f"curl -H 'Authorization: Bearer {_BEARER}' https://api.example.invalid",
        _BEARER,
        "bearer-token",
    ),
    _one(
        "bearer jwt",
        f"Authorization: Bearer {_JWT}",
        _JWT.split(".")[1:],
        "bearer-token",
    ),
    _one(
        "basic auth header",
        f"Authorization: Basic {_BASIC}",
        _BASIC,
        "basic-auth",
    ),
    _one(
        "password in a database url",
        f"DATABASE_URL=postgres://app:{_DB_PASSWORD}@db.internal:5432/app",
        _DB_PASSWORD,
        "url-credentials",
    ),
    _one(
        "password in a git remote",
        f"git clone https://deploy:{_GIT_PASSWORD}@git.example.invalid/team/repo.git",
        _GIT_PASSWORD,
        "url-credentials",
    ),
    _one(
        "password only in a redis url",
        f"redis://:{_REDIS_PASSWORD}@cache:6379/0",
        _REDIS_PASSWORD,
        "url-credentials",
    ),
    _one(
        "unescaped @ in a url password",
        f"mongodb+srv://ops:{_AT_PASSWORD}@cluster0.example.invalid/db",
        _AT_PASSWORD,
        "url-credentials",
    ),
    _one("api key assignment", f"export API_KEY={_API_KEY}", _API_KEY, "assignment"),
    _one("password in yaml", f"db:\n  password: {_YAML_PASSWORD}\n", _YAML_PASSWORD, "assignment"),
    _one(
        "secret key in json",
        json.dumps({"secret_key": _JSON_SECRET}),
        _JSON_SECRET,
        "assignment",
    ),
    _one("access token assignment", f"ACCESS_TOKEN='{_ACCESS_TOKEN}'", _ACCESS_TOKEN, "assignment"),
    _one(
        "rsa private key block",
        _RSA,
        _RSA_LINE,
        "private-key-header",
        "private-key-block",
    ),
    _one("pkcs8 private key block", _PKCS8, _PKCS8_LINE, "private-key-header", "private-key-block"),
    _one(
        "openssh private key block",
        _OPENSSH,
        _OPENSSH_LINE,
        "private-key-header",
        "private-key-block",
    ),
    _one(
        "ec private key, no end line",
        _EC.rsplit("\n", 1)[0],
        _EC_LINE,
        "private-key-header",
        "private-key-block",
    ),
    _one("pgp private key block", _PGP, _PGP_LINE, "private-key-block"),
)

#: The corpus labels in a stable order, for test ids.
LABELS = tuple(secret.label for secret in CORPUS)
