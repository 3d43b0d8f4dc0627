"""Reading `.ai/manifest.yaml` into the typed `Manifest`, in the validation order of
docs/layer.md; never writes."""

from __future__ import annotations

from pathlib import Path
from typing import NotRequired

from pydantic import TypeAdapter, with_config
from typing_extensions import TypedDict

from majordomus.errors import ContractUnmet
from majordomus.layer.allow import load_allow_list
from majordomus.layer.model import Manifest
from majordomus.layer.root import MANIFEST, LayerIOError
from majordomus.layer.typed import STRICT, parse_yaml, read
from majordomus.layer.yaml import key_paths
from majordomus.paths import escapes
from majordomus.safefs import CONFIG_LIMIT, Unsafe, read_file

LAYER_SCHEMA = "ai-repository/v1"


class InvalidManifest(ContractUnmet):
    """The manifest fails the YAML subset, its allow-list, its schema or a typed read (exit 10)."""


@with_config(STRICT)
class _Repo(TypedDict):
    path: str


@with_config(STRICT)
class _Local(TypedDict):
    path: str
    tracked: bool
    implicit_context: bool


@with_config(STRICT)
class _Context(TypedDict):
    documents: NotRequired[list[str]]


@with_config(STRICT)
class _ManifestFile(TypedDict):
    schema: str
    repo: _Repo
    local: _Local
    sections: dict[str, str]
    context: NotRequired[_Context]


_MANIFEST_FILE = TypeAdapter(_ManifestFile)


def _layer_path(value: str) -> str | None:
    """`value` as a path inside `.ai/` without a trailing `/`; None when it would escape."""
    trimmed = value.rstrip("/")
    if not trimmed or escapes(trimmed):
        return None
    return trimmed


def read_text(root: Path, rel: str, error: type[ContractUnmet]) -> str:
    """The text of layer file `rel`, read safely under `CONFIG_LIMIT`; unreadable is an I/O error
    naming the file and the reason (never its content), bad UTF-8 a contract error."""
    path = root / rel
    try:
        data = read_file(root, rel, CONFIG_LIMIT)
    except Unsafe as exc:
        if exc.code == "missing" and exc.path == rel:
            raise LayerIOError(f"cannot read {path}: No such file or directory") from None
        raise LayerIOError(f"cannot read {path}: {exc.message}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not valid UTF-8 (byte offset {exc.start})") from exc


def parse_manifest(text: str, shown: str) -> Manifest:
    """Validate manifest text in the order of docs/layer.md; `shown` names the file."""
    mapping = parse_yaml(text, shown, InvalidManifest)
    unknown = load_allow_list("manifest").unknown(key_paths(mapping))
    if unknown:
        raise InvalidManifest(f"{shown}: unknown key(s): {', '.join(unknown)}")
    schema = mapping.get("schema", "")
    if schema != LAYER_SCHEMA:
        raise InvalidManifest(
            f"{shown}: layer schema {schema!r} is not supported; this executable reads "
            f"{LAYER_SCHEMA}"
        )
    raw = read(_MANIFEST_FILE, mapping, shown, InvalidManifest)
    local_path = raw["local"]["path"]
    local = _layer_path(local_path)
    if local is None:
        raise InvalidManifest(f"{shown}: local.path {local_path!r} is not a path inside .ai/")
    sections: dict[str, str] = {}
    for name, value in raw["sections"].items():
        inside = _layer_path(value)
        if inside is None:
            raise InvalidManifest(f"{shown}: sections.{name} {value!r} is not a path inside .ai/")
        sections[name] = inside
    if "knowledge" not in sections:
        raise InvalidManifest(
            f"{shown}: no 'knowledge' section; sources.yaml is read from "
            ".ai/<sections.knowledge>/sources.yaml"
        )
    return Manifest(schema=raw["schema"], local_path=local, sections=sections)


def read_manifest(root: Path) -> Manifest:
    """The typed manifest of the layer at `root` (fatal errors)."""
    return parse_manifest(read_text(root, MANIFEST, InvalidManifest), str(root / MANIFEST))
