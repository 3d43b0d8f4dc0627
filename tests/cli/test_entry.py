"""The switches a process sets as it starts (majordomus/cli/entry.py): no pydantic plugin
unless the user names which to skip, and no cyclic collector but in the servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import initialised_repo, run_majordomus

PLUGIN = """
import os
from pathlib import Path

Path(os.environ["SPY_MARKER"]).write_text("loaded")


class Spy:
    def new_schema_validator(self, *args, **kwargs):
        return None, None, None


plugin = Spy()
"""


def installed_spy(site: Path) -> Path:
    """A distribution on `site` whose `pydantic` entry point marks that it was loaded."""
    site.mkdir()
    (site / "spy_plugin.py").write_text(PLUGIN)
    info = site / "spy_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: spy-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nspy = spy_plugin:plugin\n")
    return site


def status_beside_a_spy(tmp_path: Path, env: dict[str, str]) -> Path:
    """`reasoning status` run with the spy plugin installed; the marker it writes if loaded."""
    repo = initialised_repo(tmp_path / "repo")
    marker = tmp_path / "marker"
    site = installed_spy(tmp_path / "site")
    done = run_majordomus(
        ["reasoning", "status", "--format", "json"],
        cwd=repo,
        env={"PYTHONPATH": str(site), "SPY_MARKER": str(marker), **env},
    )
    assert done.code == 0, done.stderr
    return marker


def test_no_pydantic_plugin_is_loaded(tmp_path: Path) -> None:
    assert not status_beside_a_spy(tmp_path, {}).exists()


def test_the_users_own_plugin_setting_is_kept(tmp_path: Path) -> None:
    marker = status_beside_a_spy(tmp_path, {"PYDANTIC_DISABLE_PLUGINS": "some-other-plugin"})
    assert marker.read_text() == "loaded"


#: Imported by the interpreter as it starts (`sitecustomize` on `PYTHONPATH`): writes at exit
#: whether the collector was on.
COLLECTOR_SPY = """
import atexit, gc, os
from pathlib import Path

atexit.register(lambda: Path(os.environ["SPY_MARKER"]).write_text(str(gc.isenabled())))
"""


@pytest.mark.parametrize(
    ("args", "collects"),
    [
        (["reasoning", "status", "--format", "json"], False),
        (["objects", "list"], False),
        (["mcp", "--inspect"], False),
        (["--format", "json", "mcp", "--inspect"], False),
        (["mcp"], True),
        (["--repo", ".", "--log-level", "warn", "mcp"], True),
        (["--quiet", "mcp"], True),
    ],
)
def test_only_the_servers_keep_the_cyclic_collector(
    tmp_path: Path, args: list[str], collects: bool
) -> None:
    repo = initialised_repo(tmp_path / "repo")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(COLLECTOR_SPY)
    marker = tmp_path / "marker"
    done = run_majordomus(
        args, cwd=repo, input="", env={"PYTHONPATH": str(site), "SPY_MARKER": str(marker)}
    )
    assert done.code == 0, done.stderr
    assert marker.read_text() == str(collects)
