"""Reasoning modes: how much independent review a session may use, and why, read from a request's
environment snapshot and profile (never written, and a credential variable's value never looked
at)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path

from majordomus.safefs import CONFIG_LIMIT, Unsafe, read_file
from majordomus.wire import Wire

ENV_MODE = "MAJORDOMUS_REASONING_MODE"
ENV_CI = "CI"
ENV_DISABLE = "MAJORDOMUS_ADVISORS_DISABLE"
ENV_COOLDOWN = "MAJORDOMUS_REASONING_COOLDOWN_SECONDS"
CURRENT_FILE = ".ai/local/state/current.yaml"
PROFILES_DIR = ".ai/repo/profiles"
DISABLE_ALL = "all"
SOURCE_DEFAULT = "default"


class ReasoningMode(StrEnum):
    """`ci` disables every advisor, `offline` every remote one; the rest set the budget."""

    OFFLINE = "offline"
    CI = "ci"
    FAST = "fast"
    STANDARD = "standard"
    STRICT = "strict"

    @classmethod
    def default(cls) -> ReasoningMode:
        return cls.STANDARD

    @classmethod
    def parse(cls, word: str) -> ReasoningMode | None:
        """The mode a word names once trimmed; anything else is None (never an error)."""
        try:
            return cls(word.strip())
        except ValueError:
            return None


class ModeResolution(Wire):
    """The mode in force and what decided it, carried by plans and reports alike."""

    mode: ReasoningMode
    source: str


def resolve_mode(
    explicit: str | None, ci: bool, profile: tuple[str, str | None] | None
) -> ModeResolution:
    """Explicit word, then a CI runner, then the profile's word, then `standard`; a
    misspelt word is skipped, so it never stops a run."""
    mode = ReasoningMode.parse(explicit) if explicit is not None else None
    if mode is not None:
        return ModeResolution(mode=mode, source=ENV_MODE)
    if ci:
        return ModeResolution(mode=ReasoningMode.CI, source=ENV_CI)
    if profile is not None:
        name, word = profile
        mode = ReasoningMode.parse(word) if word is not None else None
        if mode is not None:
            return ModeResolution(mode=mode, source=f"profile {name}")
    return ModeResolution(mode=ReasoningMode.default(), source=SOURCE_DEFAULT)


_SIGNED_INT = re.compile(r"[+-]?[0-9]+")


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
    """`resolve_mode` over the environment snapshot and the current profile; the raw
    `MAJORDOMUS_REASONING_MODE` word counts unless blank (parsing trims it later)."""
    word = environ.get(ENV_MODE)
    explicit = word if word is not None and word.strip() else None
    return resolve_mode(explicit, is_ci(environ), profile_setting(root))


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
