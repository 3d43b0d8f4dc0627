"""The unlabelled-token rule (`majordomus.redaction.unlabelled`): tokens drawn at random are
replaced wherever they stand, raw or behind a JSON escape; what only looks random (hashes,
UUIDs, ids, digests and data named as such, base64 of text, certificates and public keys,
identifiers made of words, alphabets) is left alone."""

from __future__ import annotations

import base64
import hashlib
import json
import string
import uuid

import pytest

from majordomus.egress import clean_json
from majordomus.redaction.redactor import redact_secrets, shapes_in
from tests.reliability.secret_samples import drawn

MARKER = "[redacted:high-entropy-token]"
B62 = string.ascii_letters + string.digits
TOKEN = "Nq5xT2vL8kR3mW9pZ7cY4bH6jF1gD0sA"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (TOKEN, MARKER),
        (f"here: {TOKEN}.", f"here: {MARKER}."),
        (f"Cookie: sid={TOKEN}; Path=/", f"Cookie: sid={MARKER}; Path=/"),
        (
            f"https://hooks.example.invalid/trigger/{TOKEN}/run",
            f"https://hooks.example.invalid/trigger/{MARKER}/run",
        ),
        (f"{TOKEN} and again {TOKEN}", f"{MARKER} and again {MARKER}"),
        (f"é {TOKEN} ü", f"é {MARKER} ü"),
    ],
)
def test_a_token_drawn_at_random_is_replaced(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected
    assert shapes_in(redact_secrets(text)) == {"high-entropy-token"}


def test_a_token_behind_a_json_escape_keeps_the_escape() -> None:
    document = json.dumps({"note": f"line\n{TOKEN}\tend", "u": f"\u00e9{TOKEN}"})
    cleaned = clean_json(document, json.dumps)
    assert json.loads(cleaned) == {"note": f"line\n{MARKER}\tend", "u": f"\u00e9{MARKER}"}


def test_most_random_mixed_tokens_are_caught() -> None:
    tokens = [drawn(B62, length, seed) for seed in range(400) for length in (24, 32, 40)]
    mixed = [t for t in tokens if t.lower() != t != t.upper() and any(c.isdigit() for c in t)]
    caught = sum(redact_secrets(t) == MARKER for t in mixed)
    assert caught / len(mixed) >= 0.95


@pytest.mark.parametrize(
    "text",
    [
        str(uuid.uuid5(uuid.NAMESPACE_URL, "x")),
        hashlib.sha1(b"x").hexdigest(),
        "sha256:" + hashlib.sha256(b"x").hexdigest(),
        "data: " + base64.b64encode(hashlib.sha512(b"x").digest()).decode(),
        "integrity: sha384-" + base64.b64encode(hashlib.sha384(b"x").digest()).decode(),
        "go.sum h1:" + base64.b64encode(hashlib.sha256(b"x").digest()).decode(),
        base64.b64encode(b"These are not the droids you are looking for").decode(),
        "getUserAccountSettingsV2 X509CertificateChainValidator parseISO8601Timestamp",
        "PuTTY-User-Key-File-3",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ",
        "pk_live_51HqLyjWDarjtT1zdp7dc",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        "assessment-20260921T141320000Z-5feceb",
        "Short1Mixed",
    ],
)
def test_what_only_looks_random_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text
