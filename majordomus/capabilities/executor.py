"""The one execution path every surface calls, and the process cache."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
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
    # An input type with a `from_json_value` class method validates the decoded value itself
    # (no text round trip), every other one through its JSON text.
    from_value = getattr(cap.input, "from_json_value", None)
    try:
        if from_value is not None:
            validated: BaseModel = from_value(raw)
            return validated
        # Every surface parses within this limit already; an in-process caller is held to it
        # too, so no validator or walker after this point can recurse past it.
        try:
            text: str | None = dumps_compact(raw)
        except RecursionError:
            text = None
        if text is None or depth_exceeds(text):
            raise InvalidInput(f"the input nests more than {MAX_JSON_DEPTH} levels deep")
        return cap.input.model_validate_json(text, strict=True)
    except ValidationError as exc:
        own = getattr(cap.input, "describe_invalid", None)
        raise InvalidInput(own(exc) if own is not None else describe_validation(exc)) from None


class Executor:
    """Look up, validate, consult the cache, run the handler."""

    def __init__(self, ctx: Workspace) -> None:
        self.ctx = ctx
        #: How many times a handler ran: what the benchmarks and tests tell a cached answer by.
        self.handler_invocations = 0
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
                return cached  # type: ignore[no-any-return]
            del bucket[key]
        answer = self._run(cap, request)
        bucket[key] = (time.monotonic(), answer)
        while cap.cache.max_entries and len(bucket) > cap.cache.max_entries:
            bucket.popitem(last=False)
        return answer

    def _run(self, cap: Capability, request: BaseModel) -> BaseModel:
        self.handler_invocations += 1
        try:
            return cap.handler(self.ctx, request)
        except (CapabilityError, Fatal):
            raise
        except Exception as exc:
            log.debug("capability %s failed", cap.id, exc_info=True)
            raise Internal(f"{cap.id} failed: {exc}") from exc
