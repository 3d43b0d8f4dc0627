"""The executor: strict validation through JSON, the process cache, and handler failures as
`Internal`; mostly on a small stand-in capability, each rule in isolation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from freezegun import freeze_time
from pydantic import BaseModel, ConfigDict

from majordomus.capabilities.executor import Executor, validate_input
from majordomus.capabilities.registry import CachePolicy
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import Internal, InvalidInput, NotFound

PLANNED = Path(__file__).resolve().parents[2] / "fixtures" / "layers" / "planned"


class Numbers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int
    label: str | None = None
    tags: list[str] = []


class Doubled(BaseModel):
    n: int
    calls: int


@dataclass
class StandIn:
    """The attributes of a capability the executor reads, and a handler counting its calls."""

    cache: CachePolicy = field(default_factory=CachePolicy)
    fail: BaseException | None = None
    id: str = "test.double"
    input: type[BaseModel] = Numbers
    seen: list[Numbers] = field(default_factory=list)

    def handler(self, _ctx: Any, request: Numbers) -> Doubled:
        self.seen.append(request)
        if self.fail is not None:
            raise self.fail
        return Doubled(n=request.n * 2, calls=len(self.seen))


def executor_for(cap: StandIn) -> Executor:
    registry = SimpleNamespace(get=lambda cid: cap if cid == cap.id else None)
    return Executor(SimpleNamespace(registry=registry))  # type: ignore[arg-type]


# --- validation -------------------------------------------------------------------------------


def test_input_is_validated_strictly_so_text_is_not_a_number() -> None:
    with pytest.raises(InvalidInput):
        validate_input(StandIn(), {"n": "5"})  # type: ignore[arg-type]
    assert validate_input(StandIn(), {"n": 5}) == Numbers(n=5)  # type: ignore[arg-type]


def test_no_input_is_the_empty_object_and_a_non_object_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput, match="n"):
        validate_input(StandIn(), None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=r"the input of test\.double must be a JSON object"):
        validate_input(StandIn(), [1, 2])  # type: ignore[arg-type]


def test_null_for_an_optional_field_means_absent_but_a_required_one_stays_required() -> None:
    cap: Any = StandIn()
    assert validate_input(cap, {"n": 1, "label": None, "tags": None}) == Numbers(n=1)
    with pytest.raises(InvalidInput):
        validate_input(cap, {"n": None})


def test_an_already_built_input_is_taken_as_is() -> None:
    given = Numbers(n=3)
    assert validate_input(StandIn(), given) is given  # type: ignore[arg-type]


# --- running ----------------------------------------------------------------------------------


def test_the_answer_is_the_handlers_model_and_call_its_json_value() -> None:
    cap = StandIn()
    answer = executor_for(cap).answer(cap, {"n": 21})  # type: ignore[arg-type]
    assert answer == Doubled(n=42, calls=1)
    assert executor_for(StandIn()).call("test.double", {"n": 4}) == {"n": 8, "calls": 1}


def test_an_unknown_capability_is_not_found() -> None:
    with pytest.raises(NotFound, match=r"capability test\.nothing"):
        executor_for(StandIn()).call("test.nothing")


def test_an_unexpected_handler_failure_is_internal_and_names_the_capability() -> None:
    cap = StandIn(fail=KeyError("gone"))
    with pytest.raises(Internal, match=r"test\.double failed: 'gone'"):
        executor_for(cap).call("test.double", {"n": 1})


def test_a_capability_error_reaches_the_surface_unchanged() -> None:
    refusal = NotFound("no such thing")
    with pytest.raises(NotFound) as raised:
        executor_for(StandIn(fail=refusal)).call("test.double", {"n": 1})
    assert raised.value is refusal


# --- the process cache ------------------------------------------------------------------------


def test_a_cached_capability_answers_a_repeated_request_from_the_cache() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=4))
    executor = executor_for(cap)
    first = executor.call("test.double", {"n": 2})
    again = executor.call("test.double", {"n": 2})
    assert first == again == {"n": 4, "calls": 1}
    assert len(cap.seen) == 1
    assert executor.handler_invocations == 1
    assert executor.answer(cap, {"n": 2}) is executor.answer(cap, {"n": 2})  # type: ignore[arg-type]


def test_requests_that_validate_equal_share_one_entry() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=4))
    executor = executor_for(cap)
    executor.call("test.double", {"n": 2, "label": None})
    executor.call("test.double", {"n": 2})
    assert len(cap.seen) == 1


def test_a_fresh_answer_neither_reads_nor_fills_the_cache() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=4))
    executor = executor_for(cap)
    executor.call("test.double", {"n": 2}, fresh=True)
    executor.call("test.double", {"n": 2})
    executor.call("test.double", {"n": 2}, fresh=True)
    assert len(cap.seen) == 3


def test_an_uncached_capability_runs_every_time() -> None:
    cap = StandIn()
    executor = executor_for(cap)
    executor.call("test.double", {"n": 2})
    assert executor.call("test.double", {"n": 2}) == {"n": 4, "calls": 2}


def test_errors_are_never_cached() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=4), fail=NotFound("not yet"))
    executor = executor_for(cap)
    with pytest.raises(NotFound):
        executor.call("test.double", {"n": 2})
    cap.fail = None
    assert executor.call("test.double", {"n": 2}) == {"n": 4, "calls": 2}


def test_the_cache_drops_its_oldest_entry_past_its_size() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=2))
    executor = executor_for(cap)
    for n in (1, 2, 3):
        executor.call("test.double", {"n": n})
    assert len(executor.cache["test.double"]) == 2
    executor.call("test.double", {"n": 3})
    executor.call("test.double", {"n": 2})
    assert len(cap.seen) == 3
    executor.call("test.double", {"n": 1})
    assert len(cap.seen) == 4


def test_an_entry_lives_for_its_ttl_and_is_computed_again_after() -> None:
    cap = StandIn(cache=CachePolicy(ttl_seconds=5))
    executor = executor_for(cap)
    with freeze_time("2026-01-01 00:00:00") as clock:
        executor.call("test.double", {"n": 2})
        clock.tick(4)
        executor.call("test.double", {"n": 2})
        assert len(cap.seen) == 1
        clock.tick(1)
        assert executor.call("test.double", {"n": 2}) == {"n": 4, "calls": 2}
    assert len(executor.cache["test.double"]) == 1


def test_clearing_the_cache_forgets_every_answer() -> None:
    cap = StandIn(cache=CachePolicy(max_entries=4))
    executor = executor_for(cap)
    executor.call("test.double", {"n": 2})
    executor.cache.clear()
    executor.call("test.double", {"n": 2})
    assert len(cap.seen) == 2


# --- the real registry ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def planned_ctx() -> Workspace:
    return Workspace(PLANNED, discovery="filesystem")


def test_a_real_query_answers_the_same_from_the_cache(planned_ctx: Workspace) -> None:
    executor = planned_ctx.executor
    request = {"query": "alpha", "limit": 5}
    first = executor.call("objects.search", request)
    runs = executor.handler_invocations
    assert executor.call("objects.search", request) == first
    assert executor.handler_invocations == runs
    assert executor.call("objects.search", request, fresh=True) == first


def test_a_real_input_refuses_an_unknown_key(planned_ctx: Workspace) -> None:
    with pytest.raises(InvalidInput, match="nonsense"):
        planned_ctx.executor.call("objects.search", {"query": "alpha", "nonsense": 1})


def test_a_layer_object_is_no_capability(planned_ctx: Workspace) -> None:
    with pytest.raises(NotFound):
        planned_ctx.executor.call("issue.I0001")
