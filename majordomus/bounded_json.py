"""Strict, bounded JSON: the one reader of JSON from outside the process, refusing what is
over `majordomus.limits` alike on every Python version, before `json.loads` recurses.
docs/RELIABILITY.md ("Parsing and reading limits") says how the hot path stays at C speed.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from majordomus.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH


class JsonLimitError(ValueError):
    """A JSON text over one of our limits; `str()` is a short reason for a person."""


class NestingTooDeep(JsonLimitError):
    """Containers nested deeper than the limit (`limit` is that depth)."""

    def __init__(self, limit: int) -> None:
        super().__init__("nesting too deep")
        self.limit = limit


class IntegerTooLarge(JsonLimitError):
    """An integer literal with more digits than the limit (`limit` is that count)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"an integer has more than {limit} digits")
        self.limit = limit


class NotANumber(ValueError):
    """NaN, Infinity or a number that overflows a double: not JSON."""


class LargeInt(str):
    """What `loads(..., keep_large_ints=True)` reads an over-long integer as, so a caller can
    answer for the message that holds it (its literal text)."""


#: Quotes and brackets survive, `{` `}` read as `[` `]`; everything else goes.
_SKELETON = bytes.maketrans(b"{}", b"[]")
_NOT_SKELETON = bytes(b for b in range(256) if b not in b'"[]{}')
#: What is left of strings once their escapes are gone and `""` pairs are removed.
_STRING = re.compile(rb'"[^"]*"')
_STEP = {ord("["): 1, ord("]"): -1}.__getitem__
#: `replace` peels one level per pass and is the fastest way through shallow text; past
#: this many levels, one running count over the skeleton is cheaper than more passes.
_PEELS = 12
#: Digits read as `0`, `e` and `E` as `e`, signs go, everything else is a space: a long run
#: of `0` (a big integer, or a mantissa long enough to overflow) or `e000` (an exponent of
#: three digits) is where a number needs the hooks. Matches inside strings only cost them.
_NUMBERS = bytes.maketrans(
    bytes(range(256)),
    bytes(48 if 48 <= b <= 57 else 101 if b in b"eE" else 32 for b in range(256)),
)
_LONG_RUN = b"0" * (MAX_INT_DIGITS + 1)


def _skeleton(raw: bytes) -> bytes:
    """The brackets of `raw` outside strings, in order, all spelt `[` and `]` (once escapes
    are gone quotes alternate, so `""` pairs go at C speed)."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = raw.translate(_SKELETON, _NOT_SKELETON).replace(b'""', b"")
    if b'"' in skeleton:
        skeleton = _STRING.sub(b"", skeleton)
    return skeleton


def depth_exceeds(data: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether the containers of JSON text `data` nest deeper than `max_depth` (strings
    skipped). Malformed text is measured as well as it can be; `json.loads` words its error.
    """
    if isinstance(data, str):
        if data.count("[") + data.count("{") <= max_depth:
            return False
        raw = data.encode("utf-8", "surrogatepass")
    elif data.count(b"[") + data.count(b"{") <= max_depth:
        return False
    else:
        raw = data
    whole = skeleton = _skeleton(raw)
    for _ in range(min(max_depth, _PEELS)):
        if not skeleton:
            return False
        peeled = skeleton.replace(b"[]", b"")
        if len(peeled) == len(skeleton):
            break
        skeleton = peeled
    if not skeleton:
        return False
    # Deep, or unbalanced: the running depth decides.
    return max(accumulate(map(_STEP, whole))) > max_depth


def _needs_hooks(raw: bytes) -> bool:
    numbers = raw.translate(_NUMBERS, b"+-")
    return _LONG_RUN in numbers or b"e000" in numbers


def _refuse_constant(name: str) -> Any:
    raise NotANumber(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotANumber(f"number {text[:40]} is out of range")
    return value


def _refuse_large(text: str) -> int:
    if len(text) - (text[0] == "-") > MAX_INT_DIGITS:
        raise IntegerTooLarge(MAX_INT_DIGITS)
    return int(text)


def _keep_large(text: str) -> int | LargeInt:
    if len(text) - (text[0] == "-") > MAX_INT_DIGITS:
        return LargeInt(text)
    return int(text)


def refusal(exc: ValueError) -> str:
    """What is wrong with a text `loads` refused, as a predicate: "the body " + refusal(exc)."""
    if isinstance(exc, NestingTooDeep):
        return f"nests more than {exc.limit} levels deep"
    if isinstance(exc, IntegerTooLarge):
        return f"holds an integer of more than {exc.limit} digits"
    if isinstance(exc, UnicodeDecodeError):
        return f"is not JSON: not UTF-8 ({exc.reason})"
    return f"is not JSON: {exc}"


def loads(
    data: str | bytes,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    keep_large_ints: bool = False,
) -> Any:
    """The JSON value of `data` (UTF-8), checking UTF-8, nesting, then the JSON; every error
    is a `ValueError` (`keep_large_ints` reads a long integer as a `LargeInt`)."""
    if isinstance(data, str):
        text, raw = data, data.encode("utf-8", "surrogatepass")
    else:
        text, raw = data.decode("utf-8"), data
    if depth_exceeds(raw, max_depth):
        raise NestingTooDeep(max_depth)
    if not _needs_hooks(raw):
        return _WITHOUT_NUMBER_HOOKS.decode(text)
    return (_KEEPING if keep_large_ints else _REFUSING).decode(text)


_WITHOUT_NUMBER_HOOKS = json.JSONDecoder(parse_constant=_refuse_constant)
_REFUSING = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_refuse_large
)
_KEEPING = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_keep_large
)
