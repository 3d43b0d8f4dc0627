"""Root search: nearest `.ai/manifest.yaml`, legacy layout, not found."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.errors import EXIT_NOT_FOUND, EXIT_REFUSED
from majordomus.layer.index import open_layer
from majordomus.layer.manifest import InvalidManifest
from majordomus.layer.root import LayerIOError, LegacyLayout, RepositoryNotFound, find_root
from tests.conftest import FIXTURES
from tests.layer.support import write


def _layer(root: Path, manifest: str = "schema: ai-repository/v1\n") -> Path:
    (root / ".ai").mkdir(parents=True)
    (root / ".ai" / "manifest.yaml").write_text(manifest)
    return root


def test_the_root_itself_and_any_directory_below_find_it(tmp_path: Path) -> None:
    root = _layer(tmp_path / "repo")
    deep = root / "a" / "b"
    deep.mkdir(parents=True)
    assert find_root(root) == root.resolve()
    assert find_root(deep) == root.resolve()


def test_the_nearest_ancestor_wins(tmp_path: Path) -> None:
    outer = _layer(tmp_path / "outer")
    inner = _layer(outer / "inner")
    assert find_root(inner / ".ai") == inner.resolve()


def test_a_broken_nearest_manifest_stops_the_search(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    (outer / ".ai").symlink_to(FIXTURES / "layers" / "healthy" / ".ai")
    inner = _layer(outer / "inner", "schema: [\n\tbad\n")
    with pytest.raises(InvalidManifest, match="tab character on line 2"):
        open_layer(inner)


def test_a_manifest_directory_is_not_a_marker_and_git_is_not_either(tmp_path: Path) -> None:
    (tmp_path / "x" / ".ai" / "manifest.yaml").mkdir(parents=True)
    (tmp_path / "x" / ".git").mkdir()
    with pytest.raises(RepositoryNotFound):
        find_root(tmp_path / "x")


def test_not_found_names_the_start_and_exits_12(tmp_path: Path) -> None:
    with pytest.raises(RepositoryNotFound) as caught:
        find_root(tmp_path)
    assert caught.value.exit_code == EXIT_NOT_FOUND
    assert caught.value.message.startswith(
        f"no Majordomus repository found from {tmp_path.resolve()}"
    )
    assert ".ai/manifest.yaml" in caught.value.message


def test_legacy_layout_is_refused_with_exit_12(tmp_path: Path) -> None:
    (tmp_path / "old" / ".majordomus").mkdir(parents=True)
    with pytest.raises(LegacyLayout) as caught:
        find_root(tmp_path / "old")
    assert caught.value.exit_code == EXIT_NOT_FOUND
    assert str(tmp_path.resolve() / "old" / ".majordomus") in caught.value.message
    assert "majordomus migrate" in caught.value.message


def test_a_majordomus_checkout_is_not_legacy(tmp_path: Path) -> None:
    root = _layer(tmp_path / "repo")
    write(root, "sub/.majordomus/bin/majordomus", "#!/bin/sh\n")
    assert find_root(root / "sub") == root.resolve()


def test_a_missing_start_is_an_io_error(tmp_path: Path) -> None:
    with pytest.raises(LayerIOError) as caught:
        find_root(tmp_path / "nope")
    assert caught.value.exit_code == EXIT_REFUSED


def test_symlinked_start_is_canonicalised(tmp_path: Path) -> None:
    root = _layer(tmp_path / "repo")
    (tmp_path / "link").symlink_to(root)
    assert find_root(tmp_path / "link") == root.resolve()
