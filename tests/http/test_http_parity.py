"""Parity: every query capability with an HTTP route answers over HTTP exactly what the CLI
prints with `--format json` for the same input (issue 7 acceptance).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest

from majordomus.capabilities.builtin import builtin_modules
from majordomus.capabilities.workspace import Workspace
from majordomus.cli.app import lazy_cli
from majordomus.errors import CapabilityError
from majordomus.http.middleware import hider
from tests.conftest import run_majordomus

QUERIES = sorted(
    cap.id
    for module in builtin_modules()
    for cap in module.composed()
    if cap.kind == "query" and cap.http is not None
)
EXIT_FOR_STATUS = {400: 13, 403: 13, 404: 12, 422: 13, 500: 13}
WORDS_FOR_CODE = {
    "invalid_input": "invalid input",
    "not_found": "not found",
    "refused": "refused",
    "forbidden": "forbidden",
    "internal": "internal",
}


def query_params(value: dict[str, Any]) -> dict[str, str]:
    """The client-side GET binding (docs/http.md): strings raw, everything else compact JSON."""
    return {
        key: item if isinstance(item, str) else json.dumps(item, separators=(",", ":"))
        for key, item in value.items()
        if item is not None
    }


def cli_args(command: click.Command, value: dict[str, Any]) -> list[str] | None:
    """The command line for `value` through the command's own parameters, or None."""
    by_name = {param.name: param for param in command.params}
    positional: list[str] = []
    options: list[str] = []
    for key, item in value.items():
        param = by_name.get(key)
        if param is None:
            return None
        if isinstance(param, click.Argument):
            positional.append(str(item))
        elif isinstance(param, click.Option) and param.is_flag:
            if item:
                options.append(param.opts[0])
        elif isinstance(param, click.Option):
            for one in item if isinstance(item, list) else [item]:
                options += [param.opts[0], str(one)]
    return positional + options


@pytest.fixture(scope="module")
def context(served_repo: Path, server_env: dict[str, str]) -> Workspace:
    return Workspace(served_repo, environ=server_env)


@pytest.fixture(scope="module")
def cli_root() -> click.Group:
    return lazy_cli()


@pytest.mark.parametrize("capability_id", QUERIES)
def test_http_answers_what_the_cli_prints(
    capability_id: str, server: Any, context: Workspace, cli_root: click.Group, served_repo: Path
) -> None:
    cap = context.registry.get(capability_id)
    assert cap is not None and cap.http is not None
    cases = cap.benchmark_cases(context)
    hide = hider([served_repo])
    assert cases, f"{capability_id} has no benchmark case to compare with"
    with server.client() as client:
        for name, value in cases:
            answer = client.get(cap.http[1], params=query_params(value))
            if cap.cli is None:
                try:
                    direct: Any = context.executor.call(cap.id, value)
                except CapabilityError as exc:
                    assert answer.status_code == exc.http_status, (name, answer.text)
                    assert answer.json()["error"] == {"code": exc.code, "message": exc.message}
                    continue
                assert answer.status_code == 200, (name, answer.text)
                # HTTP shows the repository's absolute root as its last name
                assert answer.json() == json.loads(hide(json.dumps(direct).encode())), name
                continue
            command: click.Command | None = cli_root
            for word in cap.cli:
                assert isinstance(command, click.Group)
                command = command.get_command(None, word)  # type: ignore[arg-type]
            assert command is not None
            args = cli_args(command, value)
            assert args is not None, f"{capability_id} case {name}: no CLI spelling for {value}"
            printed = run_majordomus([*cap.cli, *args, "--format", "json"], cwd=served_repo)
            if answer.status_code != 200:
                error = answer.json()["error"]
                assert printed.code == EXIT_FOR_STATUS[answer.status_code], (name, printed)
                words = WORDS_FOR_CODE[error["code"]]
                assert printed.stderr == f"majordomus: {words}: {error['message']}\n", name
                continue
            assert printed.code in (0, 10), (name, printed.stderr)
            assert json.loads(hide(printed.stdout.encode())) == answer.json(), name
