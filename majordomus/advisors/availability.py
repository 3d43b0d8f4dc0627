"""Which advisors may be asked now: gates outrank presence (probed through the injected
`Presence`), presence outranks circuits, which are replayed from recorded consultation outcomes
(the newest outcome decides).

Pure: everything arrives in `Inputs`. Also gathers the seeds' `reasoning::availability` names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from majordomus.advisors.catalogue import AdvisorCatalogue, AdvisorDeclaration, credential_of
from majordomus.advisors.modes import DISABLE_ALL, ModeResolution, ReasoningMode, resolve_mode
from majordomus.advisors.outcomes import ConsultationStatus, Outcome
from majordomus.advisors.references import References
from majordomus.advisors.states import AdvisorCircuit, AdvisorState, AdvisorStatus
from majordomus.advisors.transports import AdvisorTransport
from majordomus.clock import stamp_of

__all__ = [
    "AdvisorCircuit",
    "AdvisorState",
    "AdvisorStatus",
    "Inputs",
    "ModeResolution",
    "Outcome",
    "ReasoningMode",
    "derive_availability",
    "resolve_mode",
]

FAILURES_TO_OPEN = 2
FAILURE_COOLDOWN = 600
RATE_LIMIT_COOLDOWN = 900
AUTH_COOLDOWN = 3600
PEER_PROBE = "peers are discovered, not declared"


class Presence(Protocol):
    """The two questions a probe may ask of the machine."""

    def executable(self, name: str) -> bool: ...

    def variable(self, name: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything availability depends on, gathered once per request by the caller."""

    refs: References
    presence: Presence
    mode: ReasoningMode = ReasoningMode.STANDARD
    disabled: Sequence[str] = ()
    history: Sequence[Outcome] = ()
    now: int = 0
    cooldown: int | None = None


def derive_availability(catalogue: AdvisorCatalogue, inputs: Inputs) -> list[AdvisorState]:
    """One state per declared advisor, in declaration order (no mesh: a `peers` block adds none)."""
    return [_declared(a, inputs) for a in catalogue.advisors]


def _declared(advisor: AdvisorDeclaration, inputs: Inputs) -> AdvisorState:
    credential = credential_of(advisor, inputs.refs)
    probed = probe(advisor, credential, inputs.presence)
    model = advisor.model
    if model is not None:
        entry = inputs.refs.models.resolve(model)
        model = entry.native_id if entry is not None else model
    # the declaration's own fields by name (id, title, transport, adapter, capabilities, executable)
    declared = {**dict(advisor), "model": model, "credential": credential, "probe": probed.text}
    state = AdvisorState.model_validate(
        {**declared, "status": AdvisorStatus.AVAILABLE, "reason": "present"}
    )
    gated = _gate(state, inputs)
    if gated is not None:
        return gated
    if not probed.present:
        return state.model_copy(
            update={"status": probed.absent_status, "reason": probed.absent_reason}
        )
    return _circuit(state, inputs)


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


def _gate(state: AdvisorState, inputs: Inputs) -> AdvisorState | None:
    """The mode and configuration gates, which outrank presence; None when none applies."""
    if inputs.mode is ReasoningMode.CI:
        reason = "mode_ci"
    elif inputs.mode is ReasoningMode.OFFLINE and state.transport.is_remote():
        reason = "mode_offline"
    elif DISABLE_ALL in inputs.disabled or state.id in inputs.disabled:
        reason = "disabled_by_configuration"
    else:
        return None
    return state.model_copy(update={"status": AdvisorStatus.DISABLED, "reason": reason})


def _circuit(state: AdvisorState, inputs: Inputs) -> AdvisorState:
    """The state the advisor's recorded outcomes leave it in at `inputs.now`: an open circuit,
    recovery, or as it was; `inputs.cooldown` replaces every cooldown."""
    mine = sorted({(o.at, o.id): o for o in inputs.history if o.advisor == state.id}.items())
    newest_first = [o for _, o in reversed(mine)]
    if not newest_first:
        return state
    newest = newest_first[0]
    status, cooldown = newest.status, inputs.cooldown
    if status is ConsultationStatus.AUTH_FAILED:
        opened = (AdvisorStatus.TEMPORARILY_FAILED, "authentication_failed", 1)
        wait = _first(cooldown, AUTH_COOLDOWN)
    elif status is ConsultationStatus.RATE_LIMITED:
        opened = (AdvisorStatus.RATE_LIMITED, "rate_limited", 1)
        wait = _first(cooldown, newest.retry_after, RATE_LIMIT_COOLDOWN)
    elif status.is_transient():
        steady = (i for i, o in enumerate(newest_first) if not o.status.is_transient())
        run = next(steady, len(newest_first))  # the newest transient failures in a row
        if run < FAILURES_TO_OPEN:
            return state
        opened = (AdvisorStatus.TEMPORARILY_FAILED, "consecutive_failures", run)
        wait = _first(cooldown, FAILURE_COOLDOWN)
    else:
        return state
    until = newest.at + wait
    if inputs.now >= until:
        return state.model_copy(update={"recovering": True})
    new_status, reason, failures = opened
    circuit = AdvisorCircuit(opened_by=newest.id, failures=failures, until=stamp_of(until))
    return state.model_copy(update={"status": new_status, "reason": reason, "circuit": circuit})


def _first(*values: int | None) -> int:
    """The first value that is set; the last argument always is."""
    return next(v for v in values if v is not None)
