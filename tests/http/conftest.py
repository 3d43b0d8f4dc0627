"""Fixtures for the HTTP surface. No `__init__.py` here on purpose: as a package this directory
would be named `http` and hide the standard library's (hence `test_http_*.py`, and fixtures).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from majordomus.capabilities.builtin import builtin_modules
from majordomus.capabilities.registry import Capability, Module, build_registry
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import Forbidden, Internal, InvalidInput, MissingArtifact, NotFound, Refused
from majordomus.wire import StrictInput, Wire
from tests.conftest import Served, command_env, initialised_repo, serve


def error_of(response: Any, status: int, code: str) -> str:
    """Assert the one error shape (docs/http.md#errors) and return its message."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"
    assert int(response.headers["content-length"]) == len(response.content)
    body = response.json()
    assert list(body) == ["error"] and list(body["error"]) == ["code", "message"]
    assert body["error"]["code"] == code
    assert response.text == json.dumps(body, ensure_ascii=False, indent=2) + "\n"
    return str(body["error"]["message"])


@pytest.fixture(scope="session")
def served_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One repository for the whole HTTP run: `majordomus init`, then a commit."""
    return initialised_repo(tmp_path_factory.mktemp("http") / "repo")


@pytest.fixture
def launch() -> Callable[..., Served]:
    """`launch(root, *args)` starts one more server; the test stops it."""
    return serve


@pytest.fixture(scope="session")
def server_env() -> dict[str, str]:
    return command_env()


@pytest.fixture(scope="session")
def server(served_repo: Path) -> Iterator[Served]:
    """One real server on loopback for the session; it must stop with exit 0."""
    running = serve(served_repo)
    yield running
    assert running.stop() == 0, "".join(running.stderr)


# -- the probe module: one capability per behaviour the HTTP layer must map -------------------


class FailInput(StrictInput):
    error: Literal[
        "invalid_input", "not_found", "refused", "forbidden", "internal", "crash", "fatal"
    ]


class EchoInput(StrictInput):
    """Every JSON type a query parameter can be coerced to."""

    text: str | None = None
    count: int | None = None
    ratio: float | None = None
    flag: bool | None = None
    items: list[str] | None = None
    mapping: dict[str, int] | None = None
    choice: Annotated[Literal["a", "b"] | None, Field(description="One of two words.")] = None


class Echo(Wire):
    input: dict[str, Any]


class NoteInput(StrictInput):
    note: str


def _fail(_ctx: Workspace, request: FailInput) -> Echo:
    errors = {
        "invalid_input": InvalidInput,
        "not_found": NotFound,
        "refused": Refused,
        "forbidden": Forbidden,
        "internal": Internal,
    }
    if request.error == "crash":
        raise RuntimeError("the probe crashed")
    if request.error == "fatal":
        raise MissingArtifact("the probe's artifact is missing")
    raise errors[request.error](f"the probe says {request.error}")


def _echo(_ctx: Workspace, request: EchoInput) -> Echo:
    return Echo(input=request.model_dump(mode="json", exclude_none=True))


def _note(_ctx: Workspace, request: NoteInput) -> Echo:
    return Echo(input=request.model_dump(mode="json"))


PROBE = Module(
    id="probe",
    title="Probe",
    description="Capabilities that exist only in the HTTP tests.",
    stability="experimental",
    capabilities=(
        Capability(
            id="probe.fail",
            title="Fail as asked",
            description="Raises the error it is asked for.",
            handler=_fail,
            http=("GET", "/api/v1/probe/fail"),
            stability="experimental",
        ),
        Capability(
            id="probe.echo",
            title="Echo",
            description="Answers its input.",
            handler=_echo,
            http=("GET", "/api/v1/probe/echo"),
            stability="experimental",
        ),
        Capability(
            id="probe.note",
            title="Note",
            description="A command that writes the repository (it does not really).",
            handler=_note,
            kind="command",
            writes_repository=True,
            http=("POST", "/api/v1/probe/note"),
            stability="experimental",
            cases=lambda ctx: [("hello", {"note": "hello"})],
        ),
    ),
)


@pytest.fixture(scope="session")
def probe_context(served_repo: Path) -> Workspace:
    """The served repository with the built-in modules plus the probe module."""
    ctx = Workspace(served_repo, environ=command_env())
    ctx.__dict__["registry"] = build_registry([*builtin_modules(), PROBE])
    return ctx
