"""The key paths an allow-list's literal patterns spell, found without compiling them.

Nearly every shipped pattern spells a finite set of paths: `^(id|title)$`,
`^tags(\\.[0-9]+)?$`, `^arguments\\.[0-9]+\\.(name|required)$`. Writing each list index as
`#` (`INDEX`), such a pattern is a few strings, and a path is admitted by set lookup once
its all-digit segments are written `#` too (`spelled_path`). A pattern in any other form
(classes, repetition, anything unescaped) spells nothing here: the paths it admits are left
to the compiled patterns (`majordomus.layer.allow`), which stay the authority.

Sound by construction: a spelled string is only ever produced for a text the pattern
matches, since `[0-9]+` matches exactly an all-ASCII-digit segment and every other piece is
literal; a path that holds a `#` of its own is never looked up as spelled. Pure: no disk, no
regular expression.
"""

from __future__ import annotations

from itertools import product

#: How a list index is written in a spelled path.
INDEX = ".#"
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DIGITS = "[0-9]+"
_OPTIONAL_INDEX = r"(\.[0-9]+)?"
#: More spellings than this from one pattern: left to the compiled patterns.
_MOST = 4096


def _name(text: str) -> bool:
    return bool(text) and _NAME_CHARS.issuperset(text)


def _pieces(body: str) -> list[tuple[str, ...]] | None:
    """The alternatives of each piece of an anchored pattern's body, or None when the body
    is not a literal spelling."""
    pieces: list[tuple[str, ...]] = []
    at = 0
    while at < len(body):
        if body.startswith(_OPTIONAL_INDEX, at):
            pieces.append(("", INDEX))
            at += len(_OPTIONAL_INDEX)
        elif body.startswith(r"\.", at):
            pieces.append((".",))
            at += 2
        elif body.startswith(_DIGITS, at):
            pieces.append(("#",))
            at += len(_DIGITS)
        elif body[at] == "(":
            end = body.find(")", at)
            alternatives = tuple(body[at + 1 : end].split("|")) if end > 0 else ()
            if not alternatives or not all(_name(a) for a in alternatives):
                return None
            if body[end + 1 : end + 2] in ("?", "*", "+", "{"):
                return None
            pieces.append(alternatives)
            at = end + 1
        else:
            end = at
            while end < len(body) and body[end] in _NAME_CHARS:
                end += 1
            if end == at or body[end : end + 1] in ("?", "*", "+", "{"):
                return None
            pieces.append((body[at:end],))
            at = end
    return pieces


def spellings(pattern: str) -> frozenset[str]:
    """Every path `pattern` spells (indices as `#`); empty when it is not a literal spelling."""
    if not (pattern.startswith("^") and pattern.endswith("$")) or pattern.endswith("\\$"):
        return frozenset()
    pieces = _pieces(pattern[1:-1])
    if not pieces:
        return frozenset()
    count = 1
    for alternatives in pieces:
        count *= len(alternatives)
    if count > _MOST:
        return frozenset()
    return frozenset("".join(parts) for parts in product(*pieces))


def spelled(patterns: tuple[str, ...]) -> frozenset[str]:
    """The union of the spellings of `patterns`."""
    out: set[str] = set()
    for pattern in patterns:
        out |= spellings(pattern)
    return frozenset(out)


def spelled_path(path: str) -> str | None:
    """`path` with each all-digit segment written `#`, to look up in spellings; None for a
    path that already holds a `#`."""
    if "#" in path:
        return None
    if "." not in path:
        return path
    return ".".join("#" if part.isdigit() and part.isascii() else part for part in path.split("."))
