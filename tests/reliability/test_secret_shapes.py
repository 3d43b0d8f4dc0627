"""The secret shapes added after the eleven minimum ones of
docs/ledger.md#the-redacted-vocabulary (found by `test_secrets.py`'s corpus): each replaces
what it should and no more, the minimum shapes keep their order and meaning,
and no input makes a shape slow."""

from __future__ import annotations

import time

import pytest

from majordomus.redaction.redactor import SHAPE_NAMES, redact_text, shapes_in

TABLE = (
    "anthropic-key",
    "openai-key",
    "github-token",
    "github-pat",
    "aws-access-key-id",
    "google-api-key",
    "slack-token",
    "stripe-key",
    "private-key-header",
    "bearer-token",
    "assignment",
)
ADDED = (
    "private-key-block",
    "jwt",
    "url-credentials",
    "aws-secret-access-key",
    "aws-temporary-access-key-id",
    "gitlab-token",
    "basic-auth",
    "openssh-private-key",
    "aws-key-id",
    "gitlab-other-token",
    "slack-webhook",
    "slack-app-token",
    "discord-webhook",
    "discord-bot-token",
    "telegram-bot-token",
    "npm-token",
    "pypi-token",
    "huggingface-token",
    "sendgrid-key",
    "google-oauth-secret",
    "google-oauth-token",
    "stripe-webhook-secret",
    "twilio-api-key",
    "mailgun-key",
    "shopify-token",
    "digitalocean-token",
    "heroku-api-key",
    "square-token",
    "atlassian-token",
    "databricks-token",
    "grafana-token",
    "vault-token",
    "doppler-token",
    "postman-key",
    "linear-key",
    "newrelic-key",
    "age-secret-key",
    "alibaba-access-key-id",
    "azure-client-secret",
    "azure-storage-key",
    "curl-credentials",
    "command-password",
    "netrc-password",
    "docker-auth",
    "authorization-header",
    "putty-private-key",
    "private-key-body",
    "password-next-line",
    "passphrase",
    "groq-key",
    "replicate-token",
    "supabase-token",
    "planetscale-token",
    "pulumi-token",
    "sentry-token",
    "mapbox-secret-token",
    "xai-key",
    "perplexity-key",
    "nvidia-key",
    "docker-hub-token",
    "tailscale-key",
    "langsmith-key",
    "onepassword-token",
    "figma-token",
    "notion-token",
    "rubygems-key",
    "bitbucket-token",
    "google-refresh-token",
    "fly-token",
    "brevo-key",
    "terraform-token",
    "secret-assignment",
    "high-entropy-token",
)

KEY_LINE = "MIIEowIBAAKCAQEAx4UbaDzY3Y0cG8kVt2Yf3Q9a1Hc5lZgB7zN6Wq4vFf1sL0pXbd"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIn0"
    ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
R = "[redacted:command-password]"
KEY_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" + "aB3dE5fG7hJ9kL1m"


def test_the_table_comes_first_and_the_added_shapes_follow_in_order() -> None:
    assert SHAPE_NAMES == TABLE + ADDED


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            f"-----BEGIN RSA PRIVATE KEY-----\n{KEY_LINE}\n{KEY_LINE[:20]}==\n"
            "-----END RSA PRIVATE KEY-----\nafter",
            "[redacted:private-key-header][redacted:private-key-block]\nafter",
        ),
        (
            f"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"
            f"{KEY_LINE}\n-----END RSA PRIVATE KEY-----",
            "[redacted:private-key-header][redacted:private-key-block]",
        ),
        (
            f"-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY_LINE}\n{KEY_LINE}\n(cut)",
            "[redacted:private-key-header][redacted:private-key-block]\n(cut)",
        ),
        (
            f"-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: x\n\n{KEY_LINE}\n=AbCd\n"
            "-----END PGP PRIVATE KEY BLOCK-----",
            "[redacted:private-key-block]",
        ),
        (
            "the log showed -----BEGIN RSA PRIVATE KEY----- so we rotated it",
            "the log showed [redacted:private-key-header] so we rotated it",
        ),
        (f"cookie={JWT}; path=/", "cookie=[redacted:jwt]; path=/"),
        ("eyJhbGciOi.eyJzdWIi.x", "eyJhbGciOi.eyJzdWIi.x"),
        ("abceyJhbGciOiJIUzI1.eyJzdWIiOiIx.sig", "abceyJhbGciOiJIUzI1.eyJzdWIiOiIx.sig"),
        (
            "postgres://app:S3cr3t@db:5432/app",
            "postgres://app:[redacted:url-credentials]@db:5432/app",
        ),
        ("redis://:pw@cache", "redis://:[redacted:url-credentials]@cache"),
        ("https://u:p@ss@host/x@y", "https://u:[redacted:url-credentials]@host/x@y"),
        ("https://user@host/a:b@c", "https://user@host/a:b@c"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("see https://example.invalid/a?b=c:d@e", "see https://example.invalid/a?b=c:d@e"),
        (
            f"aws_secret_access_key = {AWS_SECRET}",
            "aws_secret_access_key = [redacted:aws-secret-access-key]",
        ),
        (
            f'{{"AWS_SECRET_ACCESS_KEY": "{AWS_SECRET}"}}',
            '{"AWS_SECRET_ACCESS_KEY": "[redacted:aws-secret-access-key]"}',
        ),
        (
            f"aws_secret_access_key: {AWS_SECRET[:39]}",
            "aws_secret_access_key: [redacted:secret-assignment]",
        ),
        ("ASIA" + "Q" * 16, "[redacted:aws-temporary-access-key-id]"),
        ("ASIA" + "q" * 16, "ASIA" + "q" * 16),
        ("glpat-" + "x" * 20, "[redacted:gitlab-token]"),
        ("glpat-" + "x" * 19, "glpat-" + "x" * 19),
        (
            "Authorization: Basic ZGVwbG95OnMzY3IzdA==",
            "Authorization: Basic [redacted:basic-auth]",
        ),
        ('"authorization":"basic YTpi"', '"authorization":"basic [redacted:basic-auth]"'),
        ("Basic understanding of the pool", "Basic understanding of the pool"),
        ("mysql -u root -pS3cr3t app", f"mysql -u root -p{R} app"),
        ("mysqldump -p'a b' db", f"mysqldump -p{R} db"),
        ("mysql -u root -p app", "mysql -u root -p app"),
        ("mysql -P 3306 -u root", "mysql -P 3306 -u root"),
        ("mkdir -p build && docker run -p 80:80 x", "mkdir -p build && docker run -p 80:80 x"),
        ('sshpass -p "pw word" ssh h', f"sshpass -p {R} ssh h"),
        ("SSHPASS=pw1234 sshpass -e ssh h", f"SSHPASS={R} sshpass -e ssh h"),
        ("docker login -u ci -p Dk1234 r.io", f"docker login -u ci -p {R} r.io"),
        ("redis-cli -a pw1234 ping", f"redis-cli -a {R} ping"),
        ("ldapsearch -a always -w pw1234 -b x", f"ldapsearch -a always -w {R} -b x"),
        ("htpasswd -cb f admin pw1234", f"htpasswd -cb f admin {R}"),
        ("htpasswd -c f admin", "htpasswd -c f admin"),
        ("ssh-keygen -f k -N 'two words'", f"ssh-keygen -f k -N {R}"),
        ("openssl rsa -passin pass:pw1234 -in k", f"openssl rsa -passin pass:{R} -in k"),
        ("gpg --passphrase hunter2 -d x", f"gpg --passphrase {R} -d x"),
        ("use the --username and --password options", "use the --username and --password options"),
        ("psql --password -h db", "psql --password -h db"),
        ("mysql -p$MYSQL_PWD db", "mysql -p$MYSQL_PWD db"),
        (
            "machine h login ada password pw1234",
            "machine h login ada password [redacted:netrc-password]",
        ),
        ("the machine learning password policy", "the machine learning password policy"),
        ('{"auth": "YWRhOnB3MTIzNA=="}', '{"auth": "[redacted:docker-auth]"}'),
        ('{"auth": "none"}', '{"auth": "none"}'),
        (
            "Authorization: token 0123456789abcdef0123456789abcdef01234567",
            "Authorization: token [redacted:authorization-header]",
        ),
        (
            'authorization = request.headers.get("Authorization")',
            'authorization = request.headers.get("Authorization")',
        ),
        (
            "object_level_authorization: SimpleCheckConfig",
            "object_level_authorization: SimpleCheckConfig",
        ),
        (
            "AWS Secret Access Key [****MPLE]: " + AWS_SECRET,
            "AWS Secret Access Key [****MPLE]: [redacted:aws-secret-access-key]",
        ),
        (
            "PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 1\nQUJDRA==\nPrivate-MAC: ab",
            "PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 1[redacted:putty-private-key]"
            "\nPrivate-MAC: ab",
        ),
        (f"KEY={KEY_BODY}", "KEY=[redacted:private-key-body]"),
        (f"{KEY_BODY}\n{KEY_BODY[4:]}\nnext", "[redacted:private-key-body]\nnext"),
        (
            "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa",
            "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa",
        ),
        ("Password:\nhunter2x\n", "Password:\n[redacted:password-next-line]\n"),
        ("password: |\n  hunter2x\n", "password: |\n  [redacted:password-next-line]\n"),
        ("password:\n  file: /run/x\n", "password:\n  file: /run/x\n"),
        ("password:\n  - a\n", "password:\n  - a\n"),
        ("passphrase: correct horse battery staple", "passphrase: [redacted:passphrase]"),
        ("password: The plaintext password.", "password: The plaintext password."),
        ("password: see the vault", "password: see the vault"),
        ("gsk_" + "a1B2" * 13, "[redacted:groq-key]"),
        ("r8_" + "a1B" * 12 + "c", "[redacted:replicate-token]"),
        ("xr8_" + "a1B" * 12 + "c", "xr8_" + "a1B" * 12 + "c"),
        ("pul-" + "ab12" * 10, "[redacted:pulumi-token]"),
        ("sbp_" + "ab12" * 10, "[redacted:supabase-token]"),
        ("abcdefghij1234.atlasv1." + "aB3" * 22, "abcdefghij1234[redacted:terraform-token]"),
        ("sk.eyJ1IjoiYWRhIn0." + "aB3dE5fG7hJ9kL1mN3pQ5r", "[redacted:mapbox-secret-token]"),
        ('postgres://admin:pa"ss@db/x', "postgres://admin:[redacted:url-credentials]@db/x"),
        ('{"u":"ssh://git:x","b":"me@h"}', '{"u":"ssh://git:x","b":"me@h"}'),
        ('DB_PASSWORD="ab\\"cd1234"', 'DB_PASSWORD="[redacted:secret-assignment]"'),
        ('password: pa"ss1234', "password: [redacted:secret-assignment]"),
        (
            "Password: Zq7-6L28 (low, 0 evidence)",
            "Password: [redacted:secret-assignment] (low, 0 evidence)",
        ),
    ],
)
def test_added_shapes(text: str, expected: str) -> None:
    assert redact_text(text) == expected


def test_a_token_used_as_a_url_password_keeps_its_own_name() -> None:
    token = "ghp_" + "c" * 36
    out = redact_text(f"https://x:{token}@github.com/o/r")
    assert out == "https://x:[redacted:github-token]@github.com/o/r"
    assert shapes_in(out) == {"github-token"}


def test_the_table_still_wins_where_it_matches() -> None:
    assert redact_text("Authorization: Bearer " + JWT) == "Authorization: [redacted:bearer-token]"
    assert shapes_in(redact_text("AKIA" + "Q" * 16)) == {"aws-access-key-id"}


SLOW = {
    "eyJ-run": "eyJ" * 300_000,
    "jwt-without-dots": "eyJ" + "a" * 900_000 + ".",
    "scheme-run": "a" * 900_000 + "://",
    "user-run": "x://" + "b" * 900_000,
    "password-run": "x://u:" + "p" * 900_000,
    "markers": "[redacted:private-key-header]" * 30_000,
    "pem-headers": "-----BEGIN RSA PRIVATE KEY-----\n" + "a: b: " * 150_000,
    "pem-body": "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 900_000,
    "basic": "authorization: basic " * 40_000,
    "mysql": "mysql " * 150_000,
    "sshpass": "sshpass -x " * 80_000,
    "htpasswd": "htpasswd -b " * 70_000,
    "password-lines": "password:\n" * 40_000,
    "password-words": "password: a b " * 40_000,
    "netrc": "machine x login y " * 50_000,
    "docker-auth": '"auth": "' * 90_000,
    "case-pairs": "aA " * 300_000,
    "one-token": "aB1cD2eF3gH4iJ5kL6mN " * 42_000,
}


@pytest.mark.parametrize("text", SLOW.values(), ids=list(SLOW))
def test_no_input_makes_redaction_slow(text: str) -> None:
    started = time.perf_counter()
    redact_text(text)
    assert time.perf_counter() - started < 2.0
