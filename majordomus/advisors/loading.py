"""Finding and reading the advisor catalogue (`.ai/repo/advisors.yaml` or the packaged one).

The references are always the packaged ones; errors name the file used, never an absolute path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from majordomus.advisors.catalogue import AdvisorCatalogue
from majordomus.advisors.references import ModelCatalogue, ProviderTable, References
from majordomus.errors import describe_validation
from majordomus.layer.yaml import YamlError, parse_into
from majordomus.safefs import CONFIG_LIMIT, Tree, Unsafe
from majordomus.shipped import shipped_text

CATALOGUE_FILE = "advisors.yaml"
OVERRIDE_FILE = ".ai/repo/advisors.yaml"
PACKAGED_CATALOGUE = "majordomus/advisors/data/advisors.yaml"

M = TypeVar("M", bound=BaseModel)


class CatalogueError(Exception):
    """The catalogue file cannot be read or does not parse: `<file>: <reason>`."""

    def __init__(self, source: str, reason: str) -> None:
        self.message = f"{source}: {reason}"
        super().__init__(self.message)


@dataclass(frozen=True, slots=True)
class LoadedCatalogue:
    """The catalogue in force, what its references resolve against, and where it came from."""

    catalogue: AdvisorCatalogue
    references: References
    source: str

    def diagnostics(self) -> list[str]:
        return self.catalogue.diagnostics(self.references)


def load_catalogue(root: Path | None) -> LoadedCatalogue:
    """The repository override under `root` if present, else the packaged default."""
    text = _override(root) if root is not None else None
    source = PACKAGED_CATALOGUE if text is None else OVERRIDE_FILE
    catalogue = _parse(_packaged(CATALOGUE_FILE) if text is None else text, AdvisorCatalogue)
    if isinstance(catalogue, str):
        raise CatalogueError(source, catalogue)
    return LoadedCatalogue(catalogue=catalogue, references=load_references(), source=source)


def load_references() -> References:
    """The packaged model catalogue and provider ids; an unusable table reads as empty."""
    models = _parse(_packaged("models.yaml"), ModelCatalogue)
    providers = _parse(_packaged("providers.yaml"), ProviderTable)
    if isinstance(providers, str):
        providers = ProviderTable.default()
    return References(
        providers=[p.id for p in providers.providers],
        models=models if isinstance(models, ModelCatalogue) else ModelCatalogue.default(),
    )


def _packaged(name: str) -> str:
    """A shipped catalogue file."""
    return shipped_text("advisors", "data", name)


def _parse(text: str, model: type[M]) -> M | str:
    """The parsed model, or the one-line reason it could not be parsed."""
    try:
        return parse_into(text, model)
    except ValidationError as exc:
        return describe_validation(exc)
    except YamlError as exc:
        return str(exc)


def _override(root: Path) -> str | None:
    """The repository's catalogue text or None; safefs refuses a link, FIFO or device by name."""
    try:
        tree = Tree(root)
    except Unsafe:
        return None
    with tree:
        try:
            data = tree.read(OVERRIDE_FILE, CONFIG_LIMIT)
        except Unsafe as exc:
            if exc.code == "missing" or tree.kind(OVERRIDE_FILE) == "directory":
                return None
            raise CatalogueError(OVERRIDE_FILE, exc.about(OVERRIDE_FILE)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogueError(OVERRIDE_FILE, "the file is not UTF-8 text") from None
