"""Secret redaction: matching the secret shapes, the control scrub and the walk over a JSON
value; a shape is tried only where `_Prefilter` finds a gate literal (docs/RELIABILITY.md,
"Redaction and egress"). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, cached_property
from typing import Any

from majordomus.order import canonical_strings
from majordomus.redaction import unlabelled
from majordomus.redaction.shapes import (
    ALSO,
    ANCHORS,
    ANY_CASE,
    GATES,
    JOINTS,
    SHAPE_NAMES,
    SHAPES,
    UNLABELLED,
    WORD_END,
    words_anchor,
)


def _split_gate(gate: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if ANY_CASE not in gate:
        return gate, ()
    at = gate.index(ANY_CASE)
    return gate[:at], gate[at + 1 :]


class _Shape:
    """One shape with its gate, its anchor and its marker; compiled on first need."""

    def __init__(self, name: str, source: str) -> None:
        self.source = source
        self.exact, self.any_case = _split_gate(GATES[name])
        self.also = tuple(literal.encode("ascii") for literal in ALSO.get(name, ()))
        self.anchor = ANCHORS.get(name)
        self.marker = f"[redacted:{name}]"
        self.keep = "(?P<keep>" in source
        self.words = _gate_words(self.exact, self.any_case, self.anchor)
        self.narrowed: dict[tuple[str, ...], re.Pattern[str]] = {}

    def replace(self, match: re.Match[str]) -> str:
        return (match.group("keep") or "") + self.marker if self.keep else self.marker

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source, re.ASCII)

    def sub(
        self, text: str, key_words: _KeyWords | None, any_case: frozenset[str] = frozenset()
    ) -> tuple[str, list[tuple[int, int]]]:
        """The text with every match replaced, and where each replacement now stands; an
        anchored shape is tried only where `key_words` finds its key words."""
        pattern = self.pattern
        if self.anchor is None or key_words is None:
            matches: Iterator[re.Match[str] | None] = pattern.finditer(text)
        else:
            starts = key_words.starts(self._anchor(text, any_case))
            matches = (pattern.match(text, start) for start in starts)
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        done = length = 0
        for match in matches:
            if match is None or match.start() < done:
                continue
            replacement = self.replace(match)
            pieces += (text[done : match.start()], replacement)
            length += match.start() - done
            spans.append((length, length + len(replacement)))
            length += len(replacement)
            done = match.end()
        return ("".join((*pieces, text[done:])), spans) if pieces else (text, spans)

    def _anchor(self, text: str, any_case: frozenset[str]) -> re.Pattern[str]:
        """Where the key words may start: for a shape gated by whole key words alone, only
        those the text holds (a Kelvin sign, a `k` the byte scan does not see, keeps all)."""
        assert self.anchor is not None
        held: tuple[str, ...] = ()
        if self.words is not None and any_case and _KELVIN not in text:
            held = tuple(
                word for word, literals in self.words.items() if not any_case.isdisjoint(literals)
            )
        if not held or len(held) == len(self.words or ()):
            return re.compile(self.anchor)
        found = self.narrowed.get(held)
        if found is None:
            found = self.narrowed[held] = re.compile(words_anchor(held))
        return found


#: The characters outside ASCII that `str.lower` turns into ASCII: the Kelvin sign becomes
#: `k`, and the dotted capital I becomes two characters (`i` and a combining dot).
_KELVIN = "\u212a"
_DOTTED_I = "\u0130"
_KELVIN_UTF8 = _KELVIN.encode("utf-8")
#: Every byte but those that continue a UTF-8 sequence (deleted, the rest are counted).
_NOT_CONTINUATION = bytes(b for b in range(256) if not 0x80 <= b <= 0xBF)
#: What a bytes pattern would read differently from a str pattern (classes and boundaries).
_UNICODE_ESCAPES = tuple(f"\\{letter}" for letter in "wWsSdDbB")


@cache
def _as_bytes(source: str) -> re.Pattern[bytes] | None:
    """An anchor's source as a bytes pattern, None when it uses a class or a boundary."""
    plain = source.isascii() and not any(escape in source for escape in _UNICODE_ESCAPES)
    return re.compile(source.encode("ascii")) if plain else None


class _KeyWords:
    """Where key words start in one text, found in it lower-cased (`_lowered`) or, given its
    exact UTF-8 bytes without a Kelvin sign, in those lower-cased (offsets less the
    continuation bytes before them)."""

    __slots__ = ("_data", "_lowered", "_text")

    def __init__(self, text: str, data: bytes | None) -> None:
        self._text = text
        usable = data is not None and not text.isascii() and _KELVIN_UTF8 not in data
        self._data = data.lower() if usable and data is not None else None
        self._lowered: str | None = None

    def starts(self, anchor: re.Pattern[str]) -> Iterator[int]:
        """The offsets in the text where `anchor` matches its lower-cased form, in order."""
        as_bytes = _as_bytes(anchor.pattern) if self._data is not None else None
        if self._data is None or as_bytes is None:
            if self._lowered is None:
                self._lowered = _lowered(self._text)
            for hit in anchor.finditer(self._lowered):
                yield hit.start()
            return
        data = self._data
        continuing = before = 0
        for found in as_bytes.finditer(data):
            at = found.start()
            continuing += len(data[before:at].translate(None, _NOT_CONTINUATION))
            before = at
            yield at - continuing


def _gate_words(
    exact: tuple[str, ...], any_case: tuple[str, ...], anchor: str | None
) -> dict[str, tuple[str, ...]] | None:
    """For a shape gated and anchored by whole key words alone, each key word with the gate
    literals that stand for it; None for any other shape."""
    if exact or not any_case or not all(literal.endswith(WORD_END) for literal in any_case):
        return None
    words: dict[str, tuple[str, ...]] = {}
    for literal in any_case:
        word = literal.removesuffix(WORD_END).lstrip(JOINTS)
        words[word] = (*words.get(word, ()), literal)
    return words if anchor == words_anchor(tuple(words)) else None


def _lowered(text: str) -> str:
    """`text` lower-cased with every offset kept (ASCII through the bytes, then the Kelvin
    sign), enough for ASCII key words."""
    if text.isascii():
        return text.lower()
    lowered = text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")
    if _KELVIN in lowered and _DOTTED_I not in text:
        return lowered.replace(_KELVIN, "k")
    return lowered


#: Printable ASCII, the most frequent first, as counted over what the filter mostly reads:
#: the JSON of `reasoning status` and `objects list` (stamps and ids put `T` and `Z` among
#: the common letters) and ordinary prose.
_FREQUENT = (
    ' e"trasino\nd0luc:1p2,m-h/.69548b37fyjvgkTAwRZ{}_@=E()DxPOICSzNMqBUFHGYL;KQJ[]WVX+?$><'
    "'*\\&#~`|%!"
)
#: The pivots of the scans (`_Prefilter`): few characters, rare in answers, that cover every
#: literal of their scan (a literal holding none gets its rarest character).
_CASED_PIVOTS = "ABGJKNQ"
_FOLDED_PIVOTS = "./_ghkpqrx"


def _rarity(char: str) -> int:
    """How rare a character is (higher is rarer); a character not listed is rarest."""
    return _FREQUENT.find(char) % (len(_FREQUENT) + 1)


def _bare(literal: str) -> str:
    """The characters of a literal, without its `WORD_END`."""
    return literal.removesuffix(WORD_END)


def _word_end(literal: str) -> str:
    """What must follow a literal's characters in the lower-cased text."""
    return "(?![a-z0-9])" if literal.endswith(WORD_END) else ""


def _pivot(literal: str, chosen: str) -> int:
    """Where the scan looks for `literal`: its rarest `chosen` character, preferably not its
    last, else its rarest character."""
    bare = _bare(literal)
    held = [at for at, char in enumerate(bare) if char in chosen] or range(len(bare))
    return min(held, key=lambda at: (at == len(bare) - 1, -_rarity(bare[at]), at))


#: How many bytes a process searches literal by literal before it compiles its scans
#: (`_Prefilter.found_in`): about as many as compiling would take to search.
_RENTED_BYTES = 128 * 1024


class _Prefilter:
    """Which gate literals a text holds (case-sensitive ones, and key words in any case),
    from a few passes over its UTF-8 bytes: maybe more than it holds, never fewer."""

    __slots__ = ("_bare", "_folded", "_rented", "_scans", "any_case", "exact", "longest")

    def __init__(self, exact: set[str], any_case: set[str]) -> None:
        self.exact = tuple(sorted(exact))
        self.any_case = tuple(sorted(any_case))
        self.longest = max(map(len, (*exact, *any_case)), default=0)
        self._bare = (
            [(literal, _bare(literal).encode("ascii")) for literal in self.exact],
            [(literal, _bare(literal).encode("ascii")) for literal in self.any_case],
        )
        self._folded = {
            literal: literal.encode("ascii") for literal in self.exact if literal == literal.lower()
        }
        self._scans: tuple[_Scan, _Scan] | None = None
        self._rented = 0

    def found_in(self, data: bytes) -> tuple[frozenset[str], frozenset[str]]:
        """The case-sensitive literals and the key words (lower case) `data` may hold; the
        first `_RENTED_BYTES` of a process are searched literal by literal, uncompiled."""
        if self._rented + len(data) <= _RENTED_BYTES:
            self._rented += len(data)
            return self._each(data)
        self._rented = _RENTED_BYTES
        if self._scans is None:
            cased = tuple(literal for literal in self.exact if literal not in self._folded)
            folded = (*self._folded, *self.any_case)
            self._scans = (_Scan(cased, _CASED_PIVOTS), _Scan(folded, _FOLDED_PIVOTS))
        in_bytes, in_lowered = self._scans
        hits = in_lowered.found(data.lower())
        exact = in_bytes.found(data).union(
            literal for literal, bare in self._folded.items() if literal in hits and bare in data
        )
        return exact, hits.intersection(self.any_case)

    def _each(self, data: bytes) -> tuple[frozenset[str], frozenset[str]]:
        """The literals `data` holds (a key word in any case), each looked for alone."""
        exact, any_case = self._bare
        lowered = data.lower()
        return (
            frozenset(literal for literal, bare in exact if _holds(data, literal, bare)),
            frozenset(literal for literal, bare in any_case if _holds(lowered, literal, bare)),
        )


class _Scan:
    """Literals of one kind (those looked for in the bytes, or in the bytes lower-cased),
    grouped by pivot as `_Prefilter` looks for them."""

    __slots__ = ("_covered", "_patterns", "_pivots", "_tails")

    def __init__(self, literals: tuple[str, ...], chosen: str) -> None:
        at = {literal: _pivot(literal, chosen) for literal in literals}
        pivots: dict[bytes, list[str]] = {}
        for literal in literals:
            pivots.setdefault(_bare(literal)[at[literal]].encode("ascii"), []).append(literal)
        self._pivots = {
            pivot: {literal: at[literal] for literal in found}
            for pivot, found in sorted(pivots.items())
        }
        self._tails = {literal: _bare(literal)[at[literal] :] for literal in literals}
        self._patterns: dict[bytes, re.Pattern[bytes]] = {}
        self._covered: dict[tuple[bytes, bytes], frozenset[str]] = {}

    def found(self, data: bytes) -> frozenset[str]:
        """The literals `data` may hold."""
        found: frozenset[str] = frozenset()
        for pivot, literals in self._pivots.items():
            if pivot not in data:
                continue
            pattern = self._patterns.get(pivot)
            if pattern is None:
                pattern = self._patterns[pivot] = re.compile(_alternation(literals).encode("ascii"))
            for hit in set(pattern.findall(data)):
                covered = self._covered.get((pivot, hit))
                if covered is None:
                    tails = {literal: self._tails[literal] for literal in literals}
                    covered = _agreeing(tails, hit.decode("ascii"))
                    self._covered[pivot, hit] = covered
                found |= covered
        return found


#: What may not follow a literal ending in `WORD_END`, in lower-cased bytes.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")


def _holds(data: bytes, literal: str, bare: bytes) -> bool:
    """Whether `data` holds `bare`, followed by no letter or digit if `literal` says so."""
    if not literal.endswith(WORD_END):
        return bare in data
    at = data.find(bare)
    while at >= 0:
        end = at + len(bare)
        if end == len(data) or data[end] not in _WORD_BYTES:
            return True
        at = data.find(bare, at + 1)
    return False


def _agreeing(tails: dict[str, str], hit: str) -> frozenset[str]:
    """The literals whose tail, started at some offset of `hit`, agrees with the rest of it."""
    return frozenset(
        literal
        for literal, tail in tails.items()
        if any(tail.startswith(hit[at:]) or hit[at:].startswith(tail) for at in range(len(hit)))
    )


def _alternation(literals: dict[str, int]) -> str:
    """A pattern matching, at a pivot, the longest tail there whose literal is whole (a trie
    of tails, look-behinds for the part before the pivot)."""
    trie: dict[str, Any] = {}
    for literal, pivot in literals.items():
        bare = _bare(literal)
        node = trie
        for char in bare[pivot:]:
            node = node.setdefault(re.escape(char), {})
        node.setdefault("", []).append((bare, pivot, _word_end(literal)))

    def emit(node: dict[str, Any], path: str) -> str:
        branches = [unit + emit(node[unit], path + unit) for unit in sorted(node) if unit]
        ends: list[tuple[str, int, str]] = node.get("", [])
        behind = sorted({f"(?<={re.escape(bare)}){end}" if at else end for bare, at, end in ends})
        if len(behind) > 1 and all(at for _, at, _ in ends):
            before = "".join(sorted({re.escape(bare[at - 1]) for bare, at, _ in ends}))
            behind = [f"(?<=[{before}]{path})(?:{'|'.join(behind)})"]
        if ends:
            branches += [""] if "" in behind else behind
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(trie, "")


_COMPILED: tuple[_Shape, ...] = tuple(_Shape(name, source) for name, source in SHAPES)
_LITERALS = _Prefilter(
    {literal for shape in _COMPILED for literal in shape.exact},
    {literal for shape in _COMPILED for literal in shape.any_case},
)

_MARKER = re.compile(r"\[redacted:([a-z-]+)\]")
_UNLABELLED_MARKER = f"[redacted:{UNLABELLED}]".encode("ascii")


#: An ESC `[` sequence up to its letter, or one control character (category Cc) but `\n`.
_CONTROL = re.compile(r"\x1b\[[^A-Za-z]*[A-Za-z]?|[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def strip_controls(text: str) -> str:
    """Drop control characters other than `\\n`; an ESC `[` sequence goes up to its letter."""
    return _CONTROL.sub("", text)


class Candidates:
    """The gate literals one text holds, from one scan of its bytes; `utf8` says the bytes
    are exactly the text's UTF-8, so key words may be looked for in them."""

    __slots__ = ("any_case", "data", "exact", "utf8")

    def __init__(self, data: bytes, *, utf8: bool = False) -> None:
        self.data = data
        self.utf8 = utf8
        self.exact, self.any_case = _LITERALS.found_in(data)

    def admits(self, shape: _Shape) -> bool:
        """Whether the text holds one of `shape`'s gate literals and all its `also`."""
        if self.exact.isdisjoint(shape.exact) and self.any_case.isdisjoint(shape.any_case):
            return False
        return all(literal in self.data for literal in shape.also)

    def none(self) -> bool:
        """Whether no shape can match and no unlabelled token can be there."""
        if any(map(self.admits, _COMPILED)):
            return False
        return not unlabelled.possible(unlabelled.cases(self.data))

    def after(self, text: str, spans: list[tuple[int, int]]) -> Candidates:
        """Those of `text` after replacements at `spans`: these, plus those found around
        each replacement (a marker may complete a key word)."""
        reach = _LITERALS.longest
        around = "\0".join(text[max(0, start - reach) : end + reach] for start, end in spans)
        found = Candidates(around.encode("utf-8", "surrogatepass"))
        found.data, found.utf8 = text.encode("utf-8", "surrogatepass"), True
        found.exact, found.any_case = found.exact | self.exact, found.any_case | self.any_case
        return found


def redact_secrets(text: str, candidates: Candidates | None = None) -> str:
    """Replace every secret shape, in table order, then every unlabelled token, by its
    marker (controls left alone); `candidates` are this text's, when the caller has them."""
    if candidates is None:
        candidates = Candidates(text.encode("utf-8", "surrogatepass"), utf8=True)
    key_words: _KeyWords | None = None
    for shape in _COMPILED:
        if not candidates.admits(shape):
            continue
        if key_words is None and shape.anchor is not None:
            key_words = _KeyWords(text, candidates.data if candidates.utf8 else None)
        text, spans = shape.sub(text, key_words, candidates.any_case)
        if spans:
            key_words = None
            candidates = candidates.after(text, spans)
    data = candidates.data if candidates.utf8 else text.encode("utf-8", "surrogatepass")
    cased = unlabelled.cases(data)
    if not unlabelled.possible(cased):
        return text
    pieces: list[bytes] = []
    done = 0
    for start, end in unlabelled.spans(data, cased):
        pieces += (data[done:start], _UNLABELLED_MARKER)
        done = end
    return b"".join((*pieces, data[done:])).decode("utf-8", "surrogatepass") if pieces else text


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    return redact_secrets(strip_controls(text))


def shapes_in(text: str) -> set[str]:
    """The shape names whose markers appear in `text` (a marker given as input counts too)."""
    return {name for name in _MARKER.findall(text) if name in SHAPE_NAMES}


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string value of a JSON value (keys untouched); kinds in canonical order."""
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
