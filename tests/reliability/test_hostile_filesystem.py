"""A hostile repository (links to `/proc/self/environ` or outside, FIFOs, `/dev/zero`) cannot
make majordomus read or write outside it, hang, or echo the environment, on any surface
(docs/RELIABILITY.md, "Filesystem guards")."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from majordomus.ledger.store import STATE_DIR
from tests.conftest import MAJORDOMUS, Result, command_env, git, run_majordomus, serve
from tests.mcp.conftest import Pipes

CANARY = "hostile-canary-5d1e7b0c"
SECRET = "OUTSIDE-SECRET-93a1"
MODES = ["vcs", "filesystem"]
RECORD = {"kind": "assessment", "subject": "where does this go"}
TIMEOUT = 60


@pytest.fixture
def env(suite_env: dict[str, str]) -> dict[str, str]:
    """The suite's environment plus a canary no output may ever carry."""
    return {**suite_env, "ENV_CANARY": CANARY}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Next to the repository: a secret a read must never return, an empty write target."""
    folder = tmp_path / "outside"
    (folder / "target").mkdir(parents=True)
    (folder / "README.md").write_text(f"# {SECRET}\n\nrequires reviewer\n", encoding="utf-8")
    (folder / "secret.md").write_text(f"# {SECRET}\n", encoding="utf-8")
    return folder


@pytest.fixture
def hostile(fresh_repo: Callable[[str], Path]) -> Path:
    return fresh_repo("repo")


def clean(text: str) -> None:
    assert CANARY not in text, "the environment leaked into an output"
    assert SECRET not in text, "a file outside the repository was read"
    assert "\x00" not in text


def cli(root: Path, env: dict[str, str], *args: str, input: str | None = None) -> Result:
    done = run_majordomus(list(args), cwd=root, env=env, input=input, timeout=TIMEOUT)
    clean(done.stdout + done.stderr)
    assert "Traceback" not in done.stderr
    return done


def error_line(done: Result) -> str:
    """The one `majordomus: ` line a refusal prints."""
    lines = [line for line in done.stderr.splitlines() if line.startswith("majordomus: ")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def diagnostics(root: Path, env: dict[str, str], mode: str) -> list[dict[str, Any]]:
    """The index's diagnostics, as `mcp --inspect` shows them (exit 10: degraded)."""
    done = cli(root, env, "--discovery", mode, "mcp", "--inspect", "--format", "json")
    assert done.code in (0, 10), done.stderr
    return list(json.loads(done.stdout)["repository"]["diagnostics"])


def commit(root: Path, *paths: str) -> None:
    git(root, "add", "-f", "-A", *paths)
    git(root, "commit", "-q", "-m", "hostile")


def untouched(outside: Path) -> None:
    assert list((outside / "target").iterdir()) == []
    assert sorted(p.name for p in outside.iterdir()) == ["README.md", "secret.md", "target"]


# -- MCP over pipes and HTTP -------------------------------------------------------------------


call = Pipes.call


def mcp(
    root: Path, env: dict[str, str], messages: list[dict[str, Any]], *args: str
) -> dict[Any, Any]:
    """`majordomus mcp` over pipes: initialise, send `messages`, then a last ping; the
    answers by id (the ping's must come: the server kept serving)."""
    lines = [Pipes.request("init", "initialize", {}), *messages, Pipes.request("last", "ping")]
    data = "".join(json.dumps(m) + "\n" for m in lines)
    done = cli(root, env, *args, "mcp", input=data)
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert answers["last"] == {"jsonrpc": "2.0", "id": "last", "result": {}}
    return answers


def tool_text(answer: dict[str, Any]) -> tuple[bool, str]:
    result = answer["result"]
    return bool(result.get("isError")), result["content"][0]["text"]


@contextmanager
def http(root: Path, env: dict[str, str], *args: str) -> Iterator[httpx.Client]:
    """A running `serve` and its client; on leaving, it still answers `live`, stops cleanly,
    and nothing it logged carries the canary or the secret."""
    running = serve(root, *args, env=env)
    try:
        with running.client() as client:
            yield client
            assert client.get("/api/v1/live").status_code == 200
    finally:
        code = running.stop()
    assert code == 0
    clean("".join(running.stderr))


def body(response: httpx.Response) -> Any:
    clean(response.text)
    return response.json()


def starts_and_refuses(root: Path, env: dict[str, str], *args: str) -> None:
    """`mcp` and `serve` refuse to start with one line and exit 13; neither hangs."""
    for command in (["mcp"], ["serve", "--port", "0"]):
        done = subprocess.run(
            [MAJORDOMUS, *args, *command],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=command_env(env),
            timeout=TIMEOUT,
        )
        text = (done.stdout + done.stderr).decode("utf-8", "replace")
        clean(text)
        assert done.returncode == 13, text


# -- 1. a symlink to /proc/self/environ in place of a file majordomus reads ------------------


def test_a_catalogue_linked_to_the_environment_is_refused_everywhere(
    hostile: Path, env: dict[str, str]
) -> None:
    catalogue = hostile / ".ai" / "repo" / "advisors.yaml"
    catalogue.unlink()
    catalogue.symlink_to("/proc/self/environ")
    commit(hostile)
    for args in (["reasoning", "advisors"], ["reasoning", "status"], ["reasoning", "check"]):
        done = cli(hostile, env, *args)
        assert done.code == 13
        assert error_line(done) == (
            "majordomus: refused: .ai/repo/advisors.yaml: is a symbolic link; "
            "symlinks are never followed"
        )
    for mode in MODES:  # the layer does not need the catalogue
        assert cli(hostile, env, "--discovery", mode, "objects", "list").code == 0
    answers = mcp(hostile, env, [call(1, "majordomus_reasoning_advisors")])
    error, text = tool_text(answers[1])
    assert error and "symbolic link" in text
    with http(hostile, env) as client:
        answer = client.get("/api/v1/reasoning/advisors")
        assert answer.status_code == 422
        assert "symbolic link" in json.dumps(body(answer))


@pytest.mark.parametrize("victim", [".ai/manifest.yaml", ".ai/repo/knowledge/sources.yaml"])
@pytest.mark.parametrize("mode", MODES)
def test_a_control_file_linked_to_the_environment_stops_every_command_by_name(
    hostile: Path, env: dict[str, str], victim: str, mode: str
) -> None:
    (hostile / victim).unlink()
    (hostile / victim).symlink_to("/proc/self/environ")
    commit(hostile)
    for args in (
        ["objects", "list"],
        ["mcp", "--inspect"],
        ["devcontext", "compile", "--intent", "x"],
    ):
        done = cli(hostile, env, "--discovery", mode, *args)
        assert done.code == 13, done.stderr
        assert error_line(done).endswith(
            f"{victim}: {victim} is a symbolic link; symlinks are never followed"
        )
    # the ledger does not need the layer's control files: it works, and reads nothing more
    assert cli(hostile, env, "--discovery", mode, "reasoning", "status").code == 0
    starts_and_refuses(hostile, env, "--discovery", mode)


# -- 2. writes through a symlinked .ai/local or task directory -------------------------------


def test_a_symlinked_local_half_is_refused_and_nothing_is_written_outside(
    hostile: Path, env: dict[str, str], outside: Path
) -> None:
    local = hostile / ".ai" / "local"
    for child in sorted(local.rglob("*"), reverse=True):
        child.rmdir() if child.is_dir() else child.unlink()
    local.rmdir()
    local.symlink_to(outside / "target")
    commit(hostile, ".ai/local")
    refusal = (
        "the record could not be written: .ai/local is a symbolic link; refusing to write "
        "through it"
    )
    done = cli(hostile, env, "reasoning", "record", input=json.dumps(RECORD))
    assert done.code == 13
    assert error_line(done) == f"majordomus: refused: {refusal}"
    assert cli(hostile, env, "reasoning", "status").code == 0
    answers = mcp(hostile, env, [call(1, "majordomus_reasoning_record", {"record": RECORD})])
    assert tool_text(answers[1]) == (True, f"refused: {refusal}")
    # no token can be made under the link: loopback writes need --open-loopback
    with http(hostile, env, "--open-loopback") as client:
        answer = client.post("/api/v1/reasoning/records", json={"record": RECORD})
        assert answer.status_code == 422
        assert refusal in json.dumps(body(answer))
    untouched(outside)


def test_a_symlinked_task_directory_is_neither_written_nor_read(
    hostile: Path, env: dict[str, str], outside: Path
) -> None:
    store = hostile / STATE_DIR
    store.mkdir(parents=True, exist_ok=True)
    (store / "t").symlink_to(outside / "target")
    planted = cli(hostile, env, "reasoning", "record", "--task", "real", input=json.dumps(RECORD))
    assert planted.code == 0
    # a valid record placed outside, under the linked task: never listed
    [record_file] = (store / "real").iterdir()
    foreign = json.loads(record_file.read_text(encoding="utf-8"))
    foreign["body"]["subject"] = SECRET
    (outside / "target" / record_file.name).write_text(json.dumps(foreign), encoding="utf-8")
    done = cli(hostile, env, "reasoning", "record", "--task", "t", input=json.dumps(RECORD))
    assert done.code == 13
    assert f"{STATE_DIR}/t is a symbolic link; refusing to write through it" in error_line(done)
    # and a record file that is a link to the foreign record: unreadable, never followed
    (store / "real" / "linked.json").symlink_to(outside / "target" / record_file.name)
    status = cli(hostile, env, "reasoning", "status", "--task", "all", "--format", "json")
    assert status.code == 0
    state = json.loads(status.stdout)["state"]
    assert state["totals"]["records"] == 1
    assert state["unreadable"] == ["real/linked.json"]
    with http(hostile, env) as client:
        answer = client.post("/api/v1/reasoning/records", json={"record": RECORD, "task": "t"})
        assert answer.status_code == 422
        body(client.get("/api/v1/reasoning", params={"task": "all"}))
    assert [p.name for p in (outside / "target").iterdir()] == [record_file.name]


# -- 3. a layer directory swapped for a symlink while git lists its files --------------------


def swap_for_link(root: Path, rel: str, outside: Path) -> None:
    """Commit real files under `rel`, then make `rel` a link to `outside` (the index still
    lists the files, as a hostile checkout or a later swap leaves it)."""
    folder = root / rel
    (folder / "secret.md").write_text("# inside\n", encoding="utf-8")
    commit(root)
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    folder.symlink_to(outside)


@pytest.mark.parametrize("mode", MODES)
def test_vcs_listing_never_reads_through_a_symlinked_parent(
    hostile: Path, env: dict[str, str], outside: Path, mode: str
) -> None:
    swap_for_link(hostile, ".ai/repo/rules/project", outside)
    listing = cli(hostile, env, "--discovery", mode, "objects", "list", "--format", "json")
    assert listing.code == 0
    uris = [o["uri"] for o in json.loads(listing.stdout)["objects"]]
    assert not any("rules/project" in uri for uri in uris)
    strict = cli(hostile, env, "--discovery", mode, "--strict", "objects", "list")
    if mode == "vcs":
        assert strict.code == 10
        findings = diagnostics(hostile, env, mode)
        linked = [d for d in findings if d["code"] == "symlink"]
        assert {d["path"] for d in linked} == {
            ".ai/repo/rules/project/README.md",
            ".ai/repo/rules/project/secret.md",
        }
        assert {d["message"] for d in linked} == {
            ".ai/repo/rules/project is a symbolic link; symlinks are never followed"
        }
    else:
        assert strict.code == 0  # the walk never enters a link
    search = cli(
        hostile, env, "--discovery", mode, "objects", "search", SECRET[:-2], "--format", "json"
    )
    assert search.code == 0
    assert not any("rules/project" in hit["path"] for hit in json.loads(search.stdout)["hits"])
    answers = mcp(
        hostile,
        env,
        [
            call(1, "majordomus_list", {}),
            call(2, "majordomus_search", {"query": SECRET[:-2]}),
            Pipes.request(3, "resources/list"),
        ],
        "--discovery",
        mode,
    )
    assert not tool_text(answers[1])[0]
    with http(hostile, env, "--discovery", mode) as client:
        body(client.get("/api/v1/objects"))
        found = body(client.get("/api/v1/search", params={"query": SECRET[:-2]}))
        assert not any("rules/project" in hit["path"] for hit in found["hits"])
        answer = client.get(
            "/api/v1/object",
            params={"uri": "majordomus://document/.ai/repo/rules/project/README.md"},
        )
        assert answer.status_code == 404
        body(answer)


# -- 4. FIFOs and endless devices in place of files; a link to / among scanned documents ----


@pytest.mark.parametrize("plant", ["fifo", "dev-zero"])
def test_current_yaml_that_would_block_or_never_end_is_passed_over(
    hostile: Path, env: dict[str, str], plant: str
) -> None:
    current = hostile / ".ai" / "local" / "state" / "current.yaml"
    current.unlink(missing_ok=True)
    if plant == "fifo":
        os.mkfifo(current)
    else:
        current.symlink_to("/dev/zero")
    for args in (
        ["reasoning", "status"],
        ["reasoning", "advisors"],
        ["devcontext", "compile", "--intent", "anything"],
        *(["--discovery", mode, "objects", "list"] for mode in MODES),
    ):
        assert cli(hostile, env, *args).code == 0, args
    recorded = cli(
        hostile, env, "reasoning", "record", "--format", "json", input=json.dumps(RECORD)
    )
    assert recorded.code == 0
    assert json.loads(recorded.stdout)["record"]["task"] == "untasked"
    answers = mcp(hostile, env, [call(1, "majordomus_reasoning"), call(2, "majordomus_list")])
    assert not tool_text(answers[1])[0] and not tool_text(answers[2])[0]
    with http(hostile, env) as client:
        assert client.get("/api/v1/reasoning").status_code == 200
        assert client.get("/api/v1/ready").status_code == 200


@pytest.mark.parametrize("plant", ["fifo", "dev-zero"])
@pytest.mark.parametrize("mode", MODES)
def test_sources_yaml_that_would_block_or_never_end_stops_every_command_by_name(
    hostile: Path, env: dict[str, str], plant: str, mode: str
) -> None:
    sources = hostile / ".ai" / "repo" / "knowledge" / "sources.yaml"
    sources.unlink()
    if plant == "fifo":
        os.mkfifo(sources)
        reason = "is not a regular file"
    else:
        sources.symlink_to("/dev/zero")
        reason = "is a symbolic link; symlinks are never followed"
    for args in (["objects", "list"], ["mcp", "--inspect"]):
        done = cli(hostile, env, "--discovery", mode, *args)
        assert done.code == 13
        assert error_line(done).endswith(f".ai/repo/knowledge/sources.yaml {reason}")
    assert cli(hostile, env, "--discovery", mode, "reasoning", "status").code == 0
    starts_and_refuses(hostile, env, "--discovery", mode)


def test_a_fifo_among_layer_files_is_a_diagnostic(hostile: Path, env: dict[str, str]) -> None:
    os.mkfifo(hostile / ".ai" / "repo" / "rules" / "project" / "pipe.md")
    found = {(d["code"], d["path"]) for d in diagnostics(hostile, env, "filesystem")}
    assert ("not_a_file", ".ai/repo/rules/project/pipe.md") in found


def test_check_never_follows_a_link_out_of_the_repository(
    hostile: Path, env: dict[str, str], outside: Path
) -> None:
    """`docs -> /` would walk the whole disk; a linked document would be read."""
    (hostile / "docs").symlink_to("/")
    (hostile / ".ai" / "repo" / "linked.md").symlink_to(outside / "README.md")
    (hostile / ".ai" / "repo" / "tree").symlink_to(outside)
    (hostile / ".github").mkdir()
    (hostile / ".github" / "workflows").symlink_to("/proc/self")
    commit(hostile)
    done = cli(hostile, env, "reasoning", "check", "--format", "json")
    assert done.code == 0, done.stderr
    assert json.loads(done.stdout)["findings"] == []
    answers = mcp(hostile, env, [call(1, "majordomus_reasoning_check")])
    assert not tool_text(answers[1])[0]
    with http(hostile, env) as client:
        assert body(client.get("/api/v1/reasoning/check"))["findings"] == []


# -- 8. init through a symlinked .gitignore ----------------------------------------------------


def test_init_never_appends_through_a_symlinked_gitignore(
    tmp_path: Path, env: dict[str, str], outside: Path
) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    victim = outside / "target" / "victim"
    victim.write_text("keep me\n", encoding="utf-8")
    (root / ".gitignore").symlink_to(victim)
    done = cli(root, env, "init")
    assert done.code == 13
    assert error_line(done).startswith(
        f"majordomus: {root / '.gitignore'} is a symbolic link; refusing to write through it"
    )
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert sorted(p.name for p in root.iterdir()) == [".git", ".gitignore"]
    (root / ".gitignore").unlink()
    (root / ".ai").symlink_to(outside / "target")
    assert cli(root, env, "init").code == 13
    assert [p.name for p in (outside / "target").iterdir()] == ["victim"]


# -- 4. names git can track that a line or a URI cannot hold as they are ---------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_name_not_utf8_or_holding_a_newline_stops_nothing_and_forges_no_line(
    hostile: Path, env: dict[str, str], mode: str
) -> None:
    rules = os.fsencode(hostile / ".ai" / "repo" / "rules" / "project")
    for name in (b"caf\xe9.md", b"a\nPASS layer verified.md"):
        with open(rules + b"/" + name, "wb") as handle:
            handle.write(b"---\ntitle: no id, so a finding quotes the path\n---\nx\n")
    commit(hostile)
    found = {(d["code"], d["path"]) for d in diagnostics(hostile, env, mode)}
    assert ("undecodable_path", ".ai/repo/rules/project/caf\\xe9.md") in found
    for args in (["lint"], ["mcp", "--inspect"], ["objects", "list"]):
        done = cli(hostile, env, "--discovery", mode, *args)
        assert done.code in (0, 10), done.stderr
        assert not any(line.startswith("PASS") for line in done.stdout.splitlines())
        assert "a\\nPASS layer verified.md" in done.stdout + done.stderr or args[0] == "objects"
    mcp(hostile, env, [call(1, "majordomus_list")], "--discovery", mode)
    with http(hostile, env, "--discovery", mode) as client:
        assert client.get("/api/v1/objects").status_code == 200
