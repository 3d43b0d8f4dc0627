"""The pre-commit hooks driven by the real `pre-commit` tool: as a `repo: local` hook offline,
from this checkout (`repo:` + `rev:`) with `MAJORDOMUS_TEST_NETWORK=1`.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import FIXTURES, GIT_ENV, MAJORDOMUS, REPO_ROOT, git, make_git_repo

HOOKS_FILE = REPO_ROOT / ".pre-commit-hooks.yaml"
PRE_COMMIT = str(Path(MAJORDOMUS).with_name("pre-commit"))
CLAIM = (
    "FAIL claims    docs/review.md: asserts 'consensus proves', a claim the reasoning design "
    "refuses"
)
BROKEN = "FAIL records   t/broken.json: a reasoning record that does not parse"


def declared() -> dict[str, Any]:
    hooks = yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    return next(hook for hook in hooks if hook["id"] == "reasoning-check")


@pytest.mark.parametrize(
    ("hook_id", "entry"),
    [("reasoning-check", "majordomus reasoning check"), ("layer-lint", "majordomus lint")],
)
def test_the_hooks_are_declared(hook_id: str, entry: str) -> None:
    hooks = yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))
    hook = next(hook for hook in hooks if hook["id"] == hook_id)
    assert {k: hook[k] for k in ("entry", "language", "pass_filenames", "always_run")} == {
        "entry": entry,
        "language": "python",
        "pass_filenames": False,
        "always_run": True,
    }


def local_config() -> dict[str, Any]:
    hook = {**declared(), "language": "system"}
    return {"repos": [{"repo": "local", "hooks": [hook]}]}


def installed_config() -> dict[str, Any]:
    head = git(REPO_ROOT, "rev-parse", "HEAD").strip()
    hooks = [{"id": "reasoning-check"}, {"id": "layer-lint"}]
    return {"repos": [{"repo": str(REPO_ROOT), "rev": head, "hooks": hooks}]}


#: What a GUI git client or an IDE gives a hook: no virtual environment on PATH.
BARE_PATH = "/usr/bin:/bin"


def environment(home: Path, config: Any) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAJORDOMUS_", "GIT_"))}
    env.pop("CI", None)
    env.update(GIT_ENV)
    env["GIT_CONFIG_GLOBAL"] = os.devnull
    env["PRE_COMMIT_HOME"] = str(home)
    if config is installed_config:
        env["PATH"] = BARE_PATH
    else:
        env["PATH"] = f"{Path(MAJORDOMUS).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run a command; its output (git shows hook output on either stream) lands in `stdout`."""
    return subprocess.run(
        args,
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        check=False,
    )


def commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


@pytest.mark.parametrize(
    "config",
    [
        pytest.param(local_config, id="local"),
        pytest.param(
            installed_config,
            id="installed",
            marks=pytest.mark.skipif(
                os.environ.get("MAJORDOMUS_TEST_NETWORK") != "1",
                reason="installing the hook's environment fetches its dependencies from the "
                "package index; set MAJORDOMUS_TEST_NETWORK=1",
            ),
        ),
    ],
)
def test_a_finding_blocks_the_commit_and_a_clean_check_allows_it(
    tmp_path: Path, config: Any
) -> None:
    root = make_git_repo(tmp_path / "project", FIXTURES / "layers/planned")
    env = environment(tmp_path / "pre-commit-home", config)
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config()), encoding="utf-8")
    installed = run(root, env, PRE_COMMIT, "install")
    assert installed.returncode == 0, installed.stdout
    git(root, "add", ".pre-commit-config.yaml")
    first = run(root, env, "git", "commit", "-q", "-m", "Adopt the reasoning check")
    assert first.returncode == 0, first.stdout
    before = commits(root)

    (root / "docs").mkdir()
    (root / "docs" / "review.md").write_text("Here consensus proves the design.\n")
    git(root, "add", "docs/review.md")
    blocked = run(root, env, "git", "commit", "-m", "Claim too much")
    assert blocked.returncode != 0
    assert CLAIM in blocked.stdout.splitlines()
    assert "- exit code: 10" in blocked.stdout
    assert commits(root) == before

    (root / "docs" / "review.md").write_text("Evidence decides, never a count.\n")
    git(root, "add", "docs/review.md")
    allowed = run(root, env, "git", "commit", "-m", "Say what evidence decides")
    assert allowed.returncode == 0, allowed.stdout
    assert commits(root) == before + 1

    store = root / ".ai/local/state/reasoning/t"
    store.mkdir(parents=True)
    (store / "broken.json").write_text("{", encoding="utf-8")
    (root / "lib" / "note.txt").write_text("unrelated\n", encoding="utf-8")
    git(root, "add", "lib/note.txt")
    always = run(root, env, "git", "commit", "-m", "Touch an unrelated file")
    assert always.returncode != 0, "the hook runs whatever the commit touches"
    assert BROKEN in always.stdout.splitlines()
    assert commits(root) == before + 1
