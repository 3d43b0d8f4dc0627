"""The common shape of a layer file, read in a few C-level steps.

Nearly every file of a layer is markdown without front matter, or with a plain one: ASCII
`key: value` lines of admitted keys, each value a scalar or an inline list, nothing the
YAML subset would trim, the kind's own and, where it has one, a version it reads. For such
a file `Plan.read` answers the front matter steps of docs/layer.md (split, parse, kind,
allow-list, version) with string methods, one loop over the lines
(`majordomus.layer.yaml.parse_plain`) and set comparisons. It answers None for a file it
cannot prove to be that case, and the full steps of `majordomus.layer.reader` then read
it: they stay the only judge of everything else (every diagnostic, odd YAML, encodings,
limits). tests/layer/test_simple.py holds the two to the same answers.
"""

from __future__ import annotations

import re
from typing import Any

from majordomus.layer.allow_literals import INDEX
from majordomus.layer.frontmatter import LIMIT_BYTES
from majordomus.layer.kinds import KindSpec
from majordomus.layer.yaml import parse_plain

#: A key the YAML subset reads as a top-level key.
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
#: A front matter this long is left to `split`, which owns the size limit.
_LONGEST = LIMIT_BYTES // 4


class Plan:
    """How files of one markdown kind with an allow-list are read when they have the
    common shape: the kind's name, whether a file without front matter is read otherwise
    (refused, or as another kind), its version field and the non-negative integer versions
    it reads, and the top-level keys its allow-list admits as they are (`names`) and as
    lists of scalars (`lists`)."""

    __slots__ = ("lists", "name", "names", "otherwise", "supported", "version")

    def __init__(self, spec: KindSpec, names: frozenset[str], lists: frozenset[str]) -> None:
        self.name = spec.name
        self.otherwise = spec.front_matter == "required" or spec.without_front_matter is not None
        self.version = spec.version_field
        self.supported = frozenset(v for v in spec.supported if type(v) is int and v >= 0)
        self.names = names
        self.lists = lists

    def read(self, text: str) -> tuple[dict[str, Any], str] | None:
        """(metadata, body) of a file of the common shape, every check up to the identity
        passed; None for any other file.

        The closing fence is the first line from the opening one on that starts `---`: the
        first `split` would take, or else not a fence, and the file is left to `split`.
        The metadata is what `parse` makes of the front matter, its keys are admitted (for
        a listed key holding items, `key.<index>` for every index), and it declares this
        kind or none, so nothing the full steps would refuse or switch gets through.
        """
        if text[:4] != "---\n":
            if text[:3] == "---" or self.otherwise or self.version is not None:
                return None
            return {}, text
        end = text.find("\n---", 3) + 1
        after = end + 3
        if end < 5 or end > _LONGEST or (after < len(text) and text[after] != "\n"):
            return None
        parsed = parse_plain(text[4:end], self.names)
        if parsed is None:
            return None
        metadata, lists = parsed
        if metadata.get("kind", self.name) != self.name:
            return None
        for key in lists:
            if key not in self.lists:
                return None
        if self.version is not None:
            version = metadata.get(self.version)
            if type(version) is not int or version not in self.supported:
                return None
        return metadata, text[after + 1 :]


def plan_of(spec: KindSpec) -> Plan | None:
    """The plan for files of `spec`, None for a kind `Plan.read` never reads: not
    markdown, a collection, or without an allow-list."""
    if spec.format != "markdown" or spec.members is not None or spec.allow is None:
        return None
    names = frozenset(path for path in spec.allow.plain if _KEY.fullmatch(path))
    lists = frozenset(
        path.removesuffix(INDEX)
        for path in spec.allow.literals
        if path.endswith(INDEX) and path.removesuffix(INDEX) in names
    )
    return Plan(spec, names, lists)
