"""Object URIs percent-encode what a path segment may not hold; both forms find the object."""

from __future__ import annotations

import pytest

from majordomus.layer.uris import candidates, encode_identity, object_uri, unnamable


@pytest.mark.parametrize(
    ("identity", "encoded"),
    [
        ("project.no-secrets@1", "project.no-secrets@1"),
        ("docs/Meeting notes.md", "docs/Meeting%20notes.md"),
        ("100% #1?.md", "100%25%20%231%3F.md"),
        ("Ünï.md", "%C3%9Cn%C3%AF.md"),
        ("a\tb", "a%09b"),
        ("a~b_c-d.e!$&'()*+,;=:@", "a~b_c-d.e!$&'()*+,;=:@"),
    ],
)
def test_encoding(identity: str, encoded: str) -> None:
    assert encode_identity(identity) == encoded
    assert object_uri("document", identity) == "majordomus://document/" + encoded


def test_candidates_try_the_canonical_form_first() -> None:
    canonical = "majordomus://document/docs/Meeting%20notes.md"
    assert candidates(canonical)[0] == canonical
    assert candidates("majordomus://document/docs/Meeting notes.md")[1] == canonical
    # a literal `%20` in a path is the decoded form of `%2520`
    assert "majordomus://document/a%2520b.md" in candidates("majordomus://document/a%20b.md")
    assert candidates("majordomus://repository") == ["majordomus://repository"]
    assert candidates("not a uri") == ["not a uri"]


def test_what_cannot_name_an_object() -> None:
    assert unnamable("docs/Meeting notes.md") is None
    assert unnamable("") is not None
    assert unnamable("a\nb") is not None
    assert unnamable("a\udcffb") is not None


def test_inspect_still_reports_when_the_registry_does_not_build(tmp_path) -> None:
    from majordomus.capabilities.registry import RegistryBuildFailed, RegistryError
    from majordomus.capabilities.workspace import Workspace
    from majordomus.mcp.listing import inspect_report
    from tests.conftest import initialised_repo

    class Broken(Workspace):
        @property
        def registry(self):  # type: ignore[override]
            raise RegistryBuildFailed([RegistryError("duplicate_id", "id 'x.y' is claimed twice")])

    report = inspect_report(Broken(initialised_repo(tmp_path / "repo")), read_only=False)
    assert report["repository"]["state"] == "degraded"
    assert report["repository"]["diagnostics"][-1] == {
        "severity": "error",
        "code": "registry_error",
        "message": "duplicate_id: id 'x.y' is claimed twice",
    }
    assert report["resources"] == [] and report["tools"] == []
