"""Writing one new layer file from a few facts: what `majordomus new KIND` does, the product's
one authoring path (docs/layer-internals.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from majordomus import safefs
from majordomus.errors import ContractUnmet, InvalidInput, ProtocolFailure
from majordomus.layer.discovery import Glob
from majordomus.layer.sources import GLOB_MAGIC

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_SLUG = re.compile(r"[^a-z0-9]+")
#: The keys that hold prose: always quoted, even when the value reads as an identifier.
_PROSE_KEYS = ("title", "description", "objective", "outcome", "statement")


class ScaffoldRefused(ProtocolFailure):
    """The file exists already, or cannot be written safely (exit 13)."""


class NotIndexed(ContractUnmet):
    """No source class would read the new file as its kind (exit 10)."""


@dataclass
class Draft:
    """A file to create: its path under the root and its ordered keys (and markdown body)."""

    kind: str
    path: str
    keys: list[tuple[str, str | list[str] | int]] = field(default_factory=list)
    body: str | None = None

    @property
    def uri_identity(self) -> str:
        values = dict(self.keys)
        if self.kind == "rule":
            return f"{values['id']}@{values['version']}"
        return str(values.get("id", values.get("name", "")))


def identifier(value: str, what: str) -> str:
    """`value` when it is a usable identity (no `/`, `@`, whitespace or quote)."""
    if not _ID.match(value):
        raise InvalidInput(
            f"{what} {value!r} is not an identifier: letters, digits, `.`, `_` and `-` only"
        )
    return value


def slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")[:48] or "untitled"


def _quote(text: str) -> str:
    """A YAML-subset scalar that reads back as exactly `text` (the subset has no escapes)."""
    if "\n" in text or "\r" in text:
        raise InvalidInput(f"{text!r}: a value is one line")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    raise InvalidInput(f"{text!r}: a value holds either `\"` or `'`, not both")


def render(draft: Draft) -> str:
    lines: list[str] = []
    for key, value in draft.keys:
        if isinstance(value, int):
            lines.append(f"{key}: {value}")
        elif isinstance(value, list):
            lines.append(f"{key}: []" if not value else f"{key}:")
            lines += [f"  - {_quote(item)}" for item in value]
        elif _ID.match(value) and key not in _PROSE_KEYS:
            lines.append(f"{key}: {value}")
        else:
            lines.append(f"{key}: {_quote(value)}")
    text = "".join(line + "\n" for line in lines)
    if draft.body is None:
        return text
    return f"---\n{text}---\n\n{draft.body}"


def related(rules: Sequence[str], adrs: Sequence[str], knowledge: Sequence[str]) -> list[str]:
    """The typed references of an issue's or milestone's `related` key."""
    return (
        [f"rule:{identifier(r, 'rule')}" for r in rules]
        + [f"adr:{identifier(a, 'decision')}" for a in adrs]
        + [f"knowledge:{identifier(k, 'knowledge note')}" for k in knowledge]
    )


def next_adr_number(root: Path, folder: str) -> int:
    """One more than the highest `NNNN-` prefix in the decisions folder."""
    numbers = [0]
    try:
        with safefs.Tree(root) as tree:
            for name, _mode in tree.entries(folder):
                head = name.split("-", 1)[0]
                if len(head) == 4 and head.isdigit():
                    numbers.append(int(head))
    except safefs.Unsafe:
        pass
    return max(numbers) + 1


def check_indexed(draft: Draft, classes: Sequence[tuple[str, str]], fix: str | None) -> None:
    """Refuse a path no class of `kind` matches: the file would be silently not indexed.
    `fix` names the class that would read it, when `init` declares one."""
    for kind, pathspec in classes:
        if kind == draft.kind and Glob(pathspec.removeprefix(GLOB_MAGIC)).matches(draft.path):
            return
    article = "an" if draft.kind[0] in "aeiou" else "a"
    raise NotIndexed(
        f"no class of sources.yaml reads {draft.path} as {article} {draft.kind}; "
        + (fix or "declare one (see docs/generated/layer.md)")
        + " or pass --path to a place a class reads"
    )


def write(root: Path, draft: Draft) -> str:
    """Create the file; refuses an existing one and any symbolic link on the way."""
    try:
        safefs.write_file(root, draft.path, render(draft).encode("utf-8"))
    except FileExistsError:
        raise ScaffoldRefused(
            f"{draft.path} already exists; majordomus new never overwrites a file"
        ) from None
    except safefs.Unsafe as exc:
        raise ScaffoldRefused(f"cannot write {draft.path}: {exc.message}") from None
    except OSError as exc:
        raise ScaffoldRefused(f"cannot write {draft.path}: {exc.strerror or exc}") from None
    return draft.path
