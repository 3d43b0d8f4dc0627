"""Modes and their sources: `resolve_mode` and reading one request's settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.advisors.modes import (
    ModeResolution,
    ReasoningMode,
    cooldown_override,
    disabled_list,
    is_ci,
    mode_from_environment,
    profile_setting,
    resolve_mode,
)
from tests.layer.support import write


def test_mode_words_and_parse() -> None:
    assert [m.value for m in ReasoningMode] == ["offline", "ci", "fast", "standard", "strict"]
    assert ReasoningMode.parse("  strict \n") is ReasoningMode.STRICT
    assert ReasoningMode.parse("Strict") is None
    assert ReasoningMode.parse("loud") is None


@pytest.mark.parametrize(
    ("explicit", "ci", "profile", "expected"),
    [
        ("offline", True, ("p", "strict"), (ReasoningMode.OFFLINE, "MAJORDOMUS_REASONING_MODE")),
        (" fast ", False, None, (ReasoningMode.FAST, "MAJORDOMUS_REASONING_MODE")),
        ("loud", True, None, (ReasoningMode.CI, "CI")),
        (None, True, ("implementation", "strict"), (ReasoningMode.CI, "CI")),
        (
            None,
            False,
            ("implementation", "strict"),
            (ReasoningMode.STRICT, "profile implementation"),
        ),
        ("loud", False, ("p", "shouting"), (ReasoningMode.STANDARD, "default")),
        (None, False, ("p", None), (ReasoningMode.STANDARD, "default")),
        (None, False, None, (ReasoningMode.STANDARD, "default")),
    ],
)
def test_resolve_mode_precedence(
    explicit: str | None,
    ci: bool,
    profile: tuple[str, str | None] | None,
    expected: tuple[ReasoningMode, str],
) -> None:
    assert resolve_mode(explicit, ci, profile) == ModeResolution(
        mode=expected[0], source=expected[1]
    )


def test_mode_resolution_json() -> None:
    resolution = ModeResolution(mode=ReasoningMode.CI, source="CI")
    assert resolution.wire() == {"mode": "ci", "source": "CI"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        ("", False),
        ("  ", False),
        ("false", False),
        ("0", False),
        ("true", True),
        ("1", True),
        ("FALSE", True),
        (" 0", True),
        ("yes", True),
    ],
)
def test_ci_detection(value: str | None, expected: bool) -> None:
    environ = {} if value is None else {"CI": value}
    assert is_ci(environ) is expected


def test_profile_from_the_current_task(tmp_path: Path) -> None:
    assert profile_setting(None) is None
    assert profile_setting(tmp_path) is None
    write(tmp_path, ".ai/local/state/current.yaml", "id: task-1\n")
    assert profile_setting(tmp_path) is None
    write(tmp_path, ".ai/local/state/current.yaml", 'id: task-1\nprofile:  "review" \n')
    assert profile_setting(tmp_path) == ("review", None)
    write(tmp_path, ".ai/repo/profiles/review.yaml", "id: review\n")
    assert profile_setting(tmp_path) == ("review", None)
    write(
        tmp_path,
        ".ai/repo/profiles/review.yaml",
        'id: review\nreasoning: "strict"\nreasoning: ci\n',
    )
    assert profile_setting(tmp_path) == ("review", "strict")


def test_only_lines_starting_with_the_key_count(tmp_path: Path) -> None:
    write(tmp_path, ".ai/local/state/current.yaml", "  profile: indented\nprofile: real\n")
    write(tmp_path, ".ai/repo/profiles/real.yaml", "# reasoning: fast\nreasoning: fast\n")
    assert profile_setting(tmp_path) == ("real", "fast")


def test_a_profile_name_never_leaves_the_profiles_directory(tmp_path: Path) -> None:
    write(tmp_path, ".ai/local/state/current.yaml", "profile: ../../x\n")
    write(tmp_path, "x.yaml", "reasoning: strict\n")
    assert profile_setting(tmp_path) == ("../../x", None)


def test_mode_from_environment_sources(tmp_path: Path) -> None:
    write(tmp_path, ".ai/local/state/current.yaml", "profile: review\n")
    write(tmp_path, ".ai/repo/profiles/review.yaml", "reasoning: strict\n")
    assert mode_from_environment({}, tmp_path) == ModeResolution(
        mode=ReasoningMode.STRICT, source="profile review"
    )
    assert mode_from_environment({"CI": "true"}, tmp_path).source == "CI"
    explicit = {"CI": "true", "MAJORDOMUS_REASONING_MODE": " offline "}
    assert mode_from_environment(explicit, tmp_path).mode is ReasoningMode.OFFLINE
    assert mode_from_environment({"MAJORDOMUS_REASONING_MODE": "loud"}, None) == ModeResolution(
        mode=ReasoningMode.STANDARD, source="default"
    )
    assert mode_from_environment({"MAJORDOMUS_REASONING_MODE": "  "}, None).source == "default"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, []), ("", []), ("a", ["a"]), (" a , ,b,, all ", ["a", "b", "all"])],
)
def test_disabled_list(value: str | None, expected: list[str]) -> None:
    environ = {} if value is None else {"MAJORDOMUS_ADVISORS_DISABLE": value}
    assert disabled_list(environ) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("60", 60),
        ("-5", -5),
        ("+7", 7),
        ("0", 0),
        (" 60", None),
        ("1_000", None),
        ("1.5", None),
        ("soon", None),
        ("", None),
    ],
)
def test_cooldown_override(value: str | None, expected: int | None) -> None:
    environ = {} if value is None else {"MAJORDOMUS_REASONING_COOLDOWN_SECONDS": value}
    assert cooldown_override(environ) == expected
