"""The kind schema: how each kind of file is read; a defect of the shipped data is fatal
(exit 13). Cached per process."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NotRequired

from pydantic import TypeAdapter, with_config
from typing_extensions import TypedDict

from majordomus.errors import ProtocolFailure
from majordomus.layer.allow import AllowList, AllowListError, available, load_allow_list
from majordomus.layer.typed import STRICT, parse_yaml, read
from majordomus.shipped import shipped_text

KINDS_SCHEMA = "majordomus-kinds/v1"
Format = Literal["markdown", "yaml", "text"]
FrontMatter = Literal["required", "optional", "none"]

MEDIA_TYPES: dict[str, str] = {
    "markdown": "text/markdown",
    "yaml": "application/yaml",
    "text": "text/plain",
}
MEMBER_MEDIA_TYPE = "application/json"


class KindSchemaError(ProtocolFailure):
    """The shipped kind schema is invalid (exit 13: a build defect, not the user's)."""


@with_config(STRICT)
class _SchemaVersion(TypedDict):
    field: str
    supported: list[int | str]


@with_config(STRICT)
class _KindEntry(TypedDict):
    format: Format
    members: NotRequired[str]
    front_matter: NotRequired[FrontMatter]
    without_front_matter: NotRequired[str]
    allow: NotRequired[str]
    identity: NotRequired[list[str]]
    title: NotRequired[str]
    description: NotRequired[str]
    schema_version: NotRequired[_SchemaVersion]


@with_config(STRICT)
class _KindsFile(TypedDict):
    schema: str
    kinds: dict[str, _KindEntry]
    declared: NotRequired[list[str]]


_KINDS_FILE = TypeAdapter(_KindsFile)


@dataclass(frozen=True, slots=True)
class KindSpec:
    """One kind's read rules; `supported` is empty when there is no version check."""

    name: str
    format: Format
    front_matter: FrontMatter
    without_front_matter: str | None
    allow: AllowList | None
    identity: tuple[str, ...]
    title: str | None
    description: str | None
    version_field: str | None
    supported: tuple[int | str, ...]
    members: str | None

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.format]


@dataclass(frozen=True, slots=True)
class KindSchema:
    """Every shipped kind by name, and the kinds a markdown file may declare for itself."""

    kinds: dict[str, KindSpec]
    declared: frozenset[str]


def _check(name: str, entry: Any, entries: dict[str, Any]) -> str | None:
    """The first load-time rule the entry breaks, or None."""
    kind_format, front_matter = entry["format"], entry.get("front_matter", "none")
    if kind_format != "markdown" and front_matter != "none":
        return f"kind '{name}': a {kind_format} kind cannot set front_matter '{front_matter}'"
    if "members" in entry and kind_format != "yaml":
        return f"kind '{name}': members is only meaningful for a yaml kind"
    fallback = entry.get("without_front_matter")
    if fallback is not None:
        if kind_format != "markdown":
            return f"kind '{name}': without_front_matter is only meaningful for a markdown kind"
        target = entries.get(fallback)
        if (
            target is None
            or target["format"] != "markdown"
            or target.get("front_matter") == "required"
        ):
            return (
                f"kind '{name}': without_front_matter '{fallback}' must name a markdown kind "
                "whose front matter is not required"
            )
    allow = entry.get("allow")
    if allow is not None and allow not in available():
        return f"kind '{name}': allow-list '{allow}' is not shipped"
    for value in entry.get("schema_version", {}).get("supported", ()):
        if isinstance(value, int) and value < 0:
            return f"kind '{name}': supported version {value} is negative"
    return None


def parse_kinds(text: str, source: str = "kinds.yaml") -> KindSchema:
    """Validate kind-schema text into a `KindSchema`; any defect raises `KindSchemaError`."""
    mapping = parse_yaml(text, source, KindSchemaError)
    raw = read(_KINDS_FILE, mapping, source, KindSchemaError)
    if raw["schema"] != KINDS_SCHEMA:
        raise KindSchemaError(f"{source}: schema is '{raw['schema']}', expected '{KINDS_SCHEMA}'")
    kinds: dict[str, KindSpec] = {}
    for name, entry in raw["kinds"].items():
        problem = _check(name, entry, raw["kinds"])
        if problem:
            raise KindSchemaError(f"{source}: {problem}")
        try:
            allow = load_allow_list(entry["allow"]) if entry.get("allow") else None
        except AllowListError as exc:
            raise KindSchemaError(f"{source}: kind '{name}': {exc.message}") from exc
        version = entry.get("schema_version")
        kinds[name] = KindSpec(
            name=name,
            format=entry["format"],
            front_matter=entry.get("front_matter", "none"),
            without_front_matter=entry.get("without_front_matter"),
            allow=allow,
            identity=tuple(entry.get("identity", ())),
            title=entry.get("title"),
            description=entry.get("description"),
            version_field=version["field"] if version else None,
            supported=tuple(version["supported"]) if version else (),
            members=entry.get("members"),
        )
    declared = raw.get("declared", [])
    for name in declared:
        spec = kinds.get(name)
        if spec is None or spec.format != "markdown":
            raise KindSchemaError(f"{source}: declared kind '{name}' is not a markdown kind")
    return KindSchema(kinds=kinds, declared=frozenset(declared))


@cache
def load_kinds() -> KindSchema:
    """The shipped kind schema, read once per process."""
    try:
        text = shipped_text("layer", "data", "kinds.yaml")
    except (OSError, UnicodeDecodeError) as exc:
        raise KindSchemaError(f"kinds.yaml cannot be read: {exc}") from exc
    return parse_kinds(text)
