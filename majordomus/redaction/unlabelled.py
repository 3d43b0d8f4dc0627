"""Unlabelled tokens: a run of token characters no shape names whose characters look drawn
at random, which the redactor replaces by `[redacted:high-entropy-token]` (docs/ledger.md).

A token is looked for only around a lower-case letter followed by an upper-case one, which
random mixed-case text holds and hashes, UUIDs, ids and prose rarely do: one
`bytes.translate` and a `find` over a text that holds none. Guards keep what looks random
but is public or is data: tokens named as data or a digest, base64 of text, certificates
and public keys (DER, SSH), JSON in base64, publishable keys, identifiers made of words,
alphabets.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter
from string import ascii_lowercase, ascii_uppercase, digits

#: Every ASCII letter as its case, lower `\x01` or upper `\x02`: a lower-case letter
#: followed by an upper-case one is where a token is looked for. (Bytes no letter becomes,
#: unlike `a` and `A`, let the search for the pair skip ahead.)
_CASES = bytes.maketrans(
    (ascii_lowercase + ascii_uppercase).encode("ascii"), b"\x01" * 26 + b"\x02" * 26
)
_PAIR = b"\x01\x02"
_RUN = re.compile(rb"[A-Za-z0-9+/_-]+={0,2}")
_SHORTEST, _LONGEST = 20, 256
#: A word in an identifier (`Validator`, `with`); a token mostly made of them is a name.
_WORD = re.compile(r"[A-Z]?[a-z]{3,}")
#: What a value named as data or a digest is preceded by on its line (`data: `, `sha256:`).
_NAMED_DATA = re.compile(
    rb"(?i)(?:data|digest|hash|checksum|integrity|sha[0-9]*|md5|h1|etag|fingerprint|base64)"
    rb"[^A-Za-z0-9\n]{0,3}$"
)
_DIGEST_PREFIX = re.compile(r"(?i)(?:sha[0-9]*|md5)[-_:]")
#: Base64 of JSON (`{"`), SSH public key blobs, publishable keys.
_PUBLIC_STARTS = ("eyJ", "AAAA", "pk_", "pk.")
#: Object identifiers every DER certificate or public key holds, in base64.
_DER_MARKS = ("KoZIhvcN", "qhkiG9w0", "KoZIzj0", "BgNV", "zCCA")
_SEQUENCES = tuple(
    alphabet[at : at + 4]
    for alphabet in (ascii_lowercase, ascii_uppercase, digits)
    for at in range(len(alphabet) - 3)
)
_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def cases(data: bytes) -> bytes:
    """`data` with every letter replaced by its case (`_CASES`)."""
    return data.translate(_CASES)


def possible(cased: bytes) -> bool:
    """Whether a text whose `cases` these are may hold an unlabelled token."""
    return _PAIR in cased


def tokens(data: bytes, cased: bytes) -> set[str]:
    """The random-looking tokens of the text whose UTF-8 bytes are `data` (tokens are
    ASCII, so the bytes and the text hold the same ones)."""
    found: set[str] = set()
    seen: set[bytes] = set()
    at = cased.find(_PAIR)
    while at >= 0:
        start, end = _run_at(data, at)
        run = data[start:end]
        if end - start >= _SHORTEST and run not in seen:
            seen.add(run)
            token = _trimmed(run.decode("ascii"))
            if _random(token, data[max(0, start - 24) : start]):
                found.add(token)
        at = cased.find(_PAIR, max(end, at + 1))
    return found


def _run_at(data: bytes, at: int) -> tuple[int, int]:
    """The run of token characters holding the byte at `at`, without the letter of a JSON
    escape before it (`\\n`, `\\u00e9`); empty when it is longer than a token can be."""
    low = max(0, at - _LONGEST)
    for run in _RUN.finditer(data, low):
        if run.end() > at:
            break
    else:
        return at, at
    start = run.start()
    if start == low and low and _RUN.match(data, low - 1):
        return at, at
    if start and data[start - 1] == 0x5C:
        start += 5 if data[start] == 0x75 else 1
    return start, run.end()


def _trimmed(token: str) -> str:
    """The token without the path segments around it (`trigger/` in `…/trigger/<token>`):
    a segment holding no upper-case letter."""
    pieces = token.split("/")
    while len(pieces) > 1 and pieces[0] == pieces[0].lower():
        pieces.pop(0)
    while len(pieces) > 1 and pieces[-1] == pieces[-1].lower():
        pieces.pop()
    return "/".join(pieces)


def _random(token: str, before: bytes) -> bool:
    """Whether `token` looks drawn at random and is no public thing or named data."""
    core = token.rstrip("=")
    size = len(core)
    if not _SHORTEST <= size <= _LONGEST or core.lower() == core or core.upper() == core:
        return False
    if not any(char in digits for char in core) or core.startswith(_PUBLIC_STARTS):
        return False
    if _entropy(core) < min(3.6 + 0.03 * (size - 20), 4.4):
        return False
    if sum(map(len, _WORD.findall(core))) * 2 >= size:
        return False
    if any(run in core for run in _SEQUENCES) or _DIGEST_PREFIX.match(core):
        return False
    if core[0] == "M" and any(mark in core for mark in _DER_MARKS):
        return False
    return not _NAMED_DATA.search(before) and not _text_in_base64(core)


def _entropy(text: str) -> float:
    """Shannon entropy of the characters of `text`, in bits per character."""
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


def _text_in_base64(core: str) -> bool:
    """Whether `core` is base64 of printable text holding a space (prose, a document)."""
    altchars = b"-_" if "-" in core or "_" in core else None
    try:
        raw = base64.b64decode(core + "=" * (-len(core) % 4), altchars, validate=True)
    except (binascii.Error, ValueError):
        return False
    return b" " in raw and not raw.translate(None, _PRINTABLE)
