"""Secret redaction: what is removed from a record before it touches disk, and from every
text before it leaves the process (`majordomus.egress`).

Owns the matching of the secret shapes (their table, which docs/ledger.md names one by one,
is `majordomus.ledger.secret_shapes`), the control-character scrub and the walk over every
string value of a body. Pure: no disk, no clock. The ledger's write path calls `redact`
between admission and writing; nothing else decides what counts as a secret.
Cheap to import (no pydantic until a body is redacted): every error line uses it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Any

from majordomus.errors import Refused
from majordomus.ledger.secret_shapes import (
    ANCHORS,
    ANY_CASE,
    GATES,
    SHAPE_NAMES,
    SHAPES,
    WORD_END,
    Source,
    words_anchor,
)

if TYPE_CHECKING:
    from majordomus.ledger.record import ReasoningBody


def _split_gate(gate: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if ANY_CASE not in gate:
        return gate, ()
    at = gate.index(ANY_CASE)
    return gate[:at], gate[at + 1 :]


class _Shape:
    """One shape with its gate, its anchor and its marker; compiled on first need."""

    __slots__ = (
        "anchor",
        "any_case",
        "exact",
        "keep",
        "marker",
        "narrowed",
        "pattern",
        "source",
        "words",
    )

    def __init__(self, name: str, source: Source) -> None:
        self.source = source
        self.pattern: re.Pattern[str] | None = None
        self.exact, self.any_case = _split_gate(GATES[name])
        self.anchor = ANCHORS.get(name)
        self.marker = f"[redacted:{name}]"
        self.keep = "(?P<keep>" in source.pattern
        self.words = _gate_words(self.exact, self.any_case, self.anchor)
        self.narrowed: dict[tuple[str, ...], re.Pattern[str]] = {}

    def replace(self, match: re.Match[str]) -> str:
        return (match.group("keep") or "") + self.marker if self.keep else self.marker

    def compiled(self) -> re.Pattern[str]:
        if self.pattern is None:
            self.pattern = re.compile(self.source.pattern, self.source.flags)
        return self.pattern

    def sub(self, text: str, lowered: str | None, any_case: frozenset[str] = frozenset()) -> str:
        """The text with every match replaced; an anchored shape looks for its key words in
        `lowered`, which is `_lowered(text)`, and `any_case` are the case-insensitive
        literals the text holds (`Candidates`), when known."""
        pattern = self.compiled()
        if self.anchor is None or lowered is None:
            return pattern.sub(self.replace, text)
        pieces: list[str] = []
        done = 0
        for hit in self._anchor(text, any_case).finditer(lowered):
            start = hit.start()
            if start < done:
                continue
            match = pattern.match(text, start)
            if match is None:
                continue
            pieces += (text[done:start], self.replace(match))
            done = match.end()
        return "".join((*pieces, text[done:])) if pieces else text

    def _anchor(self, text: str, any_case: frozenset[str]) -> re.Pattern[str]:
        """Where the key words may start. A shape gated by whole key words alone looks only
        for those the text holds: a word it does not hold never starts a hit, so the hits,
        their order and their ends are those of all the words (a Kelvin sign, which
        lower-cases to a `k` the literal scan of the bytes does not see, keeps them all)."""
        assert self.anchor is not None
        held: tuple[str, ...] | None = None
        if self.words is not None and any_case and _KELVIN not in text:
            held = tuple(word for word in self.words if word + WORD_END in any_case)
        if not held or held == self.words:
            return re.compile(self.anchor)
        found = self.narrowed.get(held)
        if found is None:
            found = self.narrowed[held] = re.compile(words_anchor(held))
        return found


#: The characters outside ASCII that `str.lower` turns into ASCII: the Kelvin sign becomes
#: `k`, and the dotted capital I becomes two characters (`i` and a combining dot).
_KELVIN = "\u212a"
_DOTTED_I = "\u0130"


def _gate_words(
    exact: tuple[str, ...], any_case: tuple[str, ...], anchor: str | None
) -> tuple[str, ...] | None:
    """The key words of a shape gated by whole key words alone and anchored at any of them
    (`words_anchor`), in order; None for any other shape."""
    if exact or not any_case or not all(literal.endswith(WORD_END) for literal in any_case):
        return None
    words = tuple(literal.removesuffix(WORD_END) for literal in any_case)
    return words if anchor == words_anchor(words) else None


def _lowered(text: str) -> str:
    """`text` lower-cased with every offset kept, as key words are looked for in it.

    `str.lower` where that keeps every offset, else ASCII letters alone lower-cased. The
    key words are ASCII, so what they match depends only on which characters are ASCII
    and which: lower-casing ASCII letters through the UTF-8 bytes (at C speed, where
    `str.lower` of a text that is not ASCII walks it code point by code point) and then the
    Kelvin sign, the one character outside ASCII that `str.lower` maps into it in place,
    finds the same words at the same places."""
    if text.isascii():
        return text.lower()
    lowered = text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")
    if _KELVIN in lowered and _DOTTED_I not in text:
        return lowered.replace(_KELVIN, "k")
    return lowered


#: Characters of ordinary text and JSON, the most frequent first (`:` among the first: every
#: member of pretty-printed JSON has one). A literal is looked for from its rarest character
#: (the first one not listed, else the one listed last).
_FREQUENT = ' \n":etaoinsrhldcu0123456789-/,._mfpgywbvk(){}[]='


def _bare(literal: str) -> str:
    """The characters of a literal, without its `WORD_END`."""
    return literal.removesuffix(WORD_END)


def _word_end(literal: str) -> str:
    """What must follow a literal's characters in the lower-cased text."""
    return "(?![a-z0-9])" if literal.endswith(WORD_END) else ""


def _pivot(literal: str) -> int:
    """Where the scan looks for `literal`: at its rarest character."""
    bare = _bare(literal)
    rank = [_FREQUENT.find(char) % (len(_FREQUENT) + 1) for char in bare]
    return min(range(len(bare)), key=lambda at: (-rank[at], at))


class _Prefilter:
    """Which of a set of ASCII literals a text holds, in one scan of its UTF-8 bytes.

    One alternation finds each literal from its rarest character (`_pivot`): the rest of
    the literal (its tail), factored by common prefixes, then a look behind for the part
    before the pivot. The scan stops only where a literal may have its pivot, not at every
    common letter. Where a match could stand for several literals (tails that share a
    start), each is checked in place; where another tail may start inside a match (which
    the scan steps over), the alternation is tried there too. Compiled on first use.
    """

    __slots__ = ("_covered", "_pattern", "_tails", "literals")

    def __init__(self, literals: set[str]) -> None:
        self.literals = tuple(sorted(literals))
        self._tails = {literal: _bare(literal)[_pivot(literal) :] for literal in self.literals}
        self._pattern: re.Pattern[bytes] | None = None
        self._covered: dict[bytes, frozenset[str]] = {}

    def found(self, text: str, *, lower: bool = False) -> frozenset[str]:
        data = text.encode("utf-8", "surrogatepass")
        return self.found_in(data.lower() if lower else data)

    def found_in(self, data: bytes) -> frozenset[str]:
        """`found` over a text's UTF-8 bytes (lower-cased first for the key words: ASCII
        letters only, no other character lowers to one). The literals are ASCII, so bytes
        outside ASCII, well-formed or not, only ever stand next to a match."""
        if self._pattern is None:
            self._pattern = re.compile(_alternation(self.literals).encode("ascii"))
        held: frozenset[str] = frozenset()
        for hit in set(self._pattern.findall(data)):
            covered = self._covered.get(hit)
            if covered is None:
                covered = self._covered[hit] = self._covering(hit.decode("ascii"))
            held |= covered
        return held

    def _covering(self, hit: str) -> frozenset[str]:
        """The literals a matched tail may stand for: those whose tail starts it, and those
        whose tail may start inside it (where the scan, resuming after it, did not look)."""
        return frozenset(
            literal
            for literal, tail in self._tails.items()
            if hit.startswith(tail)
            or any(
                tail.startswith(hit[at:]) or hit[at:].startswith(tail) for at in range(1, len(hit))
            )
        )


def _alternation(literals: tuple[str, ...]) -> str:
    """A regular expression matching, at each place one of `literals` has its rarest
    character, the longest tail there whose literal is whole."""
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for char in _bare(literal)[_pivot(literal) :]:
            node = node.setdefault(char, {})
        node.setdefault("", []).append(literal)

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + emit(node[char]) for char in sorted(node) if char]
        ends = node.get("", [])
        if ends:
            behind = [
                (f"(?<={re.escape(_bare(literal))})" if _pivot(literal) else "")
                + _word_end(literal)
                for literal in ends
            ]
            branches += [""] if "" in behind else behind
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(trie)


_COMPILED: tuple[_Shape, ...] = tuple(_Shape(name, source) for name, source in SHAPES)
_EXACT = _Prefilter({literal for shape in _COMPILED for literal in shape.exact})
_ANY_CASE = _Prefilter({literal for shape in _COMPILED for literal in shape.any_case})

_MARKER = re.compile(r"\[redacted:([a-z-]+)\]")


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc"


def strip_controls(text: str) -> str:
    """Drop control characters other than `\\n`; an ESC `[` sequence goes up to its letter.

    Terminal escapes in advisor output must not reach a reader's terminal through a record.
    """
    if not any(_is_control(ch) and ch != "\n" for ch in text):
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\x1b" and i + 1 < n and text[i + 1] == "[":
            i += 2
            while i < n and not ("A" <= text[i] <= "Z" or "a" <= text[i] <= "z"):
                i += 1
            i += 1
            continue
        if ch == "\n" or not _is_control(ch):
            out.append(ch)
        i += 1
    return "".join(out)


class Candidates:
    """The literals of the secret shapes that one text holds, from one scan of its bytes:
    a text holding none of any shape's literals needs no redaction at all."""

    __slots__ = ("any_case", "exact")

    def __init__(self, data: bytes) -> None:
        self.exact = _EXACT.found_in(data)
        self.any_case = _ANY_CASE.found_in(data.lower())

    def none(self) -> bool:
        """Whether no shape can match: every shape's literals are absent."""
        return not any(
            not (self.exact.isdisjoint(shape.exact) and self.any_case.isdisjoint(shape.any_case))
            for shape in _COMPILED
        )


def redact_secrets(text: str, candidates: Candidates | None = None) -> str:
    """Replace every secret shape, in table order, by its marker (controls left alone).

    `candidates`, when given, are those of this very text (`Candidates` of its UTF-8 bytes),
    found once by a caller that already holds them."""
    if candidates is None:
        candidates = Candidates(text.encode("utf-8", "surrogatepass"))
    exact, any_case = candidates.exact, candidates.any_case
    lowered: str | None = None
    for shape in _COMPILED:
        if exact.isdisjoint(shape.exact) and any_case.isdisjoint(shape.any_case):
            continue
        if lowered is None and shape.anchor is not None:
            lowered = _lowered(text)
        replaced = shape.sub(text, lowered, any_case)
        if replaced != text:
            # What a replacement adds is its marker: no case-sensitive literal but the
            # marker itself holds `[` or `]`, so none can span its edges. A key word next
            # to a marker may have become a whole word, so those are looked for again.
            text, lowered = replaced, None
            exact |= _EXACT.found(shape.marker)
            any_case = _ANY_CASE.found(text, lower=True)
    return text


def redact_text(text: str) -> str:
    """Scrub controls, then replace every secret shape, in table order, by its marker."""
    return redact_secrets(strip_controls(text))


def shapes_in(text: str) -> set[str]:
    """The shape names whose markers appear in `text` (a marker given as input counts too)."""
    return {name for name in _MARKER.findall(text) if name in SHAPE_NAMES}


def redact_value(value: Any) -> tuple[Any, list[str]]:
    """Redact every string value of a JSON value (keys untouched); kinds in canonical order."""
    from majordomus.order import canonical_strings

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


def redact(body: ReasoningBody) -> tuple[ReasoningBody, list[str]]:
    """The body with every secret shape replaced in every string, and the shapes found.

    Should the redacted form no longer parse as a body (a secret in a field whose markers
    break its constraints), the record is refused: a secret never reaches disk, and the
    refusal names only the shapes, never the value.
    """
    from pydantic import ValidationError

    from majordomus.ledger.record import parse_body

    value = body.wire()
    cleaned, kinds = redact_value(value)
    if cleaned == value:
        return body, kinds
    try:
        return parse_body(cleaned), kinds
    except ValidationError:
        raise Refused(
            f"the record holds a secret ({', '.join(kinds)}) where its redacted form is no "
            "longer a valid record; remove the secret and record again"
        ) from None
