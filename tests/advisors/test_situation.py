"""The advisors' situation of one request (resolved once, shared by every surface), with the
clock frozen."""

from __future__ import annotations

from pathlib import Path

from freezegun import freeze_time

from majordomus.advisors.loading import OVERRIDE_FILE
from majordomus.advisors.modes import ReasoningMode
from majordomus.advisors.outcomes import ConsultationStatus, Outcome
from majordomus.advisors.situation import resolve_advisors
from majordomus.advisors.states import AdvisorStatus
from majordomus.clock import epoch_seconds
from tests.layer.support import write

CATALOGUE = (
    "version: 1\ncapabilities:\n  - id: code_review\n    description: x\nadvisors:\n"
    "  - id: tool\n    title: Tool\n    transport: cli\n    adapter: tool-cli\n"
    "    executable: tool\n    capabilities: [code_review]\n"
    "  - id: other\n    title: Other\n    transport: cli\n    adapter: other-cli\n"
    "    capabilities: [code_review, poetry]\n"
)


def repo(tmp_path: Path) -> Path:
    write(tmp_path, OVERRIDE_FILE, CATALOGUE)
    write(tmp_path, "bin/tool", "#!/bin/sh\n").chmod(0o755)
    return tmp_path


def test_the_situation_gathers_catalogue_mode_states_and_diagnostics(tmp_path: Path) -> None:
    root = repo(tmp_path)
    environ = {"PATH": str(root / "bin"), "MAJORDOMUS_ADVISORS_DISABLE": "nobody"}
    situation = resolve_advisors(root, environ, now=0)
    assert situation.loaded.source == ".ai/repo/advisors.yaml"
    assert (situation.mode.mode, situation.mode.source) == (ReasoningMode.STANDARD, "default")
    assert [(s.id, s.status.value) for s in situation.states] == [
        ("tool", "available"),
        ("other", "unavailable"),
    ]
    assert (situation.available(), situation.unavailable()) == (1, 1)
    assert situation.diagnostics == [
        "advisor 'other' offers 'poetry', which the vocabulary does not declare",
        "advisor 'other' declares no executable, so its presence cannot be probed",
    ]


def test_circuits_close_as_the_clock_moves(tmp_path: Path) -> None:
    root = repo(tmp_path)
    environ = {"PATH": str(root / "bin")}
    at = epoch_seconds("2026-10-01T09:30:00Z")
    assert at is not None
    history = [
        Outcome(
            id="consultation-1",
            advisor="tool",
            status=ConsultationStatus.RATE_LIMITED,
            at=at,
            retry_after=120,
        )
    ]
    with freeze_time("2026-10-01T09:31:59Z"):
        tool = resolve_advisors(root, environ, history).states[0]
        assert tool.status is AdvisorStatus.RATE_LIMITED
        assert tool.circuit is not None and tool.circuit.until == "2026-10-01T09:32:00Z"
    with freeze_time("2026-10-01T09:32:00Z"):
        tool = resolve_advisors(root, environ, history).states[0]
        assert (tool.status, tool.recovering) == (AdvisorStatus.AVAILABLE, True)
