"""The advisor catalogue: its strict models and its diagnostics (reported, never repaired).

Pure: parses nothing from disk (`loading`), probes nothing (`availability`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from pydantic import Field

from majordomus.advisors.references import MODELS_FILE, PROVIDERS_FILE, References, VersionedTable
from majordomus.advisors.transports import AdvisorTransport
from majordomus.order import canonical_strings
from majordomus.wire import OMIT, StrictInput

__all__ = [
    "AdvisorCatalogue",
    "AdvisorDeclaration",
    "AdvisorTransport",
    "References",
    "credential_of",
]


class AdvisoryCapability(StrictInput):
    """One word of the capability vocabulary."""

    id: str
    description: str


class AdvisorDeclaration(StrictInput):
    """One advisor as the catalogue declares it; how it is reached and what it offers."""

    id: str
    title: str
    transport: AdvisorTransport
    adapter: str
    provider: Annotated[str | None, OMIT] = None
    vendor: Annotated[str | None, OMIT] = None
    model: Annotated[str | None, OMIT] = None
    executable: Annotated[str | None, OMIT] = None
    capabilities: list[str] = Field(default_factory=list)
    note: Annotated[str | None, OMIT] = None


class PeerAdvisors(StrictInput):
    """How linked mesh runtimes carrying `feature` become advisors."""

    feature: str
    adapter: str
    capabilities: list[str] = Field(default_factory=list)


class AdvisorCatalogue(VersionedTable):
    """The whole catalogue. A file must state its `version`; `AdvisorCatalogue.default()`
    is the empty catalogue (version 0, no entries)."""

    capabilities: list[AdvisoryCapability] = Field(default_factory=list)
    advisors: list[AdvisorDeclaration] = Field(default_factory=list)
    peers: Annotated[PeerAdvisors | None, OMIT] = None
    forbidden_claims: list[str] = Field(default_factory=list)

    def get(self, advisor_id: str) -> AdvisorDeclaration | None:
        """The first declared advisor with that id; `peer:…` ids are never declared."""
        return next((a for a in self.advisors if a.id == advisor_id), None)

    def knows_capability(self, word: str) -> bool:
        return any(c.id == word for c in self.capabilities)

    def names(self) -> list[str]:
        """Every id, adapter, executable, provider, vendor and model named, canonical, once."""
        found: set[str] = set()
        for a in self.advisors:
            found.update(
                n
                for n in (a.id, a.adapter, a.executable, a.provider, a.vendor, a.model)
                if n is not None
            )
        if self.peers is not None:
            found.add(self.peers.adapter)
        return canonical_strings(found)

    def diagnostics(self, refs: References) -> list[str]:
        """Every catalogue finding, in order: per advisor checks (a)–(g), then the peers block."""
        out: list[str] = []
        seen: set[str] = set()
        for a in self.advisors:
            out.extend(_advisor_findings(self, a, refs, a.id in seen))
            seen.add(a.id)
        if self.peers is not None:
            out.extend(
                f"peer advisors offer '{word}', which the vocabulary does not declare"
                for word in self.peers.capabilities
                if not self.knows_capability(word)
            )
        return out


def credential_of(advisor: AdvisorDeclaration, refs: References) -> str | None:
    """The name of the variable holding the advisor's vendor credential, if declared."""
    if advisor.vendor is None:
        return None
    vendor = refs.models.vendor(advisor.vendor)
    return vendor.credential_env if vendor is not None else None


def _advisor_findings(
    catalogue: AdvisorCatalogue, a: AdvisorDeclaration, refs: References, repeated: bool
) -> Iterator[str]:
    who = f"advisor '{a.id}'"
    if repeated:
        yield f"{who} is declared twice"
    if not a.capabilities:
        yield f"{who} offers no capability"
    yield from (
        f"{who} offers '{word}', which the vocabulary does not declare"
        for word in a.capabilities
        if not catalogue.knows_capability(word)
    )
    yield from _reference_findings(who, a, refs)
    # whether its transport leaves something to probe its presence by
    if a.transport is AdvisorTransport.API and credential_of(a, refs) is None:
        yield (
            f"{who} is an API advisor whose vendor declares no credential variable, "
            "so its presence cannot be probed"
        )
    elif a.transport in (AdvisorTransport.CLI, AdvisorTransport.LOCAL_RUNTIME) and (
        a.executable is None
    ):
        yield f"{who} declares no executable, so its presence cannot be probed"
    elif a.transport is AdvisorTransport.PEER:
        yield (
            f"{who} is declared with transport peer; peers are discovered from the mesh, "
            "never listed"
        )


def _reference_findings(who: str, a: AdvisorDeclaration, refs: References) -> Iterator[str]:
    """Checks of the provider, vendor and model the advisor names against the references."""
    if a.provider is not None and a.provider not in refs.providers:
        yield f"{who} names provider '{a.provider}', which {PROVIDERS_FILE} does not declare"
    if a.vendor is not None and refs.models.vendor(a.vendor) is None:
        yield f"{who} names vendor '{a.vendor}', which {MODELS_FILE} does not declare"
    if a.model is not None:
        entry = refs.models.resolve(a.model)
        if entry is None:
            yield f"{who} names model '{a.model}', which {MODELS_FILE} does not declare"
        elif a.vendor is not None and a.vendor != entry.vendor:
            yield (
                f"{who} names model '{a.model}' of vendor '{entry.vendor}', not of its own vendor"
            )
