"""The `devcontext` module: compile, explain, policy.

Thin declarations over `majordomus.devcontext`: each handler passes the request context,
whose index and checkout the compiler reads (local continuity records, on-disk sizes), and
returns the domain's own wire model. Benchmark cases come from the index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from majordomus.capabilities.core import Empty
from majordomus.devcontext import (
    CompiledContext,
    CompileInput,
    CompilerPolicy,
    ExplainInput,
    Explanation,
    compiler,
    explain,
    policy,
)
from majordomus.layer.shortid import SCHEME, expand

if TYPE_CHECKING:
    from majordomus.capabilities.context import Context

INTENT_CASE = "the context a session is given and the budget it costs"
ABSENT_CASE = "majordomus://rule/nothing-like-this@1"

_Request = TypeVar("_Request", bound=CompileInput)


def _seeded(ctx: Context, request: _Request) -> _Request:
    """A short id among `uris` (`adr-0001`, `rule/project.no-secrets`) seeds with the object
    it names, as everywhere a URI is taken (an ambiguous one is refused listing candidates)."""
    if all(uri.startswith(SCHEME) for uri in request.uris):
        return request
    uris = [expand(ctx.index.objects, uri) for uri in request.uris]
    return request.model_copy(update={"uris": uris})


def compile_context(ctx: Context, request: CompileInput) -> CompiledContext:
    return compiler.compile_context(ctx, _seeded(ctx, request))


def explain_identifier(ctx: Context, request: ExplainInput) -> Explanation:
    """A decoded object URI, or a short id, is read as the canonical URI it names."""
    request = _seeded(ctx, request)
    found = ctx.index.find(expand(ctx.index.objects, request.uri.strip()))
    if found is not None and found.uri != request.uri:
        request = request.model_copy(update={"uri": found.uri})
    return explain(ctx, request)


def compiler_policy(ctx: Context, _: Empty) -> CompilerPolicy:
    return policy(ctx)


def _smallest(ctx: Context, kind: str) -> str | None:
    return min((o.identity for o in ctx.index.objects if o.kind == kind), default=None)


def _compile_cases(ctx: Context) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = [("no-seed", {})]
    for kind in ("issue", "milestone"):
        identity = _smallest(ctx, kind)
        if identity is not None:
            cases.append((kind, {kind: identity}))
    cases.append(("intent", {"intent": INTENT_CASE}))
    return cases


def _explain_cases(ctx: Context) -> list[tuple[str, dict[str, Any]]]:
    first = next((o.uri for o in ctx.index.objects if o.kind == "policy"), None)
    cases = [("policy", {"uri": first})] if first is not None else []
    return [*cases, ("absent", {"uri": ABSENT_CASE})]
