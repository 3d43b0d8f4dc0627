"""Reading the reasoning settings of one request from its environment snapshot and profile.

Never writes, never looks at the value of a credential variable."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from majordomus.advisors.modes import ModeResolution, resolve_mode
from majordomus.safefs import CONFIG_LIMIT, Unsafe, read_file

ENV_MODE = "MAJORDOMUS_REASONING_MODE"
ENV_CI = "CI"
ENV_DISABLE = "MAJORDOMUS_ADVISORS_DISABLE"
ENV_COOLDOWN = "MAJORDOMUS_REASONING_COOLDOWN_SECONDS"
CURRENT_FILE = ".ai/local/state/current.yaml"
PROFILES_DIR = ".ai/repo/profiles"
DISABLE_ALL = "all"

_SIGNED_INT = re.compile(r"[+-]?[0-9]+")


def explicit_mode(environ: Mapping[str, str]) -> str | None:
    """The raw `MAJORDOMUS_REASONING_MODE` word unless blank; parsing trims it later."""
    value = environ.get(ENV_MODE)
    return value if value is not None and value.strip() else None


def is_ci(environ: Mapping[str, str]) -> bool:
    """A CI runner: `CI` not blank and its raw value neither `false` nor `0`."""
    value = environ.get(ENV_CI)
    return value is not None and bool(value.strip()) and value not in ("false", "0")


def profile_setting(root: Path | None) -> tuple[str, str | None] | None:
    """(profile name, its `reasoning:` word) from the current task, or None without a profile."""
    if root is None:
        return None
    name = _line_value(root, CURRENT_FILE, "profile:")
    if name is None:
        return None
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return (name, None)
    return (name, _line_value(root, f"{PROFILES_DIR}/{name}.yaml", "reasoning:"))


def mode_from_environment(environ: Mapping[str, str], root: Path | None) -> ModeResolution:
    """`resolve_mode` over the environment snapshot and the current profile."""
    return resolve_mode(explicit_mode(environ), is_ci(environ), profile_setting(root))


def disabled_list(environ: Mapping[str, str]) -> list[str]:
    """`MAJORDOMUS_ADVISORS_DISABLE` split on commas, trimmed, empties dropped."""
    raw = environ.get(ENV_DISABLE, "")
    return [part.strip() for part in raw.split(",") if part.strip()]


def cooldown_override(environ: Mapping[str, str]) -> int | None:
    """`MAJORDOMUS_REASONING_COOLDOWN_SECONDS` as a signed integer; anything else is None."""
    raw = environ.get(ENV_COOLDOWN)
    if raw is None or not _SIGNED_INT.fullmatch(raw):
        return None
    return int(raw)


def _line_value(root: Path, rel: str, prefix: str) -> str | None:
    """The value of the first line starting with `prefix`; None when not safely readable."""
    try:
        text = read_file(root, rel, CONFIG_LIMIT).decode("utf-8")
    except (Unsafe, UnicodeDecodeError):
        return None
    for line in text.split("\n"):
        if line.startswith(prefix):
            return line[len(prefix) :].strip().strip('"')
    return None
