"""Reasoning modes: how much independent review a session may use, and why. Pure."""

from __future__ import annotations

from enum import StrEnum

from majordomus.wire import Wire

SOURCE_EXPLICIT = "MAJORDOMUS_REASONING_MODE"
SOURCE_CI = "CI"
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
        return ModeResolution(mode=mode, source=SOURCE_EXPLICIT)
    if ci:
        return ModeResolution(mode=ReasoningMode.CI, source=SOURCE_CI)
    if profile is not None:
        name, word = profile
        mode = ReasoningMode.parse(word) if word is not None else None
        if mode is not None:
            return ModeResolution(mode=mode, source=f"profile {name}")
    return ModeResolution(mode=ReasoningMode.default(), source=SOURCE_DEFAULT)
