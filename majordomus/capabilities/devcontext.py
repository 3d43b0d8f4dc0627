"""The `devcontext` module: compile, explain, policy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from majordomus.capabilities.registry import CachePolicy, Capability, Module
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
from majordomus.wire import Empty

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

INTENT_CASE = "the context a session is given and the budget it costs"
ABSENT_CASE = "majordomus://rule/nothing-like-this@1"

_Request = TypeVar("_Request", bound=CompileInput)


def _seeded(ctx: Workspace, request: _Request) -> _Request:
    """A short id among `uris` (`adr-0001`, `rule/project.no-secrets`) seeds with the object
    it names, as everywhere a URI is taken (an ambiguous one is refused listing candidates)."""
    if all(uri.startswith(SCHEME) for uri in request.uris):
        return request
    uris = [expand(ctx.index.objects, uri) for uri in request.uris]
    return request.model_copy(update={"uris": uris})


def compile_context(ctx: Workspace, request: CompileInput) -> CompiledContext:
    return compiler.compile_context(ctx, _seeded(ctx, request))


def explain_identifier(ctx: Workspace, request: ExplainInput) -> Explanation:
    """A decoded object URI, or a short id, is read as the canonical URI it names."""
    request = _seeded(ctx, request)
    found = ctx.index.find(expand(ctx.index.objects, request.uri.strip()))
    if found is not None and found.uri != request.uri:
        request = request.model_copy(update={"uri": found.uri})
    return explain(ctx, request)


def compiler_policy(ctx: Workspace, _: Empty) -> CompilerPolicy:
    return policy(ctx)


def _compile_cases(ctx: Workspace) -> list[tuple[str, dict[str, Any]]]:
    cases: list[tuple[str, dict[str, Any]]] = [("no-seed", {})]
    for kind in ("issue", "milestone"):
        identity = min((o.identity for o in ctx.index.objects if o.kind == kind), default=None)
        if identity is not None:
            cases.append((kind, {kind: identity}))
    cases.append(("intent", {"intent": INTENT_CASE}))
    return cases


def _explain_cases(ctx: Workspace) -> list[tuple[str, dict[str, Any]]]:
    first = next((o.uri for o in ctx.index.objects if o.kind == "policy"), None)
    cases = [("policy", {"uri": first})] if first is not None else []
    return [*cases, ("absent", {"uri": ABSENT_CASE})]


DEVCONTEXT_COMPILE = Capability(
    id="devcontext.compile",
    title="Compile a development context",
    description="The context a session needs for a task, within one token budget: from an "
    "issue, a milestone, paths, identifiers or an intent, the layer's typed graph is walked; "
    "what may not be dropped is funded first, then the work's own promise (its milestone, "
    "dependencies, scope, the decisions and rules over it), other work last. The answer lays "
    "the entries out in tier order and reports every exclusion with its cost; `bundle` adds "
    "the content as Markdown (over MCP the answer is that bundle, and `detail` the rows). "
    "Read-only.",
    handler=compile_context,
    http=("GET", "/api/v1/devcontext"),
    tags=("context", "session", "planning", "introspection"),
    cache=CachePolicy(16),
    cases=_compile_cases,
)

DEVCONTEXT_EXPLAIN = Capability(
    id="devcontext.explain",
    title="Explain an identifier's standing",
    description="Where one canonical identifier stands in the context a request compiles: "
    "selected, excluded, deduplicated, held and not reached, or unknown, with the row that "
    "proves it and the budget the judgement was made under. Read-only.",
    handler=explain_identifier,
    http=("GET", "/api/v1/devcontext/explain"),
    tags=("context", "provenance", "introspection"),
    cache=CachePolicy(8),
    cases=_explain_cases,
)

DEVCONTEXT_POLICY = Capability(
    id="devcontext.policy",
    title="The context compiler's policy",
    description="The rules the compiler applies, as data: the tiers in spend order with the "
    "kinds spent from each, every edge kind with its weights or why it is not followed, the "
    "selectors, and the defaults. Read-only.",
    handler=compiler_policy,
    resource=("majordomus://devcontext/policy", "devcontext-policy"),
    http=("GET", "/api/v1/devcontext/policy"),
    tags=("context", "introspection"),
)

DEVCONTEXT = Module(
    id="devcontext",
    title="Development context",
    description="The context compiler: what an assistant should be given for a task, under "
    "one token budget, and why any identifier is or is not in it.",
    capabilities=(DEVCONTEXT_COMPILE, DEVCONTEXT_EXPLAIN, DEVCONTEXT_POLICY),
)

MODULES = (DEVCONTEXT,)
