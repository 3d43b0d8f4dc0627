"""The advisors' part of the reasoning situation, resolved once per request.

Reads only the catalogue and profile files, the request's environment snapshot and, to probe
an executable's presence, the PATH directories it names. The value of a credential variable is
never read into anything, logged or returned."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from majordomus import clock
from majordomus.advisors.availability import Inputs, derive_availability
from majordomus.advisors.loading import LoadedCatalogue, load_catalogue
from majordomus.advisors.modes import (
    ModeResolution,
    cooldown_override,
    disabled_list,
    mode_from_environment,
)
from majordomus.advisors.outcomes import Outcome
from majordomus.advisors.states import AdvisorState, count_available


@dataclass(frozen=True, slots=True)
class SystemPresence:
    """The real machine, through an environment snapshot taken once per request."""

    environ: Mapping[str, str]

    def executable(self, name: str) -> bool:
        """A regular file of that name with an execute bit in some PATH directory."""
        if not name or "/" in name:
            return False
        for directory in self.environ.get("PATH", "").split(os.pathsep):
            if not directory:
                continue
            try:
                mode = (Path(directory) / name).stat().st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode) and mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
                return True
        return False

    def variable(self, name: str) -> bool:
        """Set and non-empty; only the emptiness of the value is looked at."""
        return bool(self.environ.get(name))


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
) -> AdvisorSituation:
    """Resolve the advisors' situation; raises `CatalogueError` for an invalid catalogue."""
    loaded = load_catalogue(root)
    mode = mode_from_environment(environ, root)
    states = derive_availability(
        loaded.catalogue,
        Inputs(
            refs=loaded.references,
            presence=SystemPresence(environ),
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
