"""The advisors' part of the reasoning situation, resolved once per request.

Reads only the catalogue and profile files, and the request's environment snapshot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from majordomus import clock
from majordomus.advisors.availability import Inputs, derive_availability
from majordomus.advisors.environment import cooldown_override, disabled_list, mode_from_environment
from majordomus.advisors.loading import LoadedCatalogue, load_catalogue
from majordomus.advisors.modes import ModeResolution
from majordomus.advisors.outcomes import Outcome
from majordomus.advisors.presence import Presence, SystemPresence
from majordomus.advisors.states import AdvisorState, count_available


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvisorSituation:
    """What every reasoning surface needs to know about advisors for one request."""

    loaded: LoadedCatalogue
    mode: ModeResolution
    states: list[AdvisorState]
    diagnostics: list[str]

    def available(self) -> int:
        """States with status `available`; zero is an ordinary answer."""
        return count_available(self.states)

    def unavailable(self) -> int:
        return len(self.states) - self.available()


def resolve_advisors(
    root: Path | None,
    environ: Mapping[str, str],
    history: Sequence[Outcome] = (),
    now: int | None = None,
    presence: Presence | None = None,
) -> AdvisorSituation:
    """Resolve the advisors' situation; raises `CatalogueError` for an invalid catalogue."""
    loaded = load_catalogue(root)
    mode = mode_from_environment(environ, root)
    states = derive_availability(
        loaded.catalogue,
        Inputs(
            refs=loaded.references,
            presence=presence if presence is not None else SystemPresence(environ),
            mode=mode.mode,
            disabled=disabled_list(environ),
            history=history,
            now=clock.now_epoch() if now is None else now,
            cooldown=cooldown_override(environ),
        ),
    )
    return AdvisorSituation(
        loaded=loaded, mode=mode, states=states, diagnostics=loaded.diagnostics()
    )
