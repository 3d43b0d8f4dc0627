"""Command-line conventions people expect: `-h`, `help`, global options everywhere,
`init --extend`, log levels, one summary line for diagnostics, empty listings, short ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git, initialised_repo, make_git_repo, run_majordomus

GLOBAL = ("--repo", "--discovery", "--strict", "--format", "--log-level", "--quiet")


def test_dash_h_and_help_print_the_help(tmp_path: Path) -> None:
    for args in (["-h"], ["--help"], ["help"]):
        done = run_majordomus(args, cwd=tmp_path)
        assert done.code == 0, (args, done.stderr)
        assert done.stdout.startswith("Usage: majordomus [OPTIONS] COMMAND")
    sub = run_majordomus(["help", "objects", "list"], cwd=tmp_path)
    assert sub.code == 0 and sub.stdout.startswith("Usage: majordomus objects list")
    assert sub.stdout == run_majordomus(["objects", "list", "-h"], cwd=tmp_path).stdout
    bad = run_majordomus(["help", "nonsense"], cwd=tmp_path)
    assert bad.code == 2 and "unrecognized subcommand 'nonsense'" in bad.stderr


@pytest.mark.parametrize(
    "words", [["init"], ["demo"], ["generate"], ["lint"], ["new", "issue"], ["objects", "list"]]
)
def test_every_help_shows_the_global_options(tmp_path: Path, words: list[str]) -> None:
    done = run_majordomus([*words, "-h"], cwd=tmp_path)
    assert done.code == 0, done.stderr
    for option in GLOBAL:
        assert option in done.stdout, (words, option)


def test_init_extend_adds_only_what_is_missing(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", commit=False)
    assert run_majordomus(["init"], cwd=root).code == 0
    refused = run_majordomus(["init"], cwd=root)
    assert refused.code == 13 and "init --extend" in refused.stderr
    readme = root / ".ai" / "README.md"
    readme.write_text("mine\n", encoding="utf-8")
    (root / ".ai/repo/prompts/continue.md").unlink()
    done = run_majordomus(["init", "--extend"], cwd=root)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[0] == "created     .ai/repo/prompts/continue.md"
    assert readme.read_text(encoding="utf-8") == "mine\n"
    again = run_majordomus(["init", "--extend"], cwd=root)
    assert again.code == 0 and again.stdout == "complete    nothing was missing\n"


def test_diagnostics_are_one_summary_line_unless_asked(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo",
        {
            ".ai/repo/project/issues/I1.yaml": "id: I1\nstatus: open\n",
            ".ai/repo/project/issues/I2.yaml": "id: I2\nowner: x\nextra: 1\n",
        },
    )
    done = run_majordomus(["objects", "list", "--kind", "rule"], cwd=root)
    assert done.code == 0
    assert done.stderr.splitlines() == [
        "majordomus[WARN] index built objects=12 diagnostics=2 errors=2 warnings=0 "
        "state=degraded; `majordomus lint` lists them"
    ]
    assert run_majordomus(["objects", "list", "-q"], cwd=root).stderr == ""
    assert run_majordomus(["objects", "list"], cwd=root, env={"MAJORDOMUS_LOG": "off"}).stderr == ""
    debug = run_majordomus(["objects", "list", "--log-level", "debug"], cwd=root).stderr
    assert debug.count("unknown_key") == 2


def test_an_empty_kind_is_count_0(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    done = run_majordomus(["objects", "list", "--kind", "issue"], cwd=root)
    assert (done.code, done.stdout) == (0, "count 0\n")
    as_json = run_majordomus(["objects", "list", "--kind", "issue", "--format", "json"], cwd=root)
    assert json.loads(as_json.stdout) == {"count": 0, "objects": []}


def test_short_ids_stand_for_uris(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo",
        {
            ".ai/repo/project/issues/I0001.yaml": "id: I0001\ntitle: One\n",
            ".ai/repo/project/milestones/I0001.yaml": "id: I0001\ntitle: Same id\n",
        },
    )
    for short in ("majordomus.scope-integrity", "rule/majordomus.scope-integrity@1", "continue"):
        done = run_majordomus(["objects", "get", short, "--format", "json"], cwd=root)
        assert done.code == 0, (short, done.stderr)
    got = json.loads(
        run_majordomus(["objects", "get", "continue", "--format", "json"], cwd=root).stdout
    )
    assert got["uri"] == "majordomus://prompt/continue"
    ambiguous = run_majordomus(["objects", "get", "I0001"], cwd=root)
    assert ambiguous.code == 13
    assert "majordomus://issue/I0001" in ambiguous.stderr
    assert "majordomus://milestone/I0001" in ambiguous.stderr
    assert run_majordomus(["objects", "get", "issue/I0001"], cwd=root).code == 0
    missing = run_majordomus(["objects", "get", "nothing-here"], cwd=root)
    assert missing.code == 12
    compiled = run_majordomus(
        ["devcontext", "compile", "--uri", "continue", "--format", "json"], cwd=root
    )
    assert compiled.code == 0, compiled.stderr
    seeds = [seed["uri"] for seed in json.loads(compiled.stdout)["seeds"]]
    assert seeds == ["majordomus://prompt/continue"]
    explained = run_majordomus(
        ["devcontext", "explain", "majordomus.scope-integrity", "--uri", "continue"], cwd=root
    )
    assert explained.code == 0, explained.stderr
    assert "majordomus://rule/majordomus.scope-integrity@1" in explained.stdout
    assert run_majordomus(["devcontext", "compile", "--uri", "I0001"], cwd=root).code == 13


def test_completion_offers_kinds_uris_and_ids(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo", {".ai/repo/project/issues/I0007.yaml": "id: I0007\n"}
    )
    git(root, "add", "-A")

    def complete(words: str) -> list[str]:
        env = {
            "_MAJORDOMUS_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
        }
        done = run_majordomus([], cwd=root, env=env)
        return [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]

    assert "issue" in complete("majordomus objects list --kind ")
    assert "majordomus://prompt/continue" in complete("majordomus objects get majordomus://p")
    assert complete("majordomus devcontext compile --issue I") == ["I0007"]
    assert "issue" in complete("majordomus schema ")


def test_completion_offers_what_a_shell_acts_on_quoted_and_lint_refuses_it_in_ids(
    tmp_path: Path,
) -> None:
    (tmp_path / "repo" / "docs").mkdir(parents=True)
    root = initialised_repo(
        tmp_path / "repo",
        {
            "docs/a;$(touch P).md": "# A\n",
            ".ai/repo/project/issues/I0007.yaml": "id: I1;$(touch${IFS}PWNED)\n",
        },
    )
    env = {
        "_MAJORDOMUS_COMPLETE": "bash_complete",
        "COMP_WORDS": "majordomus objects get majordomus://document/docs/a",
        "COMP_CWORD": "3",
    }
    done = run_majordomus([], cwd=root, env=env)
    assert done.stdout == "plain,'majordomus://document/docs/a;$(touch%20P).md'\n"
    linted = run_majordomus(["lint"], cwd=root)
    assert linted.code == 10
    assert "I0007.yaml — identity field 'id' holds 'I1;$(touch${IFS}PWNED)'" in linted.stdout
