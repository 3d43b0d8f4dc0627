"""Every error a surface must render, in one place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError

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


class CapabilityError(Exception):
    """A transport-neutral handler error; `display` is `<words>: <message>`. `cli` is the
    message as the command line says it, where it names what to run next."""

    code = "internal"
    words = "internal"
    http_status = 500
    exit_code = EXIT_REFUSED

    def __init__(self, message: str, *, cli: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.cli = message if cli is None else cli

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


#: Plain words for the validation library's error types; the library's own sentences speak of
#: its internals ("Input should be", "Extra inputs are not permitted") and never reach a user.
_WORDS: dict[str, str] = {
    "missing": "is required",
    "extra_forbidden": "is not a field here",
    "string_type": "must be a string",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_parsing_size": "is too large a number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "set_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "dataclass_type": "must be an object",
    "none_required": "must be null",
    "json_invalid": "is not valid JSON",
    "json_type": "must be JSON text",
    "string_unicode": "must be valid text",
    "string_pattern_mismatch": "is not in the expected form",
    "unexpected_keyword_argument": "is not a field here",
    "missing_keyword_only_argument": "is required",
}


def plain_words(err: Mapping[str, Any]) -> str:
    """What is wrong with one value, in words a user reads without knowing the library."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected', 'the listed words')}"
    if kind == "union_tag_not_found":
        return f"has no {ctx.get('discriminator', 'tag')} saying which shape it is"
    if kind == "union_tag_invalid":
        return (
            f"{ctx.get('discriminator', 'the tag')} '{ctx.get('tag', '')}' is not one of "
            f"{ctx.get('expected_tags', 'the known ones')}"
        )
    bounds = {
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("more than", "gt"),
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        return f"must be {words} {ctx.get(key, '')}".rstrip()
    if kind in ("string_too_short", "string_too_long"):
        side = "at least" if kind.endswith("short") else "at most"
        return f"must be {side} {ctx.get('min_length', ctx.get('max_length', ''))} characters"
    if kind in ("too_short", "too_long"):
        side = "at least" if kind == "too_short" else "at most"
        return f"must hold {side} {ctx.get('min_length', ctx.get('max_length', ''))} items"
    if kind in ("value_error", "assertion_error"):
        error = ctx.get("error")
        return str(error) if error is not None else "is not valid"
    return _WORDS.get(kind, "is not valid")


def field_path(loc: Sequence[str | int]) -> str:
    """`evidence[0].kind`: keys joined by dots, list positions in brackets."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


def describe_validation(exc: ValidationError) -> str:
    """One line naming every field a validation error complains about, in plain words."""
    parts = []
    for err in exc.errors(include_url=False, include_input=False):
        where = field_path(tuple(err.get("loc", ())))
        words = plain_words(err)
        parts.append(f"{where}: {words}" if where else words)
    return "; ".join(dict.fromkeys(parts)) or "invalid input"
