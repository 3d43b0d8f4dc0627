"""Presence probes: the probe texts, absence words and the real machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from majordomus.advisors.availability import probe
from majordomus.advisors.catalogue import AdvisorDeclaration
from majordomus.advisors.situation import SystemPresence
from majordomus.advisors.states import AdvisorStatus
from tests.advisors.fakes import Everything, Only


def declared(transport: str, executable: str | None = None) -> AdvisorDeclaration:
    return AdvisorDeclaration(
        id="a", title="A", transport=transport, adapter="x", executable=executable
    )


@pytest.mark.parametrize(
    ("transport", "executable", "credential", "text", "status", "reason"),
    [
        ("api", None, "KEY", "credential variable KEY set", "not_configured", "credential_absent"),
        (
            "api",
            None,
            None,
            "no credential variable declared",
            "not_configured",
            "credential_undeclared",
        ),
        ("cli", "tool", None, "executable tool on PATH", "unavailable", "executable_not_found"),
        ("cli", None, None, "no executable declared", "unavailable", "executable_undeclared"),
        (
            "local_runtime",
            "rt",
            None,
            "executable rt on PATH",
            "unavailable",
            "executable_not_found",
        ),
        (
            "local_runtime",
            None,
            None,
            "no executable declared",
            "unavailable",
            "executable_undeclared",
        ),
        (
            "peer",
            None,
            None,
            "peers are discovered, not declared",
            "unavailable",
            "peer_declared_statically",
        ),
    ],
)
def test_probe_texts_and_absence(
    transport: str,
    executable: str | None,
    credential: str | None,
    text: str,
    status: str,
    reason: str,
) -> None:
    found = probe(declared(transport, executable), credential, Only())
    assert (found.text, found.present) == (text, False)
    assert (found.absent_status, found.absent_reason) == (AdvisorStatus(status), reason)


def test_presence_asks_only_what_the_transport_probes() -> None:
    fake = Everything()
    assert probe(declared("api"), "KEY", fake).present
    assert probe(declared("cli", "tool"), None, fake).present
    assert probe(declared("local_runtime", "rt"), None, fake).present
    assert not probe(declared("peer"), None, fake).present
    assert not probe(declared("cli"), None, fake).present
    assert fake.asked == [("variable", "KEY"), ("executable", "tool"), ("executable", "rt")]


def make_file(path: Path, mode: int) -> None:
    path.write_text("#!/bin/sh\n")
    os.chmod(path, mode)


def test_system_presence_searches_path(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    make_file(second / "tool", 0o755)
    make_file(first / "plain", 0o644)
    make_file(first / "group", 0o610)
    (first / "dir").mkdir()
    presence = SystemPresence({"PATH": os.pathsep.join(["", str(first), str(second)])})
    assert presence.executable("tool")
    assert presence.executable("group")
    assert not presence.executable("plain")
    assert not presence.executable("dir")
    assert not presence.executable("missing")
    assert not presence.executable(f"{second}/tool")
    assert not presence.executable("")
    assert not SystemPresence({}).executable("tool")


def test_system_presence_follows_a_link_to_an_executable(tmp_path: Path) -> None:
    make_file(tmp_path / "real", 0o755)
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    assert SystemPresence({"PATH": str(tmp_path)}).executable("alias")


def test_system_presence_variables_must_be_non_empty() -> None:
    presence = SystemPresence({"SET": "secret", "EMPTY": ""})
    assert presence.variable("SET")
    assert not presence.variable("EMPTY")
    assert not presence.variable("MISSING")
