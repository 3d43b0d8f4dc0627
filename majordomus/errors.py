"""Every error a surface must render, in one place (decision 12, capabilities §1.9).

Two families:
* `Fatal` — the run cannot proceed (no root, broken manifest, git unusable). Each carries
  the exit code of decision 12.
* `CapabilityError` — a handler declined or failed. Each carries its code word; surfaces
  map it to an HTTP status, an MCP result or a CLI exit code.

Handlers raise; they never print.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_CONTRACT = 10
EXIT_NOT_FOUND = 12
EXIT_REFUSED = 13


class Fatal(Exception):
    """A run-ending error with its exit code and a one-line message."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(Fatal):
    exit_code = EXIT_USAGE


class ContractUnmet(Fatal):
    """Invalid manifest / sources, degraded index under `--strict`, check findings."""

    exit_code = EXIT_CONTRACT


class MissingArtifact(Fatal):
    """No repository root, pre-`.ai` layout, a named thing that does not exist."""

    exit_code = EXIT_NOT_FOUND


class ProtocolFailure(Fatal):
    """Git unusable, I/O errors, invalid embedded data: refused / internal."""

    exit_code = EXIT_REFUSED


class CapabilityError(Exception):
    """A transport-neutral handler error; `display` is `<words>: <message>`."""

    code = "internal"
    words = "internal"
    http_status = 500
    exit_code = EXIT_REFUSED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def display(self) -> str:
        return f"{self.words}: {self.message}"


class InvalidInput(CapabilityError):
    code, words, http_status = "invalid_input", "invalid input", 400


class NotFound(CapabilityError):
    code, words, http_status, exit_code = "not_found", "not found", 404, EXIT_NOT_FOUND


class Refused(CapabilityError):
    code, words, http_status = "refused", "refused", 422


class Forbidden(CapabilityError):
    code, words, http_status = "forbidden", "forbidden", 403


class Internal(CapabilityError):
    code, words, http_status = "internal", "internal", 500


def describe_validation(exc: object) -> str:
    """One line naming every field a pydantic ValidationError complains about."""
    errors = getattr(exc, "errors", None)
    if errors is None:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    parts = []
    for err in errors(include_url=False, include_context=False, include_input=False):
        where = ".".join(str(p) for p in err.get("loc", ())) or "input"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid input"
