"""Fixtures for the MCP surface. No `__init__.py` here on purpose: as a package it would be
named `mcp` and hide the official MCP SDK the client tests drive; helpers are fixtures.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result, initialised_repo, run_majordomus


@pytest.fixture(scope="session")
def initialised_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One `majordomus init` + commit per test run; tests work on copies of it."""
    return initialised_repo(tmp_path_factory.mktemp("template") / "repo")


@pytest.fixture
def layer_repo(initialised_template: Path, tmp_path: Path) -> Path:
    """A private copy of the initialised repository (its `.git` included)."""
    target = tmp_path / "repo"
    shutil.copytree(initialised_template, target, symlinks=True)
    return target


@dataclass
class Session:
    result: Result
    responses: list[Any]


class Pipes:
    """Build JSON-RPC messages and run `majordomus mcp` over them, one message per line."""

    @staticmethod
    def encode(message: Any) -> bytes:
        return message if isinstance(message, bytes) else json.dumps(message).encode()

    @staticmethod
    def request(id_: Any, method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            message["params"] = params
        return message

    @classmethod
    def call(cls, id_: Any, name: str, arguments: Any = None) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return cls.request(id_, "tools/call", params)

    @staticmethod
    def notification(method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        return message

    @staticmethod
    def error(id_: Any, code: int, message: str) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}

    @staticmethod
    def assert_parse_error(answer: Any, message: str | None = None) -> None:
        """-32700 with id null; the message starts `parse error: ` (or is `message`)."""
        assert set(answer) == {"jsonrpc", "id", "error"}
        assert (answer["jsonrpc"], answer["id"], answer["error"]["code"]) == ("2.0", None, -32700)
        assert set(answer["error"]) == {"code", "message"}
        assert answer["error"]["message"].startswith("parse error: ")
        if message is not None:
            assert answer["error"]["message"] == message

    @staticmethod
    def assert_refusal(answer: Any, id_: Any, code: str, prefix: str | None = None) -> None:
        """A tool's refusal: the code in `_meta`, one text block that starts with `prefix`
        (by default the code in words)."""
        assert answer["jsonrpc"] == "2.0" and answer["id"] == id_, answer
        result = answer["result"]
        assert set(result) == {"content", "isError", "_meta"}, result
        assert result["isError"] is True
        assert result["_meta"] == {"majordomus": {"error": {"code": code}}}
        [content] = result["content"]
        start = code.replace("_", " ") + ": " if prefix is None else prefix
        assert content["type"] == "text" and content["text"].startswith(start), content

    def run(
        self,
        root: Path,
        messages: Sequence[Any],
        *,
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
    ) -> Session:
        """Send every message, close stdin, parse every stdout line (each must be JSON)."""
        data = b"".join(self.encode(m) + b"\n" for m in messages)
        result = run_majordomus(["mcp", *args], cwd=root, input=data, env=env)
        responses = [json.loads(line) for line in result.stdout.split("\n") if line]
        return Session(result, responses)

    def every_resource(self, root: Path) -> list[Any]:
        """`resources/list`, page after page, one session each, until no `nextCursor`."""
        listed: list[Any] = []
        cursor = None
        while True:
            params = None if cursor is None else {"cursor": cursor}
            [response] = self.run(root, [self.request(1, "resources/list", params)]).responses
            listed += response["result"]["resources"]
            cursor = response["result"].get("nextCursor")
            if cursor is None:
                return listed


@pytest.fixture
def pipes() -> Pipes:
    return Pipes()
