"""The checks a capability declaration passes before any surface serves it.

Route checks (identity, exposure, one owner per name) need no types and run as a registry is
built; declaration checks (handler, policies) run as a declaration is loaded; type checks (a
resource query accepts `{}`, the handler's signature is the declared input and output) run
in `Registry.verify()`. Every check appends to a list, so every error is reported at once.
"""

from __future__ import annotations

import json
import re
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from majordomus.values import Frozen, set_field

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability, Route

STABILITIES = (
    "implemented",
    "behaviorally_verified",
    "experimental",
    "planned",
    "unsupported",
)
EXECUTABLE_STABILITIES = STABILITIES[:3]
WAIVER_REASONS = ("not_executable", "destructive", "external_dependency", "transient_state")

_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]*\Z")
_TOOL = re.compile(r"[a-z0-9_]+\Z")
_ROUTE = re.compile(r"/api/v1/[A-Za-z0-9/_.-]*\Z")
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class RegistryError(Frozen):
    """One declaration problem; `code` is the snake_case word of docs/generated/capabilities.md"""

    FIELDS = COMPARED = ("code", "message")
    __slots__ = FIELDS
    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        set_field(self, "code", code)
        set_field(self, "message", message)


class RegistryBuildFailed(Exception):
    """The registry did not build; every error is listed, none hidden behind the first."""

    def __init__(self, errors: list[RegistryError]) -> None:
        super().__init__(
            f"{len(errors)} registry error(s): " + "; ".join(e.message for e in errors)
        )
        self.errors = errors


def check_modules(
    module_ids: Sequence[str], kinds: Sequence[str], errors: list[RegistryError]
) -> None:
    """Each module id once and well formed, and no object kind named like a module."""
    seen: set[str] = set()
    for module_id in module_ids:
        if not _NAMESPACE.match(module_id) or module_id == "system":
            errors.append(RegistryError("invalid_module_id", f"'{module_id}' is not a module id"))
        if module_id in seen:
            errors.append(
                RegistryError("duplicate_module", f"module '{module_id}' is declared twice")
            )
        seen.add(module_id)
    for kind in sorted(set(kinds) & seen):
        errors.append(
            RegistryError("duplicate_module", f"kind '{kind}' collides with a built-in module")
        )


def _check_exposure(cap: Route | Capability, errors: list[RegistryError]) -> None:
    def bad(projection: str, reason: str) -> None:
        errors.append(RegistryError("invalid_exposure", f"{cap.id}: {projection}: {reason}"))

    if cap.tool is not None and not _TOOL.match(cap.tool):
        bad("MCP", f"tool name '{cap.tool}' is not [a-z0-9_]+")
    if cap.resource is not None:
        uri = cap.resource[0]
        if not uri.startswith("majordomus://") or _SPACE_OR_CONTROL.search(uri):
            bad("MCP", f"resource uri '{uri}' must start with majordomus:// and hold no space")
    if cap.http is not None:
        method, path = cap.http
        if method not in ("GET", "POST"):
            bad("HTTP", f"method '{method}' is not GET or POST")
        if not _ROUTE.match(path) or path.endswith("/") or "//" in path or path == "/api/v1/":
            bad("HTTP", f"path '{path}' is not a plain /api/v1/ route")
        if cap.kind == "command" and method != "POST":
            bad("HTTP", "a command changes state and is bound to POST")
    if cap.cli is not None and (
        not cap.cli or any(not w or _SPACE_OR_CONTROL.search(w) for w in cap.cli)
    ):
        bad("CLI", f"path {list(cap.cli)} must be non-empty words without spaces")


def _check_id(cap: Route | Capability, errors: list[RegistryError]) -> None:
    namespace, dot, local = cap.id.partition(".")
    # an object's id is its kind and identity, and any path git can track is an identity
    unfit = _CONTROL if cap.declarative else _SPACE_OR_CONTROL
    if not dot or not _NAMESPACE.match(namespace) or not local or unfit.search(cap.id):
        errors.append(RegistryError("invalid_id", f"'{cap.id}' is not <namespace>.<local>"))
    elif not cap.declarative and cap.module and namespace != cap.module:
        errors.append(
            RegistryError(
                "module_mismatch", f"{cap.id}: composed by module '{cap.module}', not '{namespace}'"
            )
        )


def _check_route_shape(cap: Route | Capability, errors: list[RegistryError]) -> None:
    def shape(message: str) -> None:
        errors.append(RegistryError("shape", f"{cap.id}: {message}"))

    if cap.kind == "resource":
        if cap.http is not None or cap.cli is not None or cap.tool is not None:
            shape("a resource is exposed as an MCP resource only")
    elif cap.writes_repository and cap.kind != "command":
        shape("only a command may write the repository")
    if cap.kind == "command" and cap.resource is not None:
        shape("a command cannot be an MCP resource")


def _unique(
    caps: Sequence[Route | Capability],
    key: Callable[[Route | Capability], Any],
    code: str,
    label: Callable[[Any], str],
    errors: list[RegistryError],
) -> None:
    seen: dict[Any, Route | Capability] = {}
    for cap in caps:
        value = key(cap)
        if value is None:
            continue
        if value in seen:
            errors.append(
                RegistryError(code, f"{label(value)} is claimed by {seen[value].id} and {cap.id}")
            )
        else:
            seen[value] = cap


def _provenance_key(cap: Route | Capability) -> str:
    if cap.source is not None:
        return json.dumps(cap.source.provenance.to_json(), sort_keys=True)
    handler = getattr(cap, "handler", None)
    return str(getattr(handler, "__module__", ""))


def check_routes(routed: Sequence[Route | Capability], errors: list[RegistryError]) -> None:
    """Check each route, in id order, and that every name has one owner.

    Only a broken declaration repeats an id: those ties are ordered by provenance, so the
    errors do not depend on declaration order; no other capability pays for a provenance."""
    repeated = {i for i, n in Counter(c.id for c in routed).items() if n > 1}
    pending = sorted(routed, key=lambda c: (c.id, _provenance_key(c) if c.id in repeated else ""))
    for cap in pending:
        _check_id(cap, errors)
        _check_exposure(cap, errors)
        _check_route_shape(cap, errors)
    _unique(pending, lambda c: c.id, "duplicate_id", lambda v: f"id '{v}'", errors)
    _unique(pending, lambda c: c.tool, "duplicate_mcp_name", lambda v: f"MCP tool '{v}'", errors)
    _unique(
        pending,
        lambda c: c.resource[0] if c.resource else None,
        "duplicate_mcp_uri",
        lambda v: f"MCP resource '{v}'",
        errors,
    )
    _unique(
        pending, lambda c: c.http, "duplicate_http_route", lambda v: f"route {v[0]} {v[1]}", errors
    )
    _unique(
        pending,
        lambda c: c.cli,
        "duplicate_cli_path",
        lambda v: "CLI path '" + " ".join(v) + "'",
        errors,
    )


#: The names `check_routes` gives one owner each besides the id, in the order of
#: `Registry.owners()`: MCP tool, MCP resource URI, HTTP route, CLI path.
SURFACES: tuple[Callable[[Route | Capability], Any], ...] = (
    lambda c: c.tool,
    lambda c: c.resource[0] if c.resource else None,
    lambda c: c.http,
    lambda c: c.cli,
)


def routes_still_pass(
    previous: Mapping[str, Route],
    owners: Sequence[Mapping[Any, str]],
    routed: Sequence[Route],
) -> bool:
    """Whether `routed` passes `check_routes`, known by checking only what is new in it.

    `previous` holds routes (by id) that passed together, `owners` their names per surface
    (`SURFACES`). A route found unchanged in `previous` passed its own checks, and two of
    them cannot clash, so each route not there is checked alone and its names against the
    rest. False means "not certain": `check_routes` then finds and words every error, so a
    re-index reports what a build from scratch reports."""
    by_id = {r.id: r for r in routed}
    if len(by_id) != len(routed):
        return False
    added = [r for r in routed if previous.get(r.id) is not r]
    errors: list[RegistryError] = []
    for cap in added:
        _check_id(cap, errors)
        _check_exposure(cap, errors)
        _check_route_shape(cap, errors)
    if errors:
        return False
    for key, owner in zip(SURFACES, owners, strict=True):
        claimed: set[Any] = set()
        for cap in added:
            value = key(cap)
            if value is None:
                continue
            if value in claimed:
                return False
            claimed.add(value)
            holder = owner.get(value)
            if holder is not None and holder != cap.id and by_id.get(holder) is previous[holder]:
                return False
    return True


def check_declaration(cap: Capability, errors: list[RegistryError]) -> None:
    """What a declaration adds to its route: a handler exactly when it runs, its stability,
    its benchmark waiver and its cache policy."""

    def shape(message: str) -> None:
        errors.append(RegistryError("shape", f"{cap.id}: {message}"))

    if cap.kind in ("query", "command") and cap.handler is None:
        shape(f"a {cap.kind} needs a handler")
    if cap.kind == "resource":
        if cap.handler is not None:
            shape("a resource has no handler")
        if cap.waived != "not_executable":
            shape("a resource's benchmark is waived as not_executable")
    elif cap.waived == "not_executable":
        shape("an executable capability cannot be waived as not_executable")
    if cap.waived is not None and cap.waived not in WAIVER_REASONS:
        shape(f"unknown benchmark waiver '{cap.waived}'")
    if cap.stability not in STABILITIES:
        shape(f"unknown stability '{cap.stability}'")
    elif cap.stability not in EXECUTABLE_STABILITIES and (
        cap.tool is not None or cap.http is not None or cap.cli is not None
    ):
        errors.append(
            RegistryError("not_executable", f"{cap.id}: {cap.stability} but exposed to run")
        )
    _check_cache(cap, errors)


def _check_cache(cap: Capability, errors: list[RegistryError]) -> None:
    policy = cap.cache
    if not policy.enabled:
        return
    if cap.kind == "command":
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: a command is never cached"))
    if policy.max_entries == 0:
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: max_entries is 0"))
    if policy.ttl_seconds == 0:
        errors.append(RegistryError("invalid_cache_policy", f"{cap.id}: ttl_seconds is 0"))


def signature_problem(cap: Capability) -> str | None:
    """Why the handler's annotations are not the declared types (its request parameter is
    the input type, its return the output type), or None when they are."""
    if cap.handler is None:
        return None
    from majordomus.capabilities.workspace import Workspace

    try:
        hints = typing.get_type_hints(cap.handler, localns={"Workspace": Workspace})
    except (NameError, TypeError) as exc:
        return f"its annotations do not resolve: {exc}"
    import inspect  # here: only a check that loads the declarations needs it

    names = list(inspect.signature(cap.handler).parameters)
    if len(names) != 2:
        return f"a handler takes (ctx, request), not {len(names)} parameter(s)"
    request, returned = hints.get(names[1]), hints.get("return")
    if request is not cap.input:
        return f"its request is {_name(request)}, not the declared input {_name(cap.input)}"
    if returned is not cap.output:
        return f"it returns {_name(returned)}, not the declared output {_name(cap.output)}"
    return None


def _name(annotation: Any) -> str:
    return getattr(annotation, "__name__", repr(annotation))


def check_types(cap: Capability, errors: list[RegistryError]) -> None:
    """The checks that need the declared types: a query exposed as a resource accepts `{}`
    (a resource read supplies no input), and an annotated handler's signature is the
    declared input and output."""
    if cap.kind == "query" and cap.resource is not None:
        required = [n for n, f in cap.input.model_fields.items() if f.is_required()]
        if required:
            errors.append(
                RegistryError(
                    "shape",
                    f"{cap.id}: a query exposed as a resource must accept {{}} "
                    f"(it requires {', '.join(required)})",
                )
            )
    if cap.handler is not None and getattr(cap.handler, "__annotations__", None):
        problem = signature_problem(cap)
        if problem is not None:
            errors.append(RegistryError("shape", f"{cap.id}: {problem}"))
