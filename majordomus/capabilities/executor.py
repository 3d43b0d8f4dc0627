"""The one execution path every surface calls, and the process cache."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from majordomus.bounded_json import depth_exceeds
from majordomus.capabilities.paging import Paged, PageInput, cut
from majordomus.errors import (
    CapabilityError,
    Fatal,
    Internal,
    InvalidInput,
    NotFound,
    describe_validation,
)
from majordomus.limits import MAX_JSON_DEPTH
from majordomus.wire import dumps_canonical, dumps_compact

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability
    from majordomus.capabilities.workspace import Workspace


@dataclass
class Counters:
    """What an executor did, for the tests and benchmarks."""

    executions: int = 0
    handler_invocations: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    cache_evictions: int = 0


def validate_input(cap: Capability, raw: Any) -> BaseModel:
    """Deserialise a surface's JSON-compatible input into the capability's input type."""
    if isinstance(raw, cap.input):
        return raw
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidInput(f"the input of {cap.id} must be a JSON object")
    if None in raw.values():
        # `null` for an optional input means absent, as generic clients send it for a field
        # left empty; a required input stays required
        fields = cap.input.model_fields
        raw = {
            k: v
            for k, v in raw.items()
            if v is not None or k not in fields or fields[k].is_required()
        }
    try:
        return _validated(cap.input, raw)
    except ValidationError as exc:
        own = getattr(cap.input, "describe_invalid", None)
        raise InvalidInput(own(exc) if own is not None else describe_validation(exc)) from None


def _validated(model: type[BaseModel], raw: dict[str, Any]) -> BaseModel:
    """`raw` as `model`; an input type with a `from_json_value` class method validates the
    decoded value itself (no text round trip), every other one through its JSON text."""
    own = getattr(model, "from_json_value", None)
    if own is not None:
        validated: BaseModel = own(raw)
        return validated
    # Every surface parses within this limit already; an in-process caller is held to it
    # too, so no validator or walker after this point can recurse past it.
    try:
        text: str | None = dumps_compact(raw)
    except RecursionError:
        text = None
    if text is None or depth_exceeds(text):
        raise InvalidInput(f"the input nests more than {MAX_JSON_DEPTH} levels deep")
    return model.model_validate_json(text, strict=True)


class Executor:
    """Look up, validate, consult the cache, run the handler."""

    def __init__(self, ctx: Workspace) -> None:
        self.ctx = ctx
        self.counters = Counters()
        #: The process cache: per capability id, request key → (stored at, answer), oldest first.
        self.cache: dict[str, OrderedDict[str, tuple[float, Any]]] = {}

    def capability(self, capability_id: str) -> Capability:
        cap = self.ctx.registry.get(capability_id)
        if cap is None:
            raise NotFound(f"capability {capability_id}")
        return cap

    def call(self, capability_id: str, raw: Any = None, *, fresh: bool = False) -> Any:
        """The JSON value of `answer` for the capability of that id."""
        answer = self.answer(self.capability(capability_id), raw, fresh=fresh)
        return answer.model_dump(mode="json", by_alias=True)

    def answer(
        self,
        cap: Capability,
        raw: Any = None,
        *,
        fresh: bool = False,
        page_bytes: int | None = None,
    ) -> BaseModel:
        """The handler's answer to one request (cached unless `fresh`, cut to the page asked for),
        or a `CapabilityError` for its refusal."""
        self.counters.executions += 1
        request = validate_input(cap, raw)
        answer = self._computed(cap, request, fresh)
        if isinstance(answer, Paged) and isinstance(request, PageInput):
            return cut(answer, request, cap.id, page_bytes)
        return answer

    def _computed(self, cap: Capability, request: BaseModel, fresh: bool) -> BaseModel:
        """The whole answer, from the process cache (FIFO, each entry for its TTL) or handler."""
        if not cap.cache.enabled or fresh:
            return self._run(cap, request)
        key = dumps_canonical(request.model_dump(mode="json", by_alias=True))
        bucket = self.cache.setdefault(cap.id, OrderedDict())
        if key in bucket:
            stored_at, cached = bucket[key]
            ttl = cap.cache.ttl_seconds
            if ttl is None or time.monotonic() - stored_at < ttl:
                self.counters.cache_hits += 1
                return cached  # type: ignore[no-any-return]
            del bucket[key]
            self.counters.cache_evictions += 1
        self.counters.cache_misses += 1
        answer = self._run(cap, request)
        bucket[key] = (time.monotonic(), answer)
        while cap.cache.max_entries and len(bucket) > cap.cache.max_entries:
            bucket.popitem(last=False)
            self.counters.cache_evictions += 1
        return answer

    def _run(self, cap: Capability, request: BaseModel) -> BaseModel:
        self.counters.handler_invocations += 1
        try:
            return cap.handler(self.ctx, request)
        except (CapabilityError, Fatal):
            raise
        except Exception as exc:
            log.debug("capability %s failed", cap.id, exc_info=True)
            raise Internal(f"{cap.id} failed: {exc}") from exc
