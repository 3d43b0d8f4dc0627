"""With every pydantic plugin disabled, a command does not import what finding
plugins needs (majordomus/cli/entry.py): the answer is the same, the start shorter."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from majordomus.cli.entry import PLUGIN_LOADER, NoPluginLoader, without_pydantic_plugins
from majordomus.synthetic import SyntheticRepository, synthetic_ledger
from tests.test_startup import imported


def test_reasoning_status_imports_no_distribution_metadata(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    SyntheticRepository.new(at=root).commit()
    synthetic_ledger(root, 16)
    modules = imported(["reasoning", "status", "--format", "json"], root)
    assert "majordomus.ledger.record" in modules
    assert "importlib.metadata" not in modules


@pytest.fixture
def no_loader(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """pydantic's plugin loader not imported yet and the import finders as they were; whatever
    was there is back afterwards."""
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    saved = sys.modules.pop(PLUGIN_LOADER, None)
    yield
    sys.modules.pop(PLUGIN_LOADER, None)
    if saved is not None:
        sys.modules[PLUGIN_LOADER] = saved


@pytest.mark.usefixtures("no_loader")
def test_the_stand_in_loader_answers_no_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "__all__")
    without_pydantic_plugins()
    assert list(importlib.import_module(PLUGIN_LOADER).get_plugins()) == []


@pytest.mark.usefixtures("no_loader")
def test_a_named_plugin_setting_keeps_the_real_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "some-plugin")
    without_pydantic_plugins()
    assert not any(isinstance(finder, NoPluginLoader) for finder in sys.meta_path)
