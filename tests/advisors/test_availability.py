"""`derive_availability`: gates, presence, circuits, recovery."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from majordomus.advisors.availability import (
    AdvisorState,
    AdvisorStatus,
    Inputs,
    Outcome,
    ReasoningMode,
    derive_availability,
)
from majordomus.advisors.catalogue import AdvisorCatalogue, References
from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.references import ModelCatalogue
from tests.advisors.fakes import Everything, Only, adv

REFS = References(
    models=ModelCatalogue.model_validate(
        {
            "version": 1,
            "vendors": [{"id": "v", "title": "V", "credential_env": "V_KEY"}],
            "models": [{"id": "m", "vendor": "v", "native_id": "m-native"}],
        }
    )
)


def catalogue(peers: bool = False) -> AdvisorCatalogue:
    data: dict[str, object] = {
        "version": 1,
        "capabilities": [{"id": "code_review", "description": "x"}],
        "advisors": [
            adv("web", "api", title="Web", adapter="web-api", vendor="v", model="m"),
            adv("tool", title="Tool", adapter="tool-cli", model="unlisted"),
            adv("rt", "local_runtime", title="Runtime", adapter="rt"),
        ],
    }
    if peers:
        data["peers"] = {"feature": "reviews", "adapter": "mesh", "capabilities": ["code_review"]}
    return AdvisorCatalogue.model_validate(data)


def derive(
    c: AdvisorCatalogue | None = None, *, presence: object = None, **given: Any
) -> list[AdvisorState]:
    """Availability over `c` (the three-advisor catalogue) with `Inputs` fields `given`."""
    inputs = Inputs(refs=REFS, presence=presence or Everything(), **given)  # type: ignore[arg-type]
    return derive_availability(c if c is not None else catalogue(), inputs)


def rows(states: list[AdvisorState]) -> list[tuple[str, str, str]]:
    return [(s.id, s.status.value, s.reason) for s in states]


def out(
    advisor: str, status: str, at: int, id: str | None = None, retry: int | None = None
) -> Outcome:
    return Outcome(
        id=id or f"consultation-{at}",
        advisor=advisor,
        status=ConsultationStatus(status),
        at=at,
        retry_after=retry,
    )


def test_everything_present_is_available_with_the_declared_details() -> None:
    states = derive()
    assert rows(states) == [
        ("web", "available", "present"),
        ("tool", "available", "present"),
        ("rt", "available", "present"),
    ]
    assert states[0].wire() == {
        "id": "web",
        "title": "Web",
        "transport": "api",
        "adapter": "web-api",
        "capabilities": ["code_review"],
        "model": "m-native",
        "credential": "V_KEY",
        "status": "available",
        "reason": "present",
        "probe": "credential variable V_KEY set",
        "recovering": False,
    }
    assert states[1].model == "unlisted" and states[1].executable == "tool"


def test_absent_advisors() -> None:
    assert rows(derive(presence=Only())) == [
        ("web", "not_configured", "credential_absent"),
        ("tool", "unavailable", "executable_not_found"),
        ("rt", "unavailable", "executable_not_found"),
    ]
    assert rows(derive(presence=Only("V_KEY", "rt"))) == [
        ("web", "available", "present"),
        ("tool", "unavailable", "executable_not_found"),
        ("rt", "available", "present"),
    ]


def test_gates_outrank_presence_and_circuits() -> None:
    limited = [out("web", "auth_failed", 0), out("rt", "auth_failed", 0)]
    assert rows(derive(mode=ReasoningMode.CI, presence=Only(), history=limited)) == [
        ("web", "disabled", "mode_ci"),
        ("tool", "disabled", "mode_ci"),
        ("rt", "disabled", "mode_ci"),
    ]
    assert rows(derive(mode=ReasoningMode.OFFLINE, presence=Only(), history=limited)) == [
        ("web", "disabled", "mode_offline"),
        ("tool", "disabled", "mode_offline"),
        ("rt", "unavailable", "executable_not_found"),
    ]
    assert rows(derive(mode=ReasoningMode.OFFLINE, disabled=["rt"])) == [
        ("web", "disabled", "mode_offline"),
        ("tool", "disabled", "mode_offline"),
        ("rt", "disabled", "disabled_by_configuration"),
    ]
    assert rows(derive(disabled=["tool"], presence=Only())) == [
        ("web", "not_configured", "credential_absent"),
        ("tool", "disabled", "disabled_by_configuration"),
        ("rt", "unavailable", "executable_not_found"),
    ]
    assert {s.reason for s in derive(disabled=["all"])} == {"disabled_by_configuration"}


def test_the_probe_is_reported_whatever_decides_the_status() -> None:
    states = derive(mode=ReasoningMode.CI)
    assert [s.probe for s in states] == [
        "credential variable V_KEY set",
        "executable tool on PATH",
        "executable rt on PATH",
    ]


def test_absence_outranks_an_open_circuit() -> None:
    states = derive(presence=Only(), history=[out("tool", "rate_limited", 0)], now=1)
    assert rows(states)[1] == ("tool", "unavailable", "executable_not_found")
    assert states[1].circuit is None


def test_authentication_failure_opens_for_an_hour() -> None:
    history = [out("tool", "auth_failed", 0)]
    tool = derive(history=history, now=1)[1]
    assert (tool.status, tool.reason) == (AdvisorStatus.TEMPORARILY_FAILED, "authentication_failed")
    assert tool.circuit is not None
    assert tool.circuit.wire() == {
        "opened_by": "consultation-0",
        "failures": 1,
        "until": "1970-01-01T01:00:00Z",
    }
    closed = derive(history=history, now=3600)[1]
    assert (closed.status, closed.reason, closed.recovering) == (
        AdvisorStatus.AVAILABLE,
        "present",
        True,
    )
    assert closed.circuit is None and "circuit" not in closed.wire()


def test_rate_limit_cooldowns() -> None:
    tool = derive(history=[out("tool", "rate_limited", 100)], now=101)[1]
    assert (tool.status, tool.reason) == (AdvisorStatus.RATE_LIMITED, "rate_limited")
    assert tool.circuit is not None and tool.circuit.until == "1970-01-01T00:16:40Z"
    retry = [out("tool", "rate_limited", 100, retry=30)]
    assert derive(history=retry, now=129)[1].status is AdvisorStatus.RATE_LIMITED
    assert derive(history=retry, now=130)[1].recovering
    overridden = derive(history=retry, now=101, cooldown=5)[1]
    assert overridden.circuit is not None and overridden.circuit.until == "1970-01-01T00:01:45Z"
    assert derive(history=retry, now=105, cooldown=5)[1].recovering
    assert derive(history=retry, now=100, cooldown=0)[1].recovering


def test_the_availability_lifecycle_of_transient_failures() -> None:
    history = [out("tool", "timeout", 100), out("tool", "timeout", 101)]
    tool = derive(history=history, now=102)[1]
    assert (tool.status, tool.reason) == (AdvisorStatus.TEMPORARILY_FAILED, "consecutive_failures")
    assert tool.circuit is not None
    assert (tool.circuit.opened_by, tool.circuit.failures) == ("consultation-101", 2)
    assert tool.circuit.until == "1970-01-01T00:11:41Z"
    healed = derive(history=history, now=701)[1]
    assert (healed.status, healed.reason, healed.recovering) == (
        AdvisorStatus.AVAILABLE,
        "present",
        True,
    )


def test_one_transient_failure_is_not_a_circuit() -> None:
    tool = derive(history=[out("tool", "error", 5)], now=6)[1]
    assert (tool.status, tool.recovering, tool.circuit) == (AdvisorStatus.AVAILABLE, False, None)


def test_the_run_counts_consecutive_transient_failures_from_the_newest() -> None:
    history = [
        out("tool", "timeout", 1),
        out("tool", "unavailable", 2),
        out("tool", "completed", 3),
        out("tool", "error", 4),
        out("tool", "timeout", 5),
        out("tool", "unavailable", 6),
    ]
    tool = derive(history=list(reversed(history)), now=7)[1]
    assert tool.circuit is not None and tool.circuit.failures == 3
    broken = [out("tool", "timeout", 1), out("tool", "rate_limited", 2), out("tool", "timeout", 3)]
    assert derive(history=broken, now=4)[1].circuit is None


def test_order_is_by_time_then_id_not_by_arrival() -> None:
    history = [out("tool", "completed", 50), out("tool", "auth_failed", 10)]
    assert derive(history=history, now=60)[1].status is AdvisorStatus.AVAILABLE
    same_second = [out("tool", "auth_failed", 5, id="b"), out("tool", "completed", 5, id="a")]
    assert derive(history=same_second, now=6)[1].reason == "authentication_failed"


def test_identical_outcomes_collapse_to_one() -> None:
    twice = [out("tool", "timeout", 5, id="c"), out("tool", "timeout", 5, id="c")]
    assert derive(history=twice, now=6)[1].circuit is None


def test_a_newer_completion_closes_the_circuit_without_recovery() -> None:
    history = [out("tool", "timeout", 1), out("tool", "timeout", 2), out("tool", "completed", 3)]
    tool = derive(history=history, now=4)[1]
    assert (tool.status, tool.recovering, tool.circuit) == (AdvisorStatus.AVAILABLE, False, None)


def test_degradations_that_are_not_the_advisors_fault_never_count() -> None:
    for word in ("malformed", "empty", "cancelled"):
        history = [out("tool", "timeout", 1), out("tool", "timeout", 2), out("tool", word, 3)]
        tool = derive(history=history, now=4)[1]
        assert (tool.status, tool.recovering) == (AdvisorStatus.AVAILABLE, False)


def test_history_of_other_advisors_is_ignored() -> None:
    states = derive(history=[out("web", "auth_failed", 0)], now=1)
    assert rows(states)[1:] == [("tool", "available", "present"), ("rt", "available", "present")]


def test_a_peers_block_adds_no_advisor_without_a_mesh() -> None:
    assert derive(catalogue(peers=True)) == derive(catalogue())


advisor_strategy = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["a", "b", "c", "d"]),
        "title": st.just("T"),
        "transport": st.sampled_from(["api", "cli", "local_runtime", "peer"]),
        "adapter": st.sampled_from(["x", "y"]),
        "capabilities": st.just(["code_review"]),
    },
    optional={"executable": st.sampled_from(["a", "b"]), "vendor": st.just("v")},
)
history_strategy = st.lists(
    st.builds(
        Outcome,
        id=st.sampled_from(["c1", "c2", "c3"]),
        advisor=st.sampled_from(["a", "b", "c", "d", "peer:n"]),
        status=st.sampled_from(list(ConsultationStatus)),
        at=st.integers(0, 2000),
        retry_after=st.none() | st.integers(0, 2000),
    ),
    max_size=8,
)


@given(
    advisors=st.lists(advisor_strategy, max_size=5),
    present=st.booleans(),
    disabled=st.lists(st.sampled_from(["a", "b", "all"]), max_size=2),
    history=history_strategy,
    now=st.integers(0, 5000),
    cooldown=st.none() | st.integers(-10, 1000),
)
def test_ci_never_leaves_an_advisor_available_and_offline_only_local_runtimes(
    advisors: list[dict[str, object]],
    present: bool,
    disabled: list[str],
    history: list[Outcome],
    now: int,
    cooldown: int | None,
) -> None:
    c = AdvisorCatalogue.model_validate(
        {
            "version": 1,
            "advisors": advisors,
            "peers": {"feature": "reviews", "adapter": "mesh"},
        }
    )
    presence = Everything() if present else Only()

    def states(mode: ReasoningMode) -> list[AdvisorState]:
        return derive(
            c,
            presence=presence,
            mode=mode,
            disabled=disabled,
            history=history,
            now=now,
            cooldown=cooldown,
        )

    ci = states(ReasoningMode.CI)
    assert len(ci) == len(advisors)
    assert all(s.status is AdvisorStatus.DISABLED and s.reason == "mode_ci" for s in ci)
    offline = states(ReasoningMode.OFFLINE)
    assert all(s.transport.value == "local_runtime" for s in offline if s.is_available())
    assert all(
        (s.status, s.reason) == (AdvisorStatus.DISABLED, "mode_offline")
        for s in offline
        if s.transport.is_remote()
    )
