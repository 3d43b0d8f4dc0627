"""`objects list` answered without pydantic (`majordomus.cli.plain`): the command lines it
reads, the same answers as the click path (stdout bytes, stderr, exit code), and no
pydantic imported on its way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from majordomus.capabilities import core
from majordomus.cli import plain, plain_args
from majordomus.cli.plain import read_request
from majordomus.layer.model import LayerObject, Provenance
from majordomus.wire_parts import BATCH, LONG, pretty_parts
from tests.cli.plain_support import click_command, import_probe, option_table
from tests.conftest import FIXTURES, MAJORDOMUS, command_env, git, make_git_repo

#: The console entry point with the plain path switched off: what click answers.
CLICK_PATH = (
    "import sys\n"
    "import majordomus.cli.plain as plain\n"
    "plain.answer = lambda args: None\n"
    "from majordomus.cli.entry import console\n"
    "sys.argv[0] = 'majordomus'\n"
    "console()\n"
)

#: The plain entry point, reporting whether pydantic was imported.
PROBE = import_probe("pydantic")


def test_the_option_table_is_the_click_commands() -> None:
    """What the plain path reads is what the command built from the input model declares:
    the same options, each taking one value (a choice's the same values) or none."""
    command = click_command("objects", "list")
    taking, flags = option_table(command)
    assert flags == set(plain_args.SHARED_FLAGS)
    assert taking == {**plain_args.SHARED, **dict.fromkeys(plain.OPTIONS)}
    # the input fields behind the command's own options: optional texts, nothing else
    fields = core.ListInput.model_fields
    assert sorted(fields) == sorted(plain.OPTIONS.values())
    for info in fields.values():
        assert not info.is_required() and info.annotation == (str | None)


def test_the_batches_are_the_models() -> None:
    assert (plain.LONG, plain.BATCH) == (LONG, BATCH)


@pytest.mark.parametrize(
    "args",
    [
        ["objects", "list"],
        ["--format", "json", "objects", "list"],
        ["objects", "--format=json", "list", "--kind", "rule"],
        ["-q", "objects", "list", "--tag=x", "--strict", "--repo", "."],
        ["--log-level", "debug", "objects", "--discovery", "filesystem", "list", "--quiet"],
    ],
)
def test_read_command_lines(args: list[str]) -> None:
    assert read_request(args) is not None


def test_the_settings_as_click_applies_them() -> None:
    root = ["--format", "json", "--quiet"]
    group = ["--log-level", "info", "--quiet"]
    command = ["--format", "text", "--log-level", "debug", "-q", "--kind", "a", "--kind", "b"]
    request = read_request([*root, "objects", *group, "list", *command])
    assert request is not None
    assert request.format == "text"
    assert request.kind == "b"
    # per level, each option's callback runs once, in the order of its first appearance
    assert request.logging == ["off", "info", "off", "debug", "off"]


@pytest.mark.parametrize(
    "args",
    [
        ["objects", "list", "--help"],
        ["-h", "objects", "list"],
        ["--version", "objects", "list"],
        ["objects", "list", "extra"],
        ["objects", "list", "--kind"],
        ["objects", "list", "--kind", "--tag"],
        ["objects", "list", "--kind", ""],
        ["objects", "list", "--format", "yaml"],
        ["objects", "list", "--limit", "3"],
        ["objects", "list", "--strict=yes"],
        ["objects", "--kind", "rule", "list"],
        ["objects", "list", "--", "--kind"],
        ["objects", "get", "x"],
        ["list", "objects"],
        ["--repo", "objects", "objects", "list"],
        ["objects", "list", "-qq"],
    ],
)
def test_refused_command_lines(args: list[str]) -> None:
    assert read_request(args) is None


def _run(argv: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, env=command_env(), timeout=120)
    return done.returncode, done.stdout, done.stderr


def _both(args: list[str], cwd: Path) -> tuple[tuple[int, bytes, bytes], tuple[int, bytes, bytes]]:
    fast = _run([MAJORDOMUS, *args], cwd)
    slow = _run([sys.executable, "-c", CLICK_PATH, *args], cwd)
    return fast, slow


CASES = [
    ["objects", "list"],
    ["objects", "list", "--format", "json"],
    ["--format", "json", "objects", "list", "--kind", "rule"],
    ["objects", "list", "--kind", "rule"],
    ["objects", "list", "--kind", "adr", "--format", "json"],
    ["objects", "list", "--kind", "nonsense"],
    ["objects", "list", "--kind", "nonsense", "--format", "json"],
    ["objects", "list", "--tag", "review", "--format", "json"],
    ["objects", "list", "--tag", "nothing-has-this"],
    ["objects", "list", "--strict", "--format", "json"],
    ["objects", "list", "--log-level", "debug"],
    ["-q", "objects", "list", "--format", "json"],
    ["objects", "--discovery", "filesystem", "list", "--format", "json"],
]


@pytest.mark.parametrize("layer", ["healthy", "broken"])
def test_answers_are_the_click_paths(tmp_path: Path, layer: str) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / layer)
    for args in CASES:
        fast, slow = _both(args, root)
        assert fast == slow, args


def test_outside_a_repository_the_error_is_the_same(tmp_path: Path) -> None:
    for args in (["objects", "list"], ["objects", "list", "--repo", str(tmp_path / "gone")]):
        fast, slow = _both(args, tmp_path)
        assert fast == slow
        assert fast[0] != 0 and fast[2].startswith(b"majordomus: ")


def test_a_long_list_with_secrets_and_controls(tmp_path: Path) -> None:
    """More rows than one batch, titles with non-ASCII text, controls, a secret and the
    marker's own spelling: the same bytes as the model's parts."""
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    folder = root / ".ai" / "repo" / "knowledge" / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    odd = [
        "Plain",
        "Ünïcode — ok",
        "Bidi \u202e turn",
        "DEL \x7f here",
        "key AKIAABCDEFGHIJKLMNOP",
        "@@part-0@@",
        'quote " and \\ back',
    ]
    for number in range(LONG + BATCH + 5):
        title = odd[number % len(odd)]
        (folder / f"n{number:04d}.md").write_text(f"# {title} {number}\n\nbody\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "many")
    for args in (["objects", "list", "--format", "json"], ["objects", "list"]):
        fast, slow = _both(args, root)
        assert fast == slow, args
    assert fast[0] == 0


def test_a_value_no_model_dumps_as_it_is_is_the_capabilitys(tmp_path: Path) -> None:
    """A lone surrogate (written as an escape in YAML) is answered by the capability."""
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    rules = root / ".ai" / "repo" / "rules" / "project"
    source = next(p for p in sorted(rules.glob("*.md")) if "title:" in p.read_text())
    text = source.read_text()
    lines = [
        'title: "Lone \\ud800 half"' if line.startswith("title:") else line
        for line in text.split("\n")
    ]
    source.write_text("\n".join(lines))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "surrogate")
    outputs = []
    for args in (["objects", "list", "--format", "json"], ["objects", "list"]):
        fast, slow = _both(args, root)
        assert fast == slow, args
        outputs.append(fast)
    assert [rc for rc, _, _ in outputs] == [0, 0]
    assert b"Lone" in outputs[0][1]


def _objects(count: int) -> list[LayerObject]:
    out = []
    for n in range(count):
        title = None if n % 3 else f"T\u00e9 {n} ghp_{'a' * 36}"
        description = "\u2028 line" if n % 5 == 0 else None
        where = Provenance(f"p/{n}.md", "p", "rules", 10)
        out.append(LayerObject("rule", f"r{n}", title, description, {}, "c", "c", "t", where))
    return out


@pytest.mark.parametrize("count", [0, 3, LONG, LONG + 1, BATCH * 2 + 7])
def test_rows_are_the_models(count: int) -> None:
    """The parts of a list are `wire_parts.pretty_parts` of the model, cleaning included."""
    objects = _objects(count)
    rows = [obj.summary_json() for obj in objects]
    model = core.ObjectList.model_validate({"count": count, "objects": rows})
    from majordomus.cli.capability_commands import _clean_json

    expected = b"".join(pretty_parts(model, _clean_json))
    parts = plain.json_answer(objects)
    assert parts is not None
    assert b"".join(parts) == expected
    assert json.loads(expected)["count"] == count


def test_a_value_that_is_not_plain_is_not_answered() -> None:
    for count in (3, LONG + 1):
        objects = _objects(count)
        where = objects[-1].provenance
        objects[-1] = LayerObject("rule", "x", "lone \ud800", None, {}, "c", "c", "t", where)
        assert plain.json_answer(objects) is None
        assert not plain.plain_rows([obj.summary_json() for obj in objects])


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_the_plain_path_imports_no_pydantic(tmp_path: Path, fmt: str) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    rc, _out, err = _run([sys.executable, "-c", PROBE, "objects", "list", "--format", fmt], root)
    assert rc == 0
    assert err.decode().splitlines()[-1] == "PYDANTIC False"
