"""Allow-lists: which metadata key paths a kind admits.

Owns loading the shipped lists (package data `data/allow/<name>.txt`) and matching flattened
key paths against them. Nearly every pattern is a literal spelling (`^(id|title)$`,
`^tags(\\.[0-9]+)?$`): the paths those spell are checked by set lookup, with each index
written `#` (`majordomus.layer.allow_literals`). Only a path no spelling admits reaches the
regular expressions: each list is compiled once, on that first use, into a single
alternation, so a process whose files hold only admitted keys compiles nothing. A pattern
that does not compile is a fatal error (exit 13) where its list is compiled: the lists ship
with the executable, so it is a build defect, and a test compiles every one of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from majordomus.errors import ProtocolFailure
from majordomus.layer.allow_literals import INDEX, spelled, spelled_path
from majordomus.layer.yaml import key_paths

#: The shipped lists, beside this module (as `importlib.resources` finds them for an installed
#: package, without importing its readers and zipfile on every start).
_LISTS = Path(__file__).with_name("data") / "allow"
_MEMO_LIMIT = 65536
_CONTAINERS = frozenset({dict, list})


class AllowListError(ProtocolFailure):
    """A shipped allow-list is missing or holds a pattern that does not compile (exit 13)."""


@dataclass(slots=True)
class AllowList:
    """One list: its name, its patterns as written, and their compiled alternation; two lists
    are equal when their names and patterns are."""

    name: str
    patterns: tuple[str, ...]
    #: The line of each pattern in the list's text, to name one that does not compile.
    lines: tuple[int, ...] = field(default=(), compare=False)
    verdicts: dict[str, bool] = field(default_factory=dict, init=False, compare=False, repr=False)
    _compiled: list[re.Pattern[str]] = field(
        default_factory=list, init=False, compare=False, repr=False
    )
    _spelled: list[tuple[frozenset[str], frozenset[str]]] = field(
        default_factory=list, init=False, compare=False, repr=False
    )

    @property
    def literals(self) -> frozenset[str]:
        """The paths the literal patterns spell, each index as `#` (`allow_literals`); read
        on first use, without compiling anything."""
        return self._spellings()[0]

    @property
    def plain(self) -> frozenset[str]:
        """The spelled paths without an index: a path equal to one is admitted as it is."""
        return self._spellings()[1]

    def _spellings(self) -> tuple[frozenset[str], frozenset[str]]:
        if not self._spelled:
            literals = spelled(self.patterns)
            self._spelled.append((literals, frozenset(p for p in literals if "#" not in p)))
        return self._spelled[0]

    @property
    def matcher(self) -> re.Pattern[str]:
        """The alternation of the patterns, compiled on first use: a process pays only for
        the lists of the kinds it meets (compiling is most of loading a list)."""
        if not self._compiled:
            self._compiled.append(_compile(self.name, self.patterns, self.lines))
        return self._compiled[0]

    @property
    def display(self) -> str:
        """How diagnostics name the list: the reference page that documents it, since the
        list file itself ships inside the package."""
        return f"docs/generated/layer.md#{self.name}"

    def unknown(self, key_paths: list[str]) -> list[str]:
        """The key paths no pattern matches, in the order given (search semantics).

        Verdicts are memoised per path: the same keys recur in every file of a kind.
        """
        verdicts = self.verdicts
        return [p for p in key_paths if not verdicts.get(p, False) and not self._allows(p)]

    def unknown_in(self, mapping: dict[str, Any]) -> list[str]:
        """`unknown(key_paths(mapping))`, without listing the paths of top-level leaves
        (nearly every key of a front matter): their verdicts are looked up as they come;
        a list of scalars has its `key.<index>` paths spelt here."""
        literals, plain = self._spellings()
        out: list[str] = []
        for key, child in mapping.items():
            if (type(child) is dict or type(child) is list) and child:
                if type(child) is list and _CONTAINERS.isdisjoint(map(type, child)):
                    if key + INDEX in literals and "#" not in key:
                        continue  # `key.<n>` admitted for every n
                    paths = [f"{key}.{index}" for index in range(len(child))]
                else:
                    paths = key_paths({key: child})
                out.extend(self.unknown(paths))
            elif key not in plain and not self._allows(key):
                out.append(key)
        return out

    def _allows(self, path: str) -> bool:
        """Whether a pattern matches `path`; the verdict is remembered (up to a bound). A path
        a literal pattern spells once its indices are written `#` is admitted without the
        regular expressions."""
        allowed = self.verdicts.get(path)
        if allowed is None:
            allowed = spelled_path(path) in self.literals or self.matcher.search(path) is not None
            if len(self.verdicts) < _MEMO_LIMIT:
                self.verdicts[path] = allowed
        return allowed

    def message(self, unknown: list[str]) -> str:
        return f"key(s) not allowed here (see {self.display}): {', '.join(unknown)}"


def parse_allow_list(name: str, text: str) -> AllowList:
    """Patterns from list text: trimmed lines, blank and `#` lines ignored; compiled now, so
    a pattern that does not compile raises `AllowListError` here."""
    allow = _read_list(name, text)
    allow.matcher  # noqa: B018 - compiled for its refusal
    return allow


def _read_list(name: str, text: str) -> AllowList:
    """The list `text` holds, not compiled yet (`AllowList.matcher`)."""
    numbers: list[int] = []
    patterns: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            numbers.append(number)
            patterns.append(line)
    return AllowList(name=name, patterns=tuple(patterns), lines=tuple(numbers))


def _compile(name: str, patterns: tuple[str, ...], lines: tuple[int, ...]) -> re.Pattern[str]:
    """The alternation of `patterns`; only when it fails is each pattern compiled alone, to
    name the line that does not compile (one compilation per list, not per pattern)."""
    joined = "|".join(f"(?:{p})" for p in patterns) if patterns else r"(?!)"
    try:
        return re.compile(joined)
    except re.error:
        for number, line in zip(lines, patterns, strict=True):
            try:
                re.compile(line)
            except re.error as exc:
                raise AllowListError(
                    f"allow-list {name}.txt line {number}: pattern {line!r} does not compile: {exc}"
                ) from exc
        raise


@cache
def available() -> frozenset[str]:
    """Names of the shipped lists, listed once per process."""
    return frozenset(
        entry.name.removesuffix(".txt") for entry in _LISTS.iterdir() if entry.name.endswith(".txt")
    )


@cache
def load_allow_list(name: str) -> AllowList:
    """The shipped list `name`, read once per process and compiled on first use (every
    shipped list compiles: tests/layer/test_kinds.py)."""
    source = _LISTS / f"{name}.txt"
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AllowListError(f"allow-list {name}.txt cannot be read: {exc}") from exc
    return _read_list(name, text)
