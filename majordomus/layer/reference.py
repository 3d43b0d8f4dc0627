"""The layer reference: a Markdown page and a JSON Schema per kind, from the shipped data
(docs/layer-internals.md). Pure and deterministic."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from majordomus.errors import NotFound
from majordomus.layer.allow import AllowList
from majordomus.layer.kinds import KindSpec, load_kinds
from majordomus.layer.relations import RULES_OF, TRACKS
from majordomus.shipped import shipped, shipped_text
from majordomus.version import __version__

#: The words every generated file begins with.
GENERATED = "GENERATED FILE — DO NOT EDIT DIRECTLY"
PAGE = "layer.md"
SCHEMA_DIR = "schemas"
_BASE_TYPES = {"string", "integer", "boolean", "date", "timestamp", "list", "mappings"}


@cache
def glossary() -> dict[str, Any]:
    """The shipped data the page and the schemas join to the allow-lists, read once: from
    `data/glossary.json`, key → [value, meaning] under `common` (overridden per kind under
    `keys`) and where each kind's files live under `places`; from `data/examples/`, one valid
    file per kind under `examples`."""
    found = json.loads(shipped_text("layer", "data", "glossary.json"))
    found["examples"] = {
        path.stem: shipped_text("layer", "data", "examples", path.name)
        for path in shipped("layer", "data", "examples").iterdir()
    }
    return found


# -- the key paths an allow-list admits, spelled for people: `tags[]`, `evidence[].covers` ----

_LIST_SUFFIX = r"(\.[0-9]+)?"
_INDEX = r"\.[0-9]+"
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_GROUP = re.compile(r"\(([^()?]+)\)")


@dataclass(frozen=True, slots=True)
class Key:
    """One admitted key: its dotted path with `[]` for list items, and whether the key holds
    a list of scalars (`tags[]`)."""

    path: str
    is_list: bool

    @property
    def display(self) -> str:
        return self.path + "[]" if self.is_list else self.path


def _expand(pattern: str) -> list[Key]:
    body = pattern.removeprefix("^").removesuffix("$")
    is_list = body.endswith(_LIST_SUFFIX)
    body = body.removesuffix(_LIST_SUFFIX)
    body = body.replace(_INDEX, "[]").replace(_NAME, "<name>").replace("\\.", ".")
    groups = _GROUP.findall(body)
    template = _GROUP.sub("{}", body)
    if any(ch in template for ch in "()|\\?*+^$") or "[" in template.replace("[]", ""):
        raise ValueError(f"allow-list pattern {pattern!r} has a shape the reference cannot read")
    return [
        Key(template.format(*choice).replace(".[]", "[]"), is_list)
        for choice in product(*(group.split("|") for group in groups))
    ]


def admitted_keys(allow: AllowList) -> list[Key]:
    """Every key the list admits, in list order; a key that is both a scalar list and the
    parent of mapping items (`evidence[]`, `evidence[].covers`) is kept once, as a list."""
    seen: dict[str, Key] = {}
    for pattern in allow.patterns:
        for key in _expand(pattern):
            seen.setdefault(key.path, key)
    return list(seen.values())


class UnknownKind(NotFound):
    """No shipped kind has that name (exit 12)."""


_BANNER = (
    f"{GENERATED}. Generated from the shipped kinds and allow-lists by "
    f"`majordomus generate docs` (majordomus-cli {__version__})."
)


def described_keys(spec: KindSpec) -> list[tuple[Key, str, str]]:
    """(key, value, meaning) for every key the kind's allow-list admits, in list order."""
    if spec.allow is None:
        return []
    own = glossary()["keys"].get(spec.name, {})
    common = glossary()["common"]
    out = []
    for key in admitted_keys(spec.allow):
        value, meaning = own.get(key.path) or common.get(key.path) or ("", "")
        if key.path == spec.version_field and spec.supported and key.path not in own:
            value = "|".join(str(v) for v in spec.supported)
        out.append((key, value, meaning))
    return out


_SCALAR = ["string", "integer", "boolean"]
_VALUE_SCHEMAS: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "date": {"type": "string", "format": "date"},
    "timestamp": {"type": "string", "format": "date-time"},
    "list": {"anyOf": [{"type": _SCALAR}, {"type": "array", "items": {"type": _SCALAR}}]},
}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _place(tree: dict[str, Any], parts: list[str], leaf: dict[str, Any]) -> None:
    """Put `leaf` at `parts` in a nested object schema (`[]`: array items, `<name>`: any member)."""
    head, rest = parts[0], parts[1:]
    if not rest:
        if head == "<name>":
            tree["additionalProperties"] = leaf
        else:
            tree["properties"].setdefault(head, leaf)
        return
    if head == "<name>":
        child = tree.get("additionalProperties")
        if not isinstance(child, dict):
            child = tree["additionalProperties"] = _object({})
    else:
        child = tree["properties"].setdefault(head, _object({}))
    if rest[0] == "[]":
        if child.get("type") != "array":
            child.clear()
            child.update({"type": "array", "items": _object({})})
        _place(child["items"], rest[1:], leaf)
        return
    _place(child, rest, leaf)


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a kind's metadata (front matter, or the whole YAML file)."""
    spec = load_kinds().kinds.get(kind)
    if spec is None or spec.allow is None:
        named = ", ".join(schema_kinds())
        raise UnknownKind(f"no shipped kind '{kind}' has a schema; one of: {named}")
    root = _object({})
    for key, value, meaning in described_keys(spec):
        if value != "mappings":
            enum = {"enum": [int(w) if w.isdigit() else w for w in value.split("|")]}
            parts = key.path.replace("[].", ".[].").split(".")  # `[]`: a list of mappings
            _place(root, parts, {"description": meaning, **_VALUE_SCHEMAS.get(value, enum)})
    required = [f for f in spec.identity if spec.members is None]
    if spec.version_field and spec.version_field not in required:
        required.append(spec.version_field)
    part = "front matter" if spec.format == "markdown" else "file"
    return {
        "x-generated": _BANNER,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"majordomus {kind}",
        "description": f"The {part} of a `{kind}` object of the .ai layer; see "
        f"docs/generated/layer.md#{kind}.",
        **root,
        **({"required": required} if required else {}),
    }


def schema_kinds() -> list[str]:
    """The kinds with metadata a schema describes, by name."""
    return sorted(name for name, spec in load_kinds().kinds.items() if spec.allow is not None)


def _identity(spec: KindSpec) -> str:
    if not spec.identity:
        return f"the file's path (`majordomus://{spec.name}/<path>`)"
    fields = " `@` ".join(f"`{f}`" for f in spec.identity)
    return f"{fields} (`majordomus://{spec.name}/<{'@'.join(spec.identity)}>`)"


def _edges(spec: KindSpec, follows: Mapping[str, str]) -> list[str]:
    rules = RULES_OF.get(spec.name, (TRACKS,))
    admitted = {k.path for k in admitted_keys(spec.allow)} if spec.allow is not None else set()
    lines = []
    for rule in rules:
        if rule.field not in admitted:
            continue
        why = follows.get(rule.edge)
        walk = "devcontext does not" if why is None else f"devcontext follows it ({why})"
        lines.append(f"| `{rule.field}` | `{rule.edge}` | {rule.reaches} | {walk} |")
    return lines


def _kind_section(spec: KindSpec, follows: Mapping[str, str]) -> list[str]:
    out = [f"## {spec.name}", ""]
    if spec.allow is not None and spec.allow.name != spec.name:
        out += [f'<a id="{spec.allow.name}"></a>', ""]
    front = "" if spec.front_matter == "none" else f"front matter {spec.front_matter}"
    fallback = (
        f"; without front matter the file is read as a `{spec.without_front_matter}`"
        if spec.without_front_matter
        else ""
    )
    version = (
        f"`{spec.version_field}` must be " + " or ".join(f"`{v}`" for v in spec.supported)
        if spec.version_field
        else "none"
    )
    title = (
        "the first `# ` heading"
        if spec.title == "@heading"
        else (f"`{spec.title}`" if spec.title else "none")
    )
    place = glossary()["places"].get(spec.name, "—")
    out += [
        "| | |",
        "|---|---|",
        f"| files | `{place}` (what `sources.yaml` declares decides) |",
        f"| format | {spec.format}{', ' + front if front else ''}{fallback} |",
        f"| identity | {_identity(spec)} |",
        f"| title | {title} |",
        f"| description | {f'`{spec.description}`' if spec.description else 'none'} |",
        f"| version check | {version} |",
    ]
    if spec.members:
        out.append(f"| objects | one per item of `{spec.members}` |")
    if spec.allow is not None:
        out.append(
            f"| JSON Schema | `schemas/{spec.name}.json` (`majordomus schema {spec.name}`) |"
        )
    out.append("")
    keys = described_keys(spec)
    if keys:
        out += ["| key | value | meaning |", "|---|---|---|"]
        for key, value, meaning in keys:
            shown = (
                value if value in _BASE_TYPES else " \\| ".join(f"`{w}`" for w in value.split("|"))
            )
            out.append(f"| `{key.display}` | {shown} | {meaning} |")
        out.append("")
    elif spec.allow is None and spec.format == "text":
        out += ["No metadata: the file's text is the object.", ""]
    edges = _edges(spec, follows)
    if edges:
        out += [
            "| key | edge | names | context compiler |",
            "|---|---|---|---|",
            *edges,
            "",
        ]
    example = glossary()["examples"].get(spec.name)
    if example:
        lang = "yaml" if spec.format == "yaml" else "markdown"
        out += ["Example:", "", f"```{lang}", example.rstrip("\n"), "```", ""]
    return out


_INTRO = """# The `.ai/` layer reference

What each kind of file in the layer holds, generated from the kinds and allow-lists shipped
with this version, so it is exactly what the reader accepts. A file is read only when a class
of `.ai/repo/knowledge/sources.yaml` declares it (pathspec → kind); a manifest section no class
reaches is reported as `section_not_indexed`. A key not listed for its kind excludes the whole
file with `unknown_key`. Check a layer with `majordomus lint`; start a file with
`majordomus new KIND` (the one command that writes into the layer, and only new files).

## How objects link

References in metadata become edges of the graph the context compiler
(`majordomus devcontext compile`) walks from a seed such as `--issue I0102`:

* an issue belongs to its `milestone` and depends on the issues in `depends_on`;
* an issue or a milestone names the rules, decisions and knowledge it is governed by in
  `related`, as typed references: `related: [rule:project.no-secrets, adr:adr-0042,
  knowledge:yaml-subset]` (`majordomus new issue --rule … --adr … --knowledge …` writes them);
* a decision puts rules, claims, files and tests in force through its own `related`;
* `scope` paths of an issue or milestone bring in the files under them.

A reference to nothing is an `unresolved_reference` warning; one to a file that is excluded
names that file's error. `-` as a reference means "deliberately none".

Editors: each kind's JSON Schema lies in `schemas/<kind>.json` beside this page; for YAML
files, point the YAML language server at it, e.g. a first line
`# yaml-language-server: $schema=<path>/schemas/issue.json`.
"""


def render_schema(kind: str) -> str:
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


def layer_reference_files(follows: Mapping[str, str]) -> dict[str, str]:
    """Path under the generated-docs directory → its text; `follows` maps each edge kind the
    context compiler follows to why."""
    kinds = load_kinds().kinds
    lines = [f"<!-- {_BANNER} -->", "", _INTRO.rstrip("\n"), "", "## Kinds", ""]
    lines += [f"* [{name}](#{name})" for name in sorted(kinds)]
    lines.append("")
    for name in sorted(kinds):
        lines += _kind_section(kinds[name], follows)
    files = {PAGE: "\n".join(lines).rstrip("\n") + "\n"}
    for kind in schema_kinds():
        files[f"{SCHEMA_DIR}/{kind}.json"] = render_schema(kind)
    return files
