"""The YAML subset every `.ai/` file is read with; deliberately not general YAML
(docs/layer-internals.md). Pure."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

from majordomus.limits import MAX_YAML_DEPTH

if TYPE_CHECKING:
    from pydantic import BaseModel

    M = TypeVar("M", bound=BaseModel)

# What the original trims: Unicode White_Space. Python's own `str.strip()` would also eat
# \x1c–\x1f, which the original keeps.
_WS = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)
_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t](.*))?", re.DOTALL)
_I64_MIN = -(2**63)
_I64_MAX = 2**63 - 1
_INTEGER_LEAD = frozenset("-0123456789")
_REFUSED_LEAD = frozenset("&*|>")
_QUOTES = frozenset("\"'")


class YamlError(ValueError):
    """A document outside the subset; `message` is the one-line text docs/layer.md lists, `code`
    the diagnostic when it is not the reader's generic one."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _scalar(s: str) -> Any:
    """Type one trimmed scalar text: quoted → verbatim string, else cut, then type."""
    if len(s) >= 2 and s[0] == s[-1] and s[0] in _QUOTES:
        return s[1:-1]
    cut = s.find(" #")
    if cut >= 0:
        s = s[:cut].strip(_WS)
    if s == "true":
        return True
    if s == "false":
        return False
    if s and s[0] in _INTEGER_LEAD:
        digits = s[1:] if s[0] == "-" else s
        if digits.isascii() and digits.isdigit():  # `-?[0-9]+`, without compiling a pattern
            number = int(s)
            if _I64_MIN <= number <= _I64_MAX:
                return number
    return s


def _emit(out: list[tuple[str, Any]], path: str, value: str, line: int) -> None:
    """Leaf (or inline-list leaves) for one value text; refuses anchors and block scalars."""
    value = value.strip(_WS)
    if not value:
        out.append((path, ""))
        return
    lead = value[0]
    if lead in _REFUSED_LEAD:
        raise YamlError(f"unsupported YAML construct on line {line}: {value}")
    if lead == "[" and value[-1] == "]":
        inner = value[1:-1].strip(_WS)
        items = [_scalar(part.strip(_WS)) for part in inner.split(",")] if inner else []
        if not items:
            out.append((path, []))
        for index, item in enumerate(items):
            out.append((f"{path}.{index}", item))
        return
    out.append((path, _scalar(value)))


def _put(stack: list[str | None], depth: int, path: str) -> None:
    """`stack[depth] = path`, padding skipped depths with None (absent)."""
    stack.extend([None] * (depth + 1 - len(stack)))  # a count below one adds nothing
    stack[depth] = path


def _opens(out: list[tuple[str, Any]], path: str, raw: str | None, number: int) -> bool:
    """Whether `path: raw` opens a block (refused at `MAX_YAML_DEPTH`); else emits its leaves."""
    value = (raw or "").lstrip(" ")
    if value:
        _emit(out, path, value, number)
        return False
    if path.count(".") >= MAX_YAML_DEPTH:  # refused before anything recurses
        message = f"nested more than {MAX_YAML_DEPTH} levels deep on line {number}"
        raise YamlError(message, "too_deep")
    return True


class _Leaves:
    """The leaves of one document so far; `ctx[d]` / `pend[d]` hold the open context and the
    pending key at depth d (indent / 2), `count` each list's next index."""

    def __init__(self) -> None:
        self.out: list[tuple[str, Any]] = []
        self.ctx: list[str | None] = [""]
        self.pend: list[str | None] = []
        self.count: dict[str, int] = {}

    def list_item(self, t: str, depth: int, number: int) -> None:
        """A `- item` line: the next index of the pending key at `depth`, a scalar or a mapping."""
        ctx, pend = self.ctx, self.pend
        parent = pend[depth] if depth < len(pend) else None
        if parent is None:
            raise YamlError(f"list item without a parent key on line {number}")
        index = self.count.get(parent, 0)
        self.count[parent] = index + 1
        item_path = f"{parent}.{index}"
        item = t[2:].strip(_WS)
        match = _KEY_LINE.fullmatch(item)
        if match is None:
            _emit(self.out, item_path, item, number)
            return
        del ctx[depth + 2 :]
        _put(ctx, depth + 1, item_path)
        path = f"{item_path}.{match[1]}"
        if _opens(self.out, path, match[2], number):
            _put(pend, depth + 1, path)
            _put(pend, depth + 2, path)
            ctx.append(path)

    def key_line(self, t: str, depth: int, number: int) -> None:
        """A `key:` or `key: value` line under the open context at `depth`."""
        ctx, pend = self.ctx, self.pend
        match = _KEY_LINE.fullmatch(t)
        if match is None:
            raise YamlError(f"cannot parse line {number}: {t}")
        base = ctx[depth] if depth < len(ctx) else None
        if base is None:
            raise YamlError(f"unexpected indentation on line {number}")
        del ctx[depth + 1 :]
        del pend[depth:]
        path = f"{base}.{match[1]}" if base else match[1]
        if _opens(self.out, path, match[2], number):
            _put(pend, depth, path)
            pend.append(path)
            ctx.append(path)


def leaves(text: str) -> list[tuple[str, Any]]:
    """The flattened leaves (dotted path, scalar or empty list) of `text`, in document order."""
    found = _Leaves()
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    for number, line in enumerate(lines, 1):
        if "\t" in line:
            raise YamlError(f"tab character on line {number}")
        t = line.lstrip(" ")
        if not t or t[0] == "#" or (t.startswith("---") and t.rstrip(_WS) == "---"):
            continue
        indent = len(line) - len(t)
        if indent & 1:
            raise YamlError(f"odd indentation on line {number}")
        if t[0] == "-" and t[1:2] == " ":
            found.list_item(t, indent >> 1, number)
        else:
            found.key_line(t, indent >> 1, number)
    return found.out


def _slot(node: Any, segment: str, path: str) -> tuple[int | str, Any]:
    """Where `segment` sits in `node` (a list is padded with None to hold it) and what is there."""
    if segment[0].isdigit():
        if type(node) is not list:
            raise YamlError(f"'{path}' mixes a list with a mapping")
        index = int(segment)
        node.extend([None] * (index + 1 - len(node)))
        return index, node[index]
    if type(node) is not dict:
        raise YamlError(f"'{path}' mixes a mapping with a scalar or list")
    return segment, node.get(segment)


def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Rebuild the insertion-ordered mapping from leaves; gaps in lists are None."""
    root: dict[str, Any] = {}
    for path, value in pairs:
        segments = path.split(".")
        node: Any = root
        for at, segment in enumerate(segments[:-1]):
            place, child = _slot(node, segment, path)
            if child is None:
                child = node[place] = [] if segments[at + 1][0].isdigit() else {}
            node = child
        place, old = _slot(node, segments[-1], path)
        if old is not None:  # no leaf is None: a gap is the only None
            raise YamlError(f"'{path}' is given twice")
        node[place] = value
    return root


def parse(text: str) -> dict[str, Any]:
    """The mapping `text` describes; scalars are str, int or bool; raises `YamlError`."""
    return build(leaves(text))


def key_paths(mapping: dict[Any, Any], prefix: str = "") -> list[str]:
    """Flattened key paths for allow-lists, depth-first in key order (a list's keys: 0, 1, …)."""
    out: list[str] = []
    for key, child in mapping.items():
        if type(child) is list and child:
            child = dict(enumerate(child))
        if type(child) is dict and child:
            out += key_paths(child, f"{prefix}{key}.")
        else:
            out.append(f"{prefix}{key}")
    return out


def render_scalar(value: Any) -> str | None:
    """A scalar as text for identities and titles: `1`, `true`, strings as they are."""
    if type(value) is str:
        return value
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    return None


def parse_into(text: str, model: type[M]) -> M:
    """Parse, then validate into `model`; pydantic's ValidationError propagates unchanged."""
    return model.model_validate(parse(text))
