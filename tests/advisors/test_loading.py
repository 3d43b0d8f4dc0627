"""Which catalogue file is used (the packaged one, or a tracked `.ai/repo/advisors.yaml`), and
how an invalid one is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.advisors.loading import (
    OVERRIDE_FILE,
    PACKAGED_CATALOGUE,
    CatalogueError,
    load_catalogue,
    load_references,
)
from majordomus.advisors.references import MODELS_FILE, PROVIDERS_FILE
from tests.layer.support import write

OVERRIDE = (
    "version: 2\ncapabilities:\n  - id: code_review\n    description: x\nadvisors:\n"
    "  - id: a\n    title: A\n    transport: cli\n    adapter: a-cli\n    executable: a\n"
    "    capabilities: [code_review]\n"
)


def write_override(root: Path, text: str | bytes) -> None:
    write(root, OVERRIDE_FILE, text)


def test_without_an_override_the_packaged_default_is_used(tmp_path: Path) -> None:
    loaded = load_catalogue(tmp_path)
    assert loaded.source == PACKAGED_CATALOGUE == "majordomus/advisors/data/advisors.yaml"
    assert loaded.catalogue.version == 1
    assert load_catalogue(None).source == PACKAGED_CATALOGUE


def test_the_repository_override_replaces_the_default(tmp_path: Path) -> None:
    write_override(tmp_path, OVERRIDE)
    loaded = load_catalogue(tmp_path)
    assert loaded.source == ".ai/repo/advisors.yaml"
    assert loaded.catalogue.version == 2
    assert [a.id for a in loaded.catalogue.advisors] == ["a"]
    assert loaded.references == load_references()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "version: 1\nquorum: 2\n",
            ".ai/repo/advisors.yaml: quorum: is not a field here",
        ),
        ("version: one\n", ".ai/repo/advisors.yaml: version: must be a whole number"),
        ("version: 1\n\tadvisors: []\n", ".ai/repo/advisors.yaml: tab character on line 2"),
        ("", ".ai/repo/advisors.yaml: version: is required"),
        (
            "version: 1\nadvisors:\n  - id: a\n    title: A\n    transport: cli\n"
            "    adapter: x\n    colour: red\n",
            ".ai/repo/advisors.yaml: advisors[0].colour: is not a field here",
        ),
        (b"version: 1\nnote: \xff\n", ".ai/repo/advisors.yaml: the file is not UTF-8 text"),
    ],
)
def test_an_invalid_override_names_the_file_and_the_problem(
    tmp_path: Path, text: str | bytes, message: str
) -> None:
    write_override(tmp_path, text)
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(tmp_path)
    assert str(caught.value) == message
    assert caught.value.message == message and message.startswith(f"{OVERRIDE_FILE}: ")
    assert str(tmp_path) not in str(caught.value)


def test_an_override_that_is_a_directory_is_not_a_catalogue(tmp_path: Path) -> None:
    (tmp_path / OVERRIDE_FILE).mkdir(parents=True)
    assert load_catalogue(tmp_path).source == PACKAGED_CATALOGUE


def test_the_packaged_references() -> None:
    refs = load_references()
    assert refs.models.version == 1
    assert len(refs.providers) == 2
    assert PROVIDERS_FILE == "majordomus/advisors/data/providers.yaml"
    assert MODELS_FILE == "majordomus/advisors/data/models.yaml"
