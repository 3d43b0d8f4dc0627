"""Reading `.ai/<knowledge>/sources.yaml` into `SourceClass` records; every violation is
fatal (exit 10), kinds are checked per file (`unknown_kind`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import TypeAdapter, with_config
from typing_extensions import TypedDict

from majordomus.errors import ContractUnmet
from majordomus.layer.manifest import read_text
from majordomus.layer.model import Manifest, SourceClass
from majordomus.layer.typed import STRICT, parse_yaml, read

GLOB_MAGIC = ":(glob)"


class InvalidSources(ContractUnmet):
    """`sources.yaml` breaks a rule of docs/layer.md (exit 10)."""


@with_config(STRICT)
class _Class(TypedDict):
    id: str
    kind: str
    discovery: Literal["vcs"]
    pathspec: str
    required: bool


@with_config(STRICT)
class _SourcesFile(TypedDict):
    version: int
    sources: list[_Class]


_SOURCES_FILE = TypeAdapter(_SourcesFile)


def sources_path(root: Path, manifest: Manifest) -> Path:
    """Where the source classes live: `<root>/.ai/<sections.knowledge>/sources.yaml`."""
    return root / ".ai" / manifest.sections["knowledge"] / "sources.yaml"


def parse_sources(text: str, shown: str) -> list[SourceClass]:
    """Validate sources text; `shown` names the file in messages."""
    mapping = parse_yaml(text, shown, InvalidSources)
    raw = read(_SOURCES_FILE, mapping, shown, InvalidSources)
    if raw["version"] != 1:
        raise InvalidSources(f"{shown}: version is {raw['version']}; only version 1 is read")
    seen: set[str] = set()
    classes: list[SourceClass] = []
    for item in raw["sources"]:
        if item["id"] in seen:
            raise InvalidSources(f"{shown}: class id '{item['id']}' is declared twice")
        seen.add(item["id"])
        if not item["pathspec"].startswith(GLOB_MAGIC):
            raise InvalidSources(
                f"{shown}: class '{item['id']}': pathspec '{item['pathspec']}' does not start "
                f"with {GLOB_MAGIC}"
            )
        classes.append(SourceClass(**item))
    return classes


def read_sources(root: Path, manifest: Manifest) -> list[SourceClass]:
    """The declared source classes of the layer at `root`, in declared order."""
    path = sources_path(root, manifest)
    return parse_sources(
        read_text(root, path.relative_to(root).as_posix(), InvalidSources), str(path)
    )
