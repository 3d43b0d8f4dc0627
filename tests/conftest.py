"""Shared test helpers: temporary git repositories, the installed `majordomus` command and
a running `majordomus serve`."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    import httpx

# Property tests run on a fixed budget, the same examples on every run (CI included): a test
# that asks for more examples says so in its own `@settings`.
settings.register_profile(
    "majordomus",
    derandomize=True,
    database=None,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("majordomus")

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "fixtures"
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
MAJORDOMUS = shutil.which("majordomus", path=str(Path(sys.executable).parent)) or "majordomus"

#: An advisor catalogue with one CLI advisor whose executable is never on PATH: the ledger and
#: reliability tests record plans and consultations against it.
REVIEWER_CATALOGUE = """\
version: 1
capabilities:
  - id: independent_reasoning
    description: A second line of reasoning.
advisors:
  - id: reviewer
    title: Reviewer
    transport: cli
    adapter: reviewer-cli
    executable: fake-reviewer
    capabilities: [independent_reasoning]
"""


def answered(result: Mapping[str, Any]) -> Any:
    """The JSON value of an MCP tool result: its one text block, never given twice."""
    assert "structuredContent" not in result
    [block] = result["content"]
    return json.loads(block["text"])


def answered_sdk(result: Any) -> Any:
    """`answered` for a result the official MCP SDK client returns."""
    assert result.structured_content is None
    [block] = result.content
    return json.loads(block.text)


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(root: Path, *args: str) -> str:
    """Run git in `root` and return stdout; failures raise."""
    env = {**os.environ, **GIT_ENV, "HOME": str(root)}
    done = subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env
    )
    return done.stdout


def make_git_repo(root: Path, source: Path | None = None, *, commit: bool = True) -> Path:
    """Create a git repository at `root`, optionally filled from `source`, committed."""
    root.mkdir(parents=True, exist_ok=True)
    if source is not None:
        shutil.copytree(source, root, dirs_exist_ok=True, symlinks=True)
    git(root, "init", "-q", "-b", "master")
    if commit:
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", "fixture")
    return root


def initialised_repo(root: Path, files: Mapping[str, str] | None = None) -> Path:
    """A git repository at `root` that `majordomus init` wrote, plus `files` (relative path →
    text), committed."""
    make_git_repo(root, commit=False)
    done = run_majordomus(["init"], cwd=root)
    assert done.code == 0, done.stderr
    for rel, text in (files or {}).items():
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Add the .ai layer")
    return root


def witness(root: Path) -> tuple[str, str]:
    """The read-only witness, which no read may change: porcelain status and the index listing."""
    return (
        git(root, "--no-optional-locks", "status", "--porcelain"),
        git(root, "ls-files", "-s"),
    )


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


def command_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a command under test gets: ours without any MAJORDOMUS_ variable or CI
    (a CI runner would switch the reasoning mode under test), git's test identity, then
    `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJORDOMUS_")}
    env.pop("CI", None)
    return {**env, **GIT_ENV, **(extra or {})}


def run_majordomus(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    input: str | bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> Result:
    """Run the installed `majordomus` command and capture everything."""
    data = input.encode() if isinstance(input, str) else input
    done = subprocess.run(
        [MAJORDOMUS, *args],
        cwd=cwd,
        input=data,
        capture_output=True,
        env=command_env(env),
        timeout=timeout,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


SERVED_URL = re.compile(r"http://(?:\[[0-9a-fA-F:.]+\]|[0-9.]+):[0-9]+")


@dataclass
class Served:
    """A running `majordomus serve`: its URL and every line it has written on stderr so far
    (read on a thread, so the server never blocks on a full pipe)."""

    process: subprocess.Popen[bytes]
    url: str
    stderr: list[str]
    reader: threading.Thread
    root: Path

    @property
    def token(self) -> str | None:
        """The server's token (docs/http.md), made before the URL was printed."""
        path = self.root / ".ai/local/serve-token"
        return path.read_text().strip() if path.exists() else None

    def client(self, **kwargs: Any) -> httpx.Client:
        """A client that shows the token, as a caller that writes must."""
        import httpx

        shown = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers = {**shown, **kwargs.pop("headers", {})}
        return httpx.Client(base_url=self.url, headers=headers, **{"timeout": 30, **kwargs})

    def stop(self) -> int:
        """SIGTERM, then the exit code (a graceful stop is 0); `stderr` is then complete."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        self.reader.join(timeout=30)
        return code


def serve(root: Path, *args: str, env: Mapping[str, str] | None = None) -> Served:
    """Start `majordomus serve --port 0 ARGS` in `root` with `command_env(env)`; return once
    it has printed its URL."""
    process = subprocess.Popen(
        [MAJORDOMUS, "serve", "--port", "0", *args],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=command_env(env),
    )
    lines: list[str] = []
    announced: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            line = raw.decode("utf-8", "replace")
            lines.append(line)
            found = SERVED_URL.search(line)
            if found:
                announced.put(found.group(0))
        announced.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    url = announced.get(timeout=60)
    if url is None:
        process.wait(timeout=30)
        raise AssertionError(f"serve exited {process.returncode}: {''.join(lines)}")
    return Served(process, url, lines, reader, root)


@pytest.fixture
def git_repo(tmp_path: Path) -> Callable[..., Path]:
    """Factory: `git_repo("layers/healthy")` copies `fixtures/<name>` into a committed repo."""

    def factory(fixture: str | None = None, *, commit: bool = True, name: str = "repo") -> Path:
        source = FIXTURES / fixture if fixture else None
        return make_git_repo(tmp_path / name, source, commit=commit)

    return factory


@pytest.fixture
def majordomus() -> Callable[..., Result]:
    return run_majordomus


def pytest_configure(config: pytest.Config) -> None:
    """A deprecation the tests themselves trigger fails the test, as one in `majordomus` does
    (pyproject.toml). A test module's name depends on how pytest imported it (`tests.x.y`,
    `x.y`, or a bare `test_y` in a folder that is not a package), so the pattern names them all;
    `http` and `mcp` are left out, as those folders are not packages and the names belong to
    the standard library and the MCP SDK."""
    here = Path(__file__).parent
    packages = sorted(p.name for p in here.iterdir() if (p / "__init__.py").is_file())
    names = "|".join(["tests", "conftest", r"test_\w+", *packages])
    for category in ("DeprecationWarning", "PendingDeprecationWarning"):
        config.addinivalue_line("filterwarnings", f"error::{category}:({names})(\\.|$)")


def npx_command(package: str, download_variable: str) -> list[str] | None:
    """`npx` running `package` from its cache, or fetching it when `download_variable` is 1;
    None without node or the cached package."""
    npx = shutil.which("npx")
    if npx is None or shutil.which("node") is None:
        return None
    if os.environ.get(download_variable) == "1":
        return [npx, "--yes", package]
    try:
        cached = subprocess.run(
            [npx, "--no", "--offline", package, "--help"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [npx, "--no", "--offline", package] if cached.returncode == 0 else None


def sdk_session(root: Path, work: Callable[..., Any], *args: str, handler: Any = None) -> Any:
    """One session of the official MCP SDK client against `majordomus mcp ARGS` in `root`: what
    `work(session, initialized)` returns, and the server's stderr."""
    import asyncio

    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    errlog = root.parent / "server-stderr.log"
    env = {**GIT_ENV, "MAJORDOMUS_LOG": "warn"}

    async def main() -> Any:
        params = StdioServerParameters(
            command=MAJORDOMUS, args=["mcp", *args], cwd=str(root), env=env
        )
        with errlog.open("w") as err:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write, message_handler=handler) as session,
            ):
                return await work(session, await session.initialize())

    return asyncio.run(main()), errlog.read_text()
