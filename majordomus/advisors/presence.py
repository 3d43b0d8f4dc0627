"""Presence probes: is an advisor installed or configured on this machine?

The value of a credential variable is never read into anything, logged or returned."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from majordomus.advisors.catalogue import AdvisorDeclaration, AdvisorTransport
from majordomus.advisors.states import AdvisorStatus

PEER_PROBE = "peers are discovered, not declared"


class Presence(Protocol):
    """The two questions a probe may ask of the machine."""

    def executable(self, name: str) -> bool: ...

    def variable(self, name: str) -> bool: ...


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


@dataclass(frozen=True, slots=True)
class Probe:
    """What was probed, whether it was found, and what its absence means."""

    text: str
    present: bool
    absent_status: AdvisorStatus
    absent_reason: str


def probe(advisor: AdvisorDeclaration, credential: str | None, presence: Presence) -> Probe:
    """Probe a declared advisor by its transport; `credential` is the variable name, if any."""
    transport = advisor.transport
    if transport is AdvisorTransport.API:
        missing = AdvisorStatus.NOT_CONFIGURED
        if credential is None:
            return Probe("no credential variable declared", False, missing, "credential_undeclared")
        text = f"credential variable {credential} set"
        return Probe(text, presence.variable(credential), missing, "credential_absent")
    missing = AdvisorStatus.UNAVAILABLE
    if transport is AdvisorTransport.PEER:
        return Probe(PEER_PROBE, False, missing, "peer_declared_statically")
    if advisor.executable is None:
        return Probe("no executable declared", False, missing, "executable_undeclared")
    text = f"executable {advisor.executable} on PATH"
    return Probe(text, presence.executable(advisor.executable), missing, "executable_not_found")
