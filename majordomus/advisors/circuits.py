"""Circuit breakers replayed from recorded consultation outcomes; the newest outcome decides.

Pure: the caller passes the history, `now` and the cooldown override."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from majordomus.advisors.outcomes import ConsultationStatus, Outcome
from majordomus.advisors.states import AdvisorCircuit, AdvisorStatus
from majordomus.clock import stamp_of

FAILURES_TO_OPEN = 2
FAILURE_COOLDOWN = 600
RATE_LIMIT_COOLDOWN = 900
AUTH_COOLDOWN = 3600


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the history says about one advisor: an open circuit, or recovery, or nothing."""

    circuit: AdvisorCircuit | None = None
    status: AdvisorStatus | None = None
    reason: str | None = None
    recovering: bool = False


NO_VERDICT = Verdict()


def judge(advisor_id: str, history: Iterable[Outcome], now: int, cooldown: int | None) -> Verdict:
    """The circuit verdict for `advisor_id` at `now`; `cooldown` replaces every cooldown."""
    mine = sorted({(o.at, o.id): o for o in history if o.advisor == advisor_id}.items())
    newest_first = [o for _, o in reversed(mine)]
    if not newest_first:
        return NO_VERDICT
    newest = newest_first[0]
    status = newest.status
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
            return NO_VERDICT
        opened = (AdvisorStatus.TEMPORARILY_FAILED, "consecutive_failures", run)
        wait = _first(cooldown, FAILURE_COOLDOWN)
    else:
        return NO_VERDICT
    until = newest.at + wait
    if now >= until:
        return Verdict(recovering=True)
    new_status, reason, failures = opened
    circuit = AdvisorCircuit(opened_by=newest.id, failures=failures, until=stamp_of(until))
    return Verdict(circuit=circuit, status=new_status, reason=reason)


def _first(*values: int | None) -> int:
    """The first value that is set; the last argument always is."""
    return next(v for v in values if v is not None)
