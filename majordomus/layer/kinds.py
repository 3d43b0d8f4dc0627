"""The kind schema: how each kind of file is read (layer §1.4, §4, §12.4–12.5).

Owns loading and validating the shipped `data/kinds.yaml` into `KindSpec` records the reader
consults per file. Every failure here is a defect of the shipped data, hence fatal with
exit 13. Pure apart from reading package data; the result is cached per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field, StrictInt, StrictStr, ValidationError

from majordomus.errors import ProtocolFailure, describe_validation
from majordomus.layer.allow import AllowList, AllowListError, available, load_allow_list
from majordomus.layer.yaml import YamlError, parse
from majordomus.wire import StrictInput

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


class _SchemaVersion(StrictInput):
    field: StrictStr
    supported: list[StrictInt | StrictStr]


class _KindEntry(StrictInput):
    format: Format
    members: StrictStr | None = None
    front_matter: FrontMatter = "none"
    without_front_matter: StrictStr | None = None
    allow: StrictStr | None = None
    identity: list[StrictStr] = Field(default_factory=list)
    title: StrictStr | None = None
    description: StrictStr | None = None
    schema_version: _SchemaVersion | None = None


class _KindsFile(StrictInput):
    schema_: StrictStr = Field(alias="schema")
    declared: list[StrictStr] = Field(default_factory=list)
    kinds: dict[str, _KindEntry]


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

    def get(self, name: str) -> KindSpec | None:
        return self.kinds.get(name)


def _check(name: str, entry: _KindEntry, entries: dict[str, _KindEntry]) -> str | None:
    """The first load-time rule (layer §4) the entry breaks, or None."""
    if entry.format != "markdown" and entry.front_matter != "none":
        return (
            f"kind '{name}': a {entry.format} kind cannot set front_matter '{entry.front_matter}'"
        )
    if entry.members is not None and entry.format != "yaml":
        return f"kind '{name}': members is only meaningful for a yaml kind"
    fallback = entry.without_front_matter
    if fallback is not None:
        if entry.format != "markdown":
            return f"kind '{name}': without_front_matter is only meaningful for a markdown kind"
        target = entries.get(fallback)
        if target is None or target.format != "markdown" or target.front_matter == "required":
            return (
                f"kind '{name}': without_front_matter '{fallback}' must name a markdown kind "
                "whose front matter is not required"
            )
    if entry.allow is not None and entry.allow not in available():
        return f"kind '{name}': allow-list '{entry.allow}' is not shipped"
    if entry.schema_version is not None:
        for value in entry.schema_version.supported:
            if isinstance(value, int) and value < 0:
                return f"kind '{name}': supported version {value} is negative"
    return None


def parse_kinds(text: str, source: str = "kinds.yaml") -> KindSchema:
    """Validate kind-schema text into a `KindSchema`; any defect raises `KindSchemaError`."""
    try:
        raw = _KindsFile.model_validate(parse(text))
    except YamlError as exc:
        raise KindSchemaError(f"{source}: {exc}") from exc
    except ValidationError as exc:
        raise KindSchemaError(f"{source}: {describe_validation(exc)}") from exc
    if raw.schema_ != KINDS_SCHEMA:
        raise KindSchemaError(f"{source}: schema is '{raw.schema_}', expected '{KINDS_SCHEMA}'")
    kinds: dict[str, KindSpec] = {}
    for name, entry in raw.kinds.items():
        problem = _check(name, entry, raw.kinds)
        if problem:
            raise KindSchemaError(f"{source}: {problem}")
        try:
            allow = load_allow_list(entry.allow) if entry.allow else None
        except AllowListError as exc:
            raise KindSchemaError(f"{source}: kind '{name}': {exc.message}") from exc
        version = entry.schema_version
        kinds[name] = KindSpec(
            name=name,
            format=entry.format,
            front_matter=entry.front_matter,
            without_front_matter=entry.without_front_matter,
            allow=allow,
            identity=tuple(entry.identity),
            title=entry.title,
            description=entry.description,
            version_field=version.field if version else None,
            supported=tuple(version.supported) if version else (),
            members=entry.members,
        )
    for name in raw.declared:
        spec = kinds.get(name)
        if spec is None or spec.format != "markdown":
            raise KindSchemaError(f"{source}: declared kind '{name}' is not a markdown kind")
    return KindSchema(kinds=kinds, declared=frozenset(raw.declared))


@cache
def load_kinds() -> KindSchema:
    """The shipped kind schema, read once per process."""
    source = resources.files("majordomus.layer") / "data" / "kinds.yaml"
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KindSchemaError(f"kinds.yaml cannot be read: {exc}") from exc
    return parse_kinds(text)
