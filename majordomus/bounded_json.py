"""Strict, bounded JSON: the one reader of JSON from outside the process, refusing what is
over `majordomus.limits` alike on every Python version, before `json.loads` recurses."""

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
#: What is left of a string once its escapes are gone (an unterminated one runs to the end).
_STRING = re.compile(rb'"[^"]*"?')
_STEP = {ord("["): 1, ord("]"): -1}.__getitem__


def _skeleton(raw: bytes) -> bytes:
    """The brackets of `raw` outside strings, in order, all spelt `[` and `]` (once escapes
    are gone, quotes alternate)."""
    raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return _STRING.sub(b"", raw.translate(_SKELETON, _NOT_SKELETON))


def depth_exceeds(data: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether the containers of JSON text `data` nest deeper than `max_depth` (strings
    skipped); malformed text is measured as well as it can be (`json.loads` words its error)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return max(accumulate(map(_STEP, _skeleton(raw))), default=0) > max_depth


def _refuse_constant(name: str) -> Any:
    raise NotANumber(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotANumber(f"number {text[:40]} is out of range")
    return value


def refusal(exc: ValueError) -> str:
    """What is wrong with a text `loads` refused, as a predicate: "the body " + refusal(exc)."""
    if isinstance(exc, NestingTooDeep):
        return f"nests more than {exc.limit} levels deep"
    if isinstance(exc, IntegerTooLarge):
        return f"holds an integer of more than {exc.limit} digits"
    if isinstance(exc, UnicodeDecodeError):
        return f"is not JSON: not UTF-8 ({exc.reason})"
    return f"is not JSON: {exc}"


def loads(data: str | bytes, *, keep_large_ints: bool = False) -> Any:
    """The JSON value of `data` (UTF-8), checking UTF-8, nesting, then the JSON; every error
    is a `ValueError` (`keep_large_ints` reads a long integer as a `LargeInt`)."""
    if isinstance(data, str):
        text, raw = data, data.encode("utf-8", "surrogatepass")
    else:
        text, raw = data.decode("utf-8"), data
    if depth_exceeds(raw):
        raise NestingTooDeep(MAX_JSON_DEPTH)
    return (_KEEPING if keep_large_ints else _REFUSING).decode(text)


def _decoder(keep_large_ints: bool) -> json.JSONDecoder:
    def parse_int(text: str) -> int | LargeInt:
        if len(text) - (text[0] == "-") <= MAX_INT_DIGITS:
            return int(text)
        if keep_large_ints:
            return LargeInt(text)
        raise IntegerTooLarge(MAX_INT_DIGITS)

    return json.JSONDecoder(
        parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=parse_int
    )


_REFUSING, _KEEPING = _decoder(False), _decoder(True)
