"""Unlabelled tokens: runs no shape names that look drawn at random, replaced by
`[redacted:high-entropy-token]` (docs/ledger.md); looked for only around a lower-case letter
followed by an upper-case one, and never what is public or data."""

from __future__ import annotations

import base64
import binascii
import math
import re
from string import ascii_lowercase, ascii_uppercase, digits

#: Every ASCII letter as its case, lower `\x01` or upper `\x02`: a lower-case letter
#: followed by an upper-case one is where a token is looked for. (Bytes no letter becomes,
#: unlike `a` and `A`, let the search for the pair skip ahead.)
_CASES = bytes.maketrans(
    (ascii_lowercase + ascii_uppercase).encode("ascii"), b"\x01" * 26 + b"\x02" * 26
)
_PAIR = b"\x01\x02"
#: The pair as a pattern: the engine finds it faster than `in` among the many `\x01`.
_PAIR_SEARCH = re.compile(re.escape(_PAIR)).search
_SHORTEST, _LONGEST = 20, 256
#: A run of token characters long enough to be a token, `=` padding included.
_RUN = re.compile(rb"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{%d,}+={0,2}" % _SHORTEST)
#: A word in an identifier (`Validator`, `with`, `Key-`); a token mostly made of them is a
#: name.
_WORD = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z][a-z]{1,2}(?=[-_.])")
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
#: Four letters or digits in alphabet order (`abcd`, `5678`): an alphabet, not a draw.
_SEQUENCE = re.compile(
    "|".join(
        alphabet[at : at + 4]
        for alphabet in (ascii_lowercase, ascii_uppercase, digits)
        for at in range(len(alphabet) - 3)
    )
)
_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t\n\r"


def redacted(data: bytes, marker: bytes) -> bytes | None:
    """The UTF-8 `data` with each random-looking token replaced by `marker`, or None when it
    holds none."""
    cased = data.translate(_CASES)
    if _PAIR_SEARCH(cased) is None:
        return None
    runs: list[tuple[int, str]] = []
    # a token repeated throughout a text is judged once, so no input makes this slow
    verdicts: dict[tuple[bytes, bytes], bool] = {}
    found: set[str] = set()
    for run in _RUN.finditer(data):
        start, end = run.span()
        if end - start > _LONGEST + 2 or _PAIR not in cased[start:end]:
            continue
        if start and data[start - 1] == 0x5C:  # the letter of a JSON escape: `\\n`, `\\u00e9`
            start += 5 if data[start] == 0x75 else 1
        raw, before = data[start:end], data[max(0, start - 24) : start]
        token = _trimmed(raw.decode("ascii"))
        runs.append((start + raw.find(token.encode("ascii")), token))
        verdict = verdicts.get((raw, before))
        if verdict is None:
            verdict = verdicts[raw, before] = _random(token, before)
        if verdict:
            found.add(token)
    # a token judged random is replaced wherever it stands
    pieces: list[bytes] = []
    done = 0
    for start, token in runs:
        if token in found:
            pieces += (data[done:start], marker)
            done = start + len(token)
    return b"".join((*pieces, data[done:])) if pieces else None


def _trimmed(token: str) -> str:
    """The token without the lower-case path segments around it (`…/trigger/<token>`)."""
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
    if _SEQUENCE.search(core) or _DIGEST_PREFIX.match(core):
        return False
    if core[0] == "M" and any(mark in core for mark in _DER_MARKS):
        return False
    return not _NAMED_DATA.search(before) and not _text_in_base64(core)


def _entropy(text: str) -> float:
    """Shannon entropy of the characters of `text`, in bits per character."""
    size = len(text)
    return math.log2(size) - sum(n * math.log2(n) for n in map(text.count, set(text))) / size


def _text_in_base64(core: str) -> bool:
    """Whether `core` is base64 of printable text holding a space (prose, a document)."""
    altchars = b"-_" if "-" in core or "_" in core else None
    try:
        raw = base64.b64decode(core + "=" * (-len(core) % 4), altchars, validate=True)
    except (binascii.Error, ValueError):
        return False
    return b" " in raw and not raw.translate(None, _PRINTABLE)
