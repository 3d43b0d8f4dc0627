"""Black-box tests of the core commands: the installed `majordomus` in temporary git repos."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_majordomus, witness


@pytest.fixture
def repo(git_repo) -> Path:
    return git_repo("layers/healthy")


def run(root: Path, *args: str, **kw):
    return run_majordomus(args, cwd=root, **kw)


def test_version_and_python_module(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = run(tmp_path, "--version")
    assert done.code == 0 and done.stdout.startswith("majordomus ")
    module = subprocess.run(
        [sys.executable, "-m", "majordomus", "--version"], capture_output=True, text=True
    )
    assert module.stdout == done.stdout


def test_usage_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    for args, needle in (
        (["nonsense"], "unrecognized subcommand 'nonsense'"),
        (["objects", "list", "--bogus"], "--bogus"),
        (["objects", "nonsense"], "unrecognized subcommand 'nonsense'"),
        (["--discovery", "carrier-pigeon", "objects", "list"], "carrier-pigeon"),
        ([], "missing subcommand"),
    ):
        done = run(tmp_path, *args)
        assert done.code == 2, args
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("majordomus: "), done.stderr
        assert needle in done.stderr


def test_help_lists_commands(tmp_path: Path) -> None:
    done = run(tmp_path, "--help")
    assert done.code == 0
    for word in ("mcp", "objects", "capabilities", "init", "demo", "reasoning", "devcontext"):
        assert f"\n  {word} " in done.stdout
    assert run(tmp_path, "mcp", "--help").stdout.startswith("Usage: majordomus mcp")


def test_missing_root_is_exit_12(tmp_path: Path) -> None:
    make_git_repo(tmp_path / "no-layer")
    done = run(tmp_path / "no-layer", "objects", "list")
    assert done.code == 12
    assert done.stderr.startswith("majordomus: no Majordomus repository found from ")
    assert run(tmp_path, "objects", "list", "--repo", str(tmp_path / "no-layer")).code == 12


def test_objects_list_get_search(repo: Path) -> None:
    before = witness(repo)
    listed = json.loads(run(repo, "objects", "list", "--format", "json").stdout)
    uris = [o["uri"] for o in listed["objects"]]
    assert listed["count"] == len(uris) and uris == sorted(uris)
    kinds = {o["kind"] for o in listed["objects"]}
    assert {"rule", "policy", "profile", "issue", "milestone"} <= kinds

    rules = json.loads(run(repo, "objects", "list", "--kind", "rule", "--format", "json").stdout)
    assert {o["kind"] for o in rules["objects"]} == {"rule"}
    text = run(repo, "objects", "list", "--kind", "rule").stdout
    assert text.splitlines()[0].startswith("majordomus://rule/")

    bad = run(repo, "objects", "list", "--kind", "nonsense")
    assert bad.code == 13
    assert "kind 'nonsense' is not among the kinds this repository has" in bad.stderr

    uri = rules["objects"][0]["uri"]
    view = json.loads(run(repo, "objects", "get", uri, "--format", "json").stdout)
    assert list(view)[:3] == ["source", "uri", "id"]
    assert view["source"] == "declarative" and view["uri"] == uri
    content = (repo / view["provenance"]["path"]).read_text()
    assert view["content"] == content
    header = f"uri         {uri}\npath        {view['provenance']['path']}\n\n"
    assert run(repo, "objects", "get", uri).stdout == header + content

    repository = json.loads(
        run(repo, "objects", "get", "majordomus://repository", "--format", "json").stdout
    )
    assert repository["source"] == "builtin" and repository["id"] == "repository.info"
    assert repository["answer"]["state"] == "ok"
    assert json.loads(repository["content"]) == repository["answer"]

    missing = run(repo, "objects", "get", "majordomus://rule/nothing@1")
    assert missing.code == 12
    assert (
        missing.stderr == "majordomus: not found: unknown resource: majordomus://rule/nothing@1\n"
    )

    found = json.loads(run(repo, "objects", "search", "RULE", "--format", "json").stdout)
    assert found["count"] >= 1 and found["limit"] == 20
    blank = run(repo, "objects", "search", "   ")
    assert blank.code == 13 and "must not be blank" in blank.stderr
    assert witness(repo) == before


def test_capabilities_list_describe_validate(repo: Path) -> None:
    listed = json.loads(run(repo, "capabilities", "list", "--format", "json").stdout)
    ids = [c["id"] for c in listed["capabilities"]]
    assert "repository.info" in ids and "input" not in listed["capabilities"][0]
    assert listed["count"] == listed["summary"]["total"] == len(ids)
    assert not any(c["kind"] == "resource" for c in listed["capabilities"])
    queries = json.loads(
        run(repo, "capabilities", "list", "--kind", "query", "--format", "json").stdout
    )
    assert {c["kind"] for c in queries["capabilities"]} == {"query"}
    described = json.loads(
        run(repo, "capabilities", "describe", "objects.get", "--format", "json").stdout
    )
    assert described["input"]["schema"]["type"] == "object"
    assert described["execution"]["effect"] == "read"
    unknown = run(repo, "capabilities", "describe", "no.such")
    assert unknown.code == 12 and "unknown capability: no.such" in unknown.stderr
    an_object = run(repo, "capabilities", "describe", "rule.project.no-secrets@1")
    assert an_object.code == 12  # a layer object is a resource of the index, not a capability
    validated = run(repo, "capabilities", "validate")
    assert validated.code == 0, validated.stdout
    assert validated.stdout.rstrip().endswith(": ok")


def test_strict_refuses_a_degraded_index(git_repo) -> None:
    root = git_repo("layers/broken/malformed_front_matter")
    assert run(root, "objects", "list").code == 0
    strict = run(root, "--strict", "objects", "list")
    assert strict.code == 10 and strict.stdout == ""
    assert "refusing to serve under --strict" in strict.stderr
    assert run(root, "objects", "list", "--strict").code == 10


def test_fatal_manifest_errors_exit_10(git_repo) -> None:
    root = git_repo("layers/broken/invalid_manifest")
    done = run(root, "objects", "list")
    assert done.code == 10
    assert done.stderr.startswith("majordomus: ") and ".ai/manifest.yaml" in done.stderr


def test_demo_shows_each_step_and_keeps_its_folder_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "demo"
    done = run(tmp_path, "demo", "--keep", str(target))
    assert done.code == 0, done.stderr
    out = done.stdout
    assert f"demo repository  {target.absolute()}" in out
    for shown in (
        "$ majordomus lint\nlint: 20 object(s), 0 error(s), 0 warning(s); state ok\n",
        "$ majordomus devcontext compile --issue PAY-2 --budget-tokens 4000\n",
        "majordomus://rule/payments.money-in-cents@1 (required)",
        "$ majordomus reasoning record --file assessment.json\n",
        '"task": "PAY-2"',
        '"assessment": "',
        "$ majordomus reasoning status\n",
        "- Rejected: an optimistic version check",
        "Reasoning: 2 record(s)",
        '"mcpServers": {',
        "# Next, in your own repository:",
    ):
        assert shown in out, shown
    assert out.splitlines()[-1] == f"# kept: {target.absolute()}"
    assert git(target, "status", "--porcelain") == ""
    assert len(list((target / ".ai/local/state/reasoning/PAY-2").glob("*.json"))) == 2
    assert run(tmp_path, "demo", str(target)).code == 13

    removed = run(tmp_path, "demo")
    assert removed.code == 0, removed.stderr
    last = removed.stdout.splitlines()[-1]
    assert last.startswith("# removed ")
    assert not Path(last.removeprefix("# removed ")).parent.exists()


READ_COMMANDS = (
    ["mcp", "--inspect"],
    ["mcp", "--inspect", "--format", "json"],
    ["--discovery", "filesystem", "mcp", "--inspect"],
    ["objects", "list"],
    ["objects", "get", "majordomus://repository"],
    ["objects", "search", "rule"],
    ["capabilities", "list"],
    ["capabilities", "describe", "reasoning.record"],
    ["capabilities", "validate"],
    ["devcontext", "compile", "--intent", "rules and scope"],
    ["devcontext", "explain", "majordomus://rule/nothing@1"],
    ["devcontext", "policy"],
    ["reasoning", "advisors"],
    ["reasoning", "plan", "--materiality", "high"],
    ["reasoning", "status", "--report"],
    ["reasoning", "check"],
)


def test_read_commands_leave_the_tree_untouched(repo: Path) -> None:
    """The read-only witness (git status, index listing) holds for every reading command."""
    before = witness(repo)
    for args in READ_COMMANDS:
        done = run(repo, *args)
        assert done.code in (0, 10), (args, done.stderr)
        assert witness(repo) == before, args
    assert not (repo / ".ai/local").exists()


def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path: Path) -> None:
    """`majordomus … | head` exits 0 with nothing on stderr, whatever the output format."""
    import subprocess

    from majordomus.synthetic import Shape, SyntheticRepository
    from tests.conftest import MAJORDOMUS

    root = tmp_path / "big"
    SyntheticRepository.new(Shape.scaling(1000), at=root).commit()
    for args in (["objects", "list"], ["objects", "list", "--format", "json"]):
        proc = subprocess.Popen(
            [MAJORDOMUS, *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(100)
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0, args
        assert proc.stderr.read() == b"", args


def test_validate_outside_a_layer_checks_the_builtin_registry(tmp_path: Path) -> None:
    done = run(tmp_path, "capabilities", "validate")
    assert done.code == 0, done.stdout
    assert "validating the built-in registry alone" in done.stdout
    assert done.stdout.rstrip().endswith(": ok")
    assert run(tmp_path, "capabilities", "validate", "--repo", str(tmp_path)).code == 12
