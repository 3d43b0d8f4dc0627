"""A majordomus process loads no pydantic plugin (majordomus/cli/entry.py): finding one
scans every installed distribution, and a plugin would see records before redaction. A
user who names which plugins to skip keeps that setting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import command_env, initialised_repo, run_majordomus

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


def test_no_pydantic_plugin_is_loaded(tmp_path: Path) -> None:
    repo = initialised_repo(tmp_path / "repo")
    marker = tmp_path / "marker"
    site = installed_spy(tmp_path / "site")
    done = run_majordomus(
        ["reasoning", "status", "--format", "json"],
        cwd=repo,
        env={"PYTHONPATH": str(site), "SPY_MARKER": str(marker)},
    )
    assert done.code == 0, done.stderr
    assert not marker.exists()


def test_the_users_own_plugin_setting_is_kept(tmp_path: Path) -> None:
    repo = initialised_repo(tmp_path / "repo")
    marker = tmp_path / "marker"
    site = installed_spy(tmp_path / "site")
    done = run_majordomus(
        ["reasoning", "status", "--format", "json"],
        cwd=repo,
        env={
            "PYTHONPATH": str(site),
            "SPY_MARKER": str(marker),
            "PYDANTIC_DISABLE_PLUGINS": "some-other-plugin",
        },
    )
    assert done.code == 0, done.stderr
    assert marker.read_text() == "loaded"


PROBE = (
    "import sys\n"
    "from majordomus.cli.entry import main\n"
    "sys.argv = ['majordomus', *sys.argv[1:]]\n"
    "code = main()\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write(f'\\nMETADATA {\"importlib.metadata\" in sys.modules}\\n')\n"
    "sys.exit(code)\n"
)


def test_with_every_plugin_off_no_plugin_is_looked_for(tmp_path: Path) -> None:
    """pydantic's loader would import `importlib.metadata` only to find nothing to load."""
    repo = initialised_repo(tmp_path / "repo")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "reasoning", "status", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=command_env(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["task"] == "untasked"
    assert done.stderr.rstrip().endswith("METADATA False")
