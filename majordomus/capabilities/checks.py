"""The checks a capability declaration passes before any surface serves it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability

STABILITIES = (
    "implemented",
    "behaviorally_verified",
    "experimental",
    "planned",
    "unsupported",
)
EXECUTABLE_STABILITIES = STABILITIES[:3]
WAIVER_REASONS = ("destructive", "external_dependency", "transient_state")

_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]*\Z")
_TOOL = re.compile(r"[a-z0-9_]+\Z")
_ROUTE = re.compile(r"/api/v1/[A-Za-z0-9/_.-]*\Z")
_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class RegistryError:
    """One declaration problem; `code` is the snake_case word of docs/generated/capabilities.md"""

    code: str
    message: str


class RegistryBuildFailed(Exception):
    """The registry did not build; every error is listed, none hidden behind the first."""

    def __init__(self, errors: list[RegistryError]) -> None:
        super().__init__(
            f"{len(errors)} registry error(s): " + "; ".join(e.message for e in errors)
        )
        self.errors = errors


def check_registry(module_ids: Sequence[str], caps: Sequence[Capability]) -> None:
    """Every module and capability declaration checked; raises naming every error."""
    errors: list[RegistryError] = []
    _check_modules(module_ids, errors)
    _check_capabilities(caps, errors)
    for cap in caps:
        _check_declaration(cap, errors)
    if errors:
        raise RegistryBuildFailed(errors)


def _check_modules(module_ids: Sequence[str], errors: list[RegistryError]) -> None:
    """Each module id once and well formed."""
    seen: set[str] = set()
    for module_id in module_ids:
        if not _NAMESPACE.match(module_id) or module_id == "system":
            errors.append(RegistryError("invalid_module_id", f"'{module_id}' is not a module id"))
        if module_id in seen:
            errors.append(
                RegistryError("duplicate_module", f"module '{module_id}' is declared twice")
            )
        seen.add(module_id)


def _check_exposure(cap: Capability, errors: list[RegistryError]) -> None:
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
            bad("HTTP", f"path '{path}' is not an /api/v1/ route of non-empty segments")
        if cap.kind == "command" and method != "POST":
            bad("HTTP", "a command changes state and is bound to POST")
    if cap.cli is not None and (
        not cap.cli or any(not w or _SPACE_OR_CONTROL.search(w) for w in cap.cli)
    ):
        bad("CLI", f"path {list(cap.cli)} must be non-empty words without spaces")


def _check_id(cap: Capability, errors: list[RegistryError]) -> None:
    namespace, dot, local = cap.id.partition(".")
    if not dot or not _NAMESPACE.match(namespace) or not local or _SPACE_OR_CONTROL.search(cap.id):
        errors.append(RegistryError("invalid_id", f"'{cap.id}' is not <namespace>.<local>"))
    elif cap.module and namespace != cap.module:
        errors.append(
            RegistryError(
                "module_mismatch", f"{cap.id}: composed by module '{cap.module}', not '{namespace}'"
            )
        )


def _shape(cap: Capability, errors: list[RegistryError], message: str) -> None:
    errors.append(RegistryError("shape", f"{cap.id}: {message}"))


def _check_kind(cap: Capability, errors: list[RegistryError]) -> None:
    if cap.writes_repository and cap.kind != "command":
        _shape(cap, errors, "only a command may write the repository")
    if cap.kind == "command" and cap.resource is not None:
        _shape(cap, errors, "a command cannot be an MCP resource")


#: Each name a capability may claim, the error naming a second claim, and how it is quoted.
_OWNED: tuple[tuple[Callable[[Capability], Any], str, Callable[[Any], str]], ...] = (
    (lambda c: c.id, "duplicate_id", lambda v: f"id '{v}'"),
    (lambda c: c.tool, "duplicate_mcp_name", lambda v: f"MCP tool '{v}'"),
    (
        lambda c: c.resource[0] if c.resource else None,
        "duplicate_mcp_uri",
        lambda v: f"MCP resource '{v}'",
    ),
    (lambda c: c.http, "duplicate_http_route", lambda v: f"route {v[0]} {v[1]}"),
    (lambda c: c.cli, "duplicate_cli_path", lambda v: "CLI path '" + " ".join(v) + "'"),
)


def _check_capabilities(caps: Sequence[Capability], errors: list[RegistryError]) -> None:
    """Check each capability's identity and exposure, in id order, and that every name has
    one owner; ties of a repeated id are ordered by the handler's module."""
    pending = sorted(caps, key=lambda c: (c.id, getattr(c.handler, "__module__", "")))
    for cap in pending:
        _check_id(cap, errors)
        _check_exposure(cap, errors)
        _check_kind(cap, errors)
    for key, code, label in _OWNED:
        owners: dict[Any, Capability] = {}
        for cap in pending:
            value = key(cap)
            if value is None:
                continue
            if value in owners:
                message = f"{label(value)} is claimed by {owners[value].id} and {cap.id}"
                errors.append(RegistryError(code, message))
            else:
                owners[value] = cap


def _check_declaration(cap: Capability, errors: list[RegistryError]) -> None:
    """A declaration's stability, benchmark waiver, cache policy and types."""
    if cap.waived is not None and cap.waived not in WAIVER_REASONS:
        _shape(cap, errors, f"unknown benchmark waiver '{cap.waived}'")
    if cap.stability not in STABILITIES:
        _shape(cap, errors, f"unknown stability '{cap.stability}'")
    elif cap.stability not in EXECUTABLE_STABILITIES and (
        cap.tool is not None or cap.http is not None or cap.cli is not None
    ):
        errors.append(
            RegistryError("not_executable", f"{cap.id}: {cap.stability} but exposed to run")
        )
    _check_cache(cap, errors)
    _check_types(cap, errors)


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


def _check_types(cap: Capability, errors: list[RegistryError]) -> None:
    """The handler's annotations name its types, and a resource query accepts `{}`."""
    try:
        request = cap.input
    except (NameError, TypeError) as exc:
        _shape(cap, errors, f"its handler's types do not resolve: {exc}")
        return
    if cap.kind == "query" and cap.resource is not None:
        required = [n for n, f in request.model_fields.items() if f.is_required()]
        if required:
            errors.append(
                RegistryError(
                    "shape",
                    f"{cap.id}: a query exposed as a resource must accept {{}} "
                    f"(it requires {', '.join(required)})",
                )
            )
