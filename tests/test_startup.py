"""Start-up discipline: a command imports what it needs and nothing else (issue 8 item 3).

Structural checks only (which modules a real process imported), never a wall-clock one.
Each case runs the console entry point in a fresh interpreter and lists `sys.modules` after
the command returned.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from majordomus.capabilities.builtin import builtin_modules
from majordomus.cli.app import build_cli, lazy_cli
from majordomus.cli.views import VIEWS_OF
from majordomus.synthetic import SyntheticRepository, synthetic_ledger
from tests.conftest import FIXTURES, make_git_repo

#: Never needed by a one-shot reading command: the HTTP stack, the SQLite copy, PyYAML.
HEAVY = ("fastapi", "starlette", "uvicorn", "sqlite_utils", "sqlite3", "yaml")

PROBE = (
    "import json, sys\n"
    "from majordomus.cli.entry import main\n"
    "sys.argv = ['majordomus', *sys.argv[1:]]\n"
    "code = main()\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
    "sys.exit(code)\n"
)


#: Probes for an MCP session: the modules imported when the main thread wrote its first
#: answer, or its last one, not at the end, where the background thread's work after an
#: answer would race with the session's end of input.
ANSWERS_PROBE = (
    "import json, sys, threading\n"
    "from majordomus.mcp import framing\n"
    "seen = []\n"
    "real = framing.write\n"
    "def write(out, line):\n"
    "    if threading.current_thread() is threading.main_thread():\n"
    "        seen.append(sorted(sys.modules))\n"
    "    real(out, line)\n"
    "framing.write = write\n"
    "from majordomus.cli.entry import main\n"
    "sys.argv = ['majordomus', *sys.argv[1:]]\n"
    "code = main()\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('\\nMODULES ' + json.dumps(seen[{pick}]) + '\\n')\n"
    "sys.exit(code)\n"
)
FIRST_ANSWER_PROBE = ANSWERS_PROBE.replace("{pick}", "0")
LAST_ANSWER_PROBE = ANSWERS_PROBE.replace("{pick}", "-1")


def imported(
    args: list[str], cwd: Path, feed: str | None = None, *, probe: str = PROBE
) -> set[str]:
    """The modules a process running `majordomus <args>` in `cwd` (reading `feed`, else
    nothing) had imported at its end (or when `probe` says)."""
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        cwd=cwd,
        input=feed or "",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = done.stderr.rsplit("MODULES ", 1)[1]
    return set(json.loads(line))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.fixture(scope="module")
def ledger_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("startup") / "repo"
    SyntheticRepository.new(at=root).commit()
    synthetic_ledger(root, 16)
    return root


def test_version_imports_neither_click_nor_pydantic(tmp_path: Path) -> None:
    modules = imported(["--version"], tmp_path)
    ours = sorted(m for m in modules if m.startswith("majordomus"))
    assert ours == ["majordomus", "majordomus.cli", "majordomus.cli.entry"]
    assert not {"click", "pydantic", "pydantic_core"} & modules
    assert heavy(modules) == []
    # the package names its public types for the type checker only
    assert "typing" not in modules


def test_reasoning_status_imports_only_the_ledger_side(ledger_repo: Path) -> None:
    modules = imported(["reasoning", "status", "--format", "json"], ledger_repo)
    assert heavy(modules) == []
    assert "majordomus.ledger.store" in modules
    for absent in ("majordomus.devcontext", "majordomus.http", "majordomus.mcp"):
        assert not any(m == absent or m.startswith(absent + ".") for m in modules), absent
    assert "majordomus.cli.views.devcontext" not in modules
    # nor another command's file, not even a sibling's under `reasoning`
    assert not any(m.startswith("majordomus.cli.commands.") for m in modules)
    # a reading command loads no libc binding (only a write's no-replace rename does) and
    # reads shipped files without the resource readers
    for absent in ("ctypes", "importlib.resources", "zipfile", "tempfile"):
        assert absent not in modules, absent
    # completing a value is not running a command
    assert "click.shell_completion" not in modules
    # answered by the plain path (`cli/plain_reasoning.py`): no click, and none of the other
    # reasoning capabilities' shapes
    for absent in (
        "click",
        "majordomus.cli.app",
        "majordomus.capabilities.reasoning",
        "majordomus.projections.handover",
        "majordomus.projections.check",
    ):
        assert absent not in modules, absent


def test_objects_list_imports_no_sqlite_and_no_http(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    modules = imported(["objects", "list"], root)
    assert heavy(modules) == []
    assert not any(m.startswith("majordomus.http") for m in modules)
    # the inotify watch is a server's: a one-shot command never opens it, nor reads shipped
    # files through the resource readers
    for absent in (
        "majordomus.layer.inotify",
        "ctypes",
        "importlib.readers",
        "zipfile",
        "majordomus.capabilities.describe",
        "click.shell_completion",
        # nor what a command with nothing to log, or no dataclass, needs
        "logging",
        "dataclasses",
    ):
        assert absent not in modules, absent
    # nor the ledger's side: its capabilities, views, records, projections or advisors, nor
    # any process command's file
    for prefix in (
        "majordomus.capabilities.reasoning",
        "majordomus.cli.views.reasoning",
        "majordomus.ledger.record",
        "majordomus.ledger.store",
        "majordomus.projections",
        "majordomus.advisors",
        "majordomus.cli.commands.",
    ):
        assert not any(m.startswith(prefix) for m in modules), prefix


def test_mcp_inspect_builds_no_other_command(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    modules = imported(["mcp", "--inspect"], root)
    assert heavy(modules) == []
    assert not any(m.startswith("majordomus.cli.views.") for m in modules)
    assert "majordomus.cli.commands.serve" not in modules


def test_mcp_as_a_client_launches_it_starts_without_click(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    modules = imported(["mcp"], root)
    assert heavy(modules) == []
    assert "majordomus.mcp.server" in modules
    assert not any(m == "click" or m.startswith("click.") for m in modules)
    # `initialize` needs the index and what is declared: no model is imported before a
    # client asks for a listing or a call
    assert not any(m.split(".")[0] in ("pydantic", "pydantic_core") for m in modules)
    assert "majordomus.capabilities.reasoning" not in modules
    # nor what only a digest or a libc look-up needs: OpenSSL's binding, `ldconfig -p`
    # through subprocess' helpers, the resource readers with zipfile
    for absent in ("hashlib", "ctypes.util", "tempfile", "zipfile", "importlib.readers"):
        assert absent not in modules, absent
    # the layer's model is made of plain classes
    assert "dataclasses" not in modules


def _session(*calls: tuple[str, dict[str, object]]) -> str:
    """An MCP client's lines: the handshake, then one `tools/call` per (tool, arguments)."""
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "startup", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for number, (tool, arguments) in enumerate(calls, start=1):
        params = {"name": tool, "arguments": arguments}
        messages.append({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params})
    return "".join(json.dumps(m) + "\n" for m in messages)


def test_mcp_handshake_takes_no_digest_and_no_libc_look_up(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    modules = imported(["mcp"], root, _session(), probe=FIRST_ANSWER_PROBE)
    assert "majordomus.layer.inotify" in modules  # the watch stands
    assert not any(m.split(".")[0] in ("pydantic", "pydantic_core") for m in modules)
    for absent in ("hashlib", "ctypes.util", "tempfile", "zipfile", "importlib.readers", "base64"):
        assert absent not in modules, absent


def test_mcp_devcontext_call_imports_no_core_models(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    feed = _session(("majordomus_devcontext", {"intent": "logging", "floor": None}))
    modules = imported(["mcp"], root, feed, probe=LAST_ANSWER_PROBE)
    assert "majordomus.capabilities.devcontext" in modules
    for absent in ("majordomus.capabilities.core", "majordomus.capabilities.reasoning"):
        assert absent not in modules, absent


def test_mcp_get_call_imports_only_the_core_namespace(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "repo", FIXTURES / "layers" / "healthy")
    # a query resource: an object's get is answered without any namespace (tests/mcp)
    feed = _session(("majordomus_get", {"uri": "majordomus://repository"}))
    listing = {"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}
    modules = imported(["mcp"], root, feed + json.dumps(listing) + "\n", probe=LAST_ANSWER_PROBE)
    assert "majordomus.capabilities.core" in modules
    for absent in (
        "majordomus.capabilities.describe",
        "majordomus.capabilities.reasoning",
        "majordomus.capabilities.devcontext",
        "majordomus.advisors",
        "majordomus.projections",
        "majordomus.devcontext",
    ):
        assert absent not in modules, absent


def test_every_module_with_a_command_has_its_views() -> None:
    with_cli = {m.id for m in builtin_modules() for cap in m.capabilities if cap.cli}
    assert with_cli <= set(VIEWS_OF)


def _shape(command: click.Command | None) -> object:
    """A command as the user meets it: its kind, help, options, and each subcommand's shape,
    reached the way a command line reaches it (`get_command`, so a lazy group builds it)."""
    assert command is not None
    params = [(type(p).__name__, p.name, tuple(p.opts)) for p in command.params]
    below: dict[str, object] = {}
    if isinstance(command, click.Group):
        for name in command.list_commands(None):  # type: ignore[arg-type]
            below[name] = _shape(command.get_command(None, name))  # type: ignore[arg-type]
    return (type(command).__name__, command.help, command.short_help, params, below)


def test_the_lazy_tree_resolves_to_the_whole_tree() -> None:
    whole = build_cli()
    lazy = lazy_cli()
    assert lazy.list_commands(None) == whole.list_commands(None)  # type: ignore[arg-type]
    assert _shape(lazy) == _shape(whole)


def test_a_subcommand_builds_no_sibling() -> None:
    """Resolving `objects list` builds neither `objects get` nor another word."""
    lazy = lazy_cli()
    objects = lazy.get_command(None, "objects")  # type: ignore[arg-type]
    assert isinstance(objects, click.Group)
    assert objects.get_command(None, "list") is not None  # type: ignore[arg-type]
    assert sorted(objects.commands) == ["list"]
    assert sorted(lazy.commands) == ["objects"]
