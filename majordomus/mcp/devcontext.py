"""The MCP answer of `devcontext.compile`: what a model reads, within the budget it gave."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from pydantic_core import to_json

from majordomus.capabilities.builtin import declared
from majordomus.devcontext.bundle import LEFT_OUT
from majordomus.devcontext.model import BYTES_PER_TOKEN, CompiledContext, Diagnostic, tokens_for
from majordomus.egress import clean_json
from majordomus.errors import InvalidInput
from majordomus.mcp.jsonrpc import encode
from majordomus.mcp.listing import COMPILE
from majordomus.wire import dumps_compact

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

#: Over MCP the rows come with `detail`, not from the same request without the bundle.
MCP_LEFT_OUT = "What was left out and why: the same request with `detail: true`."
#: What a JSON-RPC answer adds around its result (`{"jsonrpc":"2.0","id":…,"result":` and
#: `}` with the newline), with room for a long request id.
ENVELOPE_BYTES = 64
#: Compiles tried before the answer is given as it stands.
ATTEMPTS = 4


def fitted(
    ctx: Workspace, arguments: dict[str, Any], wrap: Callable[[str], dict[str, Any]]
) -> dict[str, Any]:
    """The result `wrap` makes of the answer's text (a tool result, a prompt's messages;
    `wrap` redacts it), compiled so that the bundle's whole result stays within the budget."""
    request = dict(arguments)
    detail = request.pop("detail", None)
    if detail is not None and not isinstance(detail, bool):
        raise InvalidInput("detail: must be true or false")
    executor = ctx.executor
    cap = declared(COMPILE)

    def compiled_at(limit: int | None, bundle: bool = True) -> CompiledContext:
        given = {**request, "bundle": bundle}
        if limit is not None:
            given["budget_tokens"] = limit
        return cast(CompiledContext, executor.answer(cap, given))

    compiled = compiled_at(None)
    asked = compiled.budget.limit_tokens
    ceiling = asked * BYTES_PER_TOKEN
    for attempt in range(ATTEMPTS):
        result = wrap(_markdown(compiled, _notes(compiled, asked, None)))
        size = _size(result)
        budget = compiled.budget
        lower = max(budget.required_tokens, budget.limit_tokens - tokens_for(size - ceiling))
        if size <= ceiling or lower >= budget.limit_tokens or attempt == ATTEMPTS - 1:
            break
        compiled = compiled_at(lower)
    if detail:
        whole = compiled_at(compiled.budget.limit_tokens, bundle=False)
        return _detail(whole, asked, ceiling, wrap)
    if size > ceiling:
        result = wrap(_markdown(compiled, _notes(compiled, asked, tokens_for(size))))
    return result


def _detail(
    whole: CompiledContext, asked: int, ceiling: int, wrap: Callable[[str], dict[str, Any]]
) -> dict[str, Any]:
    """The rows of the compile; while they cost more than the budget, without the last
    deduplications and then the last exclusions, saying how many of each are shown."""
    shown = whole
    for _ in range(ATTEMPTS):
        result = wrap(_json(shown, _notes(shown, asked, None, whole)))
        size = _size(result)
        if size <= ceiling or not (shown.excluded or shown.deduplicated):
            break
        shown = _trimmed(shown, size - ceiling)
    if size > ceiling:
        result = wrap(_json(shown, _notes(shown, asked, tokens_for(size), whole)))
    return result


def _trimmed(compiled: CompiledContext, excess: int) -> CompiledContext:
    """The rows without enough of the last deduplications, then of the last exclusions, to
    save `excess` bytes of the text block (each row escaped once more inside it)."""
    rows: dict[str, list[Any]] = {
        "deduplicated": list(compiled.deduplicated),
        "excluded": list(compiled.excluded),
    }
    saved = 0
    for kept in rows.values():
        while kept and saved < excess:
            saved += len(to_json(kept.pop())) * 9 // 8 + 1
    return compiled.model_copy(update=rows)


def _size(result: dict[str, Any]) -> int:
    return len(encode(result).encode("utf-8")) + ENVELOPE_BYTES


def _notes(
    compiled: CompiledContext, asked: int, over: int | None, whole: CompiledContext | None = None
) -> list[str]:
    """What the answer has to say about the budget, and about rows left out of `whole`."""
    notes = []
    limit = compiled.budget.limit_tokens
    if limit < asked:
        notes.append(
            f"Compiled at {limit} of the {asked} tokens asked: the rest carries the answer."
        )
    if whole is not None and compiled is not whole:
        notes.append(
            f"Shown to fit the budget: the first {len(compiled.excluded)} of "
            f"{len(whole.excluded)} exclusions and {len(compiled.deduplicated)} of "
            f"{len(whole.deduplicated)} deduplications; devcontext_explain answers for any "
            "identifier."
        )
    if over is not None:
        notes.append(
            f"This answer is about {over} tokens, over the {asked} asked: what it must hold "
            "costs more; devcontext_explain answers for one identifier."
        )
    return notes


def _markdown(compiled: CompiledContext, notes: list[str]) -> str:
    bundle = (compiled.bundle or "").replace(LEFT_OUT, MCP_LEFT_OUT, 1)
    return bundle + "".join(f"\n_{note}_\n" for note in notes)


def _json(compiled: CompiledContext, notes: list[str]) -> str:
    found = [Diagnostic(severity="info", code="mcp_budget", message=note) for note in notes]
    value = compiled.model_copy(update={"diagnostics": [*compiled.diagnostics, *found]})
    return clean_json(dumps_compact(value.wire()), dumps_compact)  # redacted as JSON
