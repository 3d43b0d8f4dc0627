"""What a catalogue's `provider`, `vendor` and `model` references resolve against. Pure."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Self

from pydantic import Field, StrictInt

from majordomus.wire import OMIT, StrictInput

MODELS_FILE = "majordomus/advisors/data/models.yaml"
PROVIDERS_FILE = "majordomus/advisors/data/providers.yaml"


class Inference(StrEnum):
    """Where a vendor's models run."""

    REMOTE = "remote"
    LOCAL = "local"


class ModelStatus(StrEnum):
    AVAILABLE = "available"
    PREVIEW = "preview"
    DEPRECATED = "deprecated"
    RETIRED = "retired"


class Vendor(StrictInput):
    id: str
    title: str
    inference: Inference = Inference.REMOTE
    credential_env: Annotated[str | None, OMIT] = None


class ModelEntry(StrictInput):
    id: str
    vendor: str
    native_id: str
    aliases: list[str] = Field(default_factory=list)
    capabilities: list[str] = Field(default_factory=list)
    context_window: Annotated[StrictInt | None, Field(ge=0), OMIT] = None
    status: ModelStatus = ModelStatus.AVAILABLE
    note: Annotated[str | None, OMIT] = None


class VersionedTable(StrictInput):
    """A data file that must state its `version`; `default()` is the empty one (version 0)."""

    version: Annotated[StrictInt, Field(ge=0)]

    @classmethod
    def default(cls) -> Self:
        return cls(version=0)


class ModelCatalogue(VersionedTable):
    """The model table. A file must state its `version`; `ModelCatalogue.default()` is the
    empty table (version 0) that stands in when the file is unusable."""

    vendors: list[Vendor] = Field(default_factory=list)
    models: list[ModelEntry] = Field(default_factory=list)

    def vendor(self, vendor_id: str) -> Vendor | None:
        return next((v for v in self.vendors if v.id == vendor_id), None)

    def resolve(self, name: str) -> ModelEntry | None:
        """The first model whose id is `name` or whose aliases contain it."""
        return next((m for m in self.models if m.id == name or name in m.aliases), None)


class Provider(StrictInput):
    id: str
    title: str


class ProviderTable(VersionedTable):
    """The provider table; only the ids matter to the catalogue."""

    providers: list[Provider] = Field(default_factory=list)


class References(StrictInput):
    """Provider ids and the model catalogue, as read from `PROVIDERS_FILE` and `MODELS_FILE`."""

    providers: list[str] = Field(default_factory=list)
    models: ModelCatalogue = Field(default_factory=ModelCatalogue.default)
