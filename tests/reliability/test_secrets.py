"""Secrets never reach disk (docs/ledger.md#the-redacted-vocabulary): every shape of the
corpus, in every free-text field of every record kind, through the writer; the store is grepped
byte by byte and each record's `redacted` list must name exactly the shapes that were in it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from majordomus import Repository
from majordomus.ledger.lock import LOCK_NAME
from majordomus.ledger.record import parse_body, parse_input
from majordomus.ledger.service import redact
from majordomus.ledger.store import STATE_DIR
from tests.conftest import run_majordomus
from tests.reliability.chain import (
    MODELS,
    REFERENCES,
    filled_paths,
    free_text_paths,
    inputs,
    record_chain,
    string_paths,
)
from tests.reliability.secret_corpus import CORPUS, LABELS, Secret

IDS = {kind: f"{kind}-1" for kind in MODELS}
FIELDS = sorted(path for kind in MODELS for path in free_text_paths(kind))


def store_bytes(root: Path) -> dict[str, bytes]:
    """Every file under the store (temporary ones included), by path."""
    base = root / STATE_DIR
    return {
        p.relative_to(base).as_posix(): p.read_bytes()
        for p in base.rglob("*")
        if p.is_file() and p.name != LOCK_NAME
    }


def leaks_in(data: bytes, secrets: list[Secret]) -> list[str]:
    """The labels of secrets whose material appears in `data` (raw or JSON-escaped)."""
    found = []
    for secret in secrets:
        for leak in secret.leaks:
            escaped = json.dumps(leak, ensure_ascii=False)[1:-1]
            if leak.encode() in data or escaped.encode() in data:
                found.append(secret.label)
    return found


def test_the_chain_fills_every_free_text_field() -> None:
    for kind in MODELS:
        assert filled_paths(kind, IDS) == free_text_paths(kind), kind
        assert REFERENCES & string_paths(kind) <= {p for p in REFERENCES if p.startswith(kind)}
    assert len(FIELDS) >= 40


def _stored_body(kind: str, value: dict[str, Any]) -> Any:
    """The body admission would store for an input (without running the policy)."""
    if kind == "conclusion":
        value = {**value, "reviewed_by": [], "independent_review_count": 0}
    return parse_body(value)


@pytest.mark.parametrize("secret", CORPUS, ids=LABELS)
def test_each_shape_in_each_field_is_redacted(secret: Secret) -> None:
    """Pure: the secret alone in one field at a time, every other field harmless."""
    for field in FIELDS:
        kind = field.split(".", 1)[0]

        def text(path: str, field: str = field) -> str:
            return f"note: {secret.text}" if path == field else "harmless words"

        body, kinds = redact(_stored_body(kind, inputs(kind, text, IDS)))
        data = json.dumps(body.wire(), ensure_ascii=False).encode()
        assert leaks_in(data, [secret]) == [], field
        assert set(kinds) == secret.shapes, field


@pytest.fixture(scope="module")
def recorded(
    tmp_path_factory: pytest.TempPathFactory,
    template: Path,
    suite_env: dict[str, str],
) -> tuple[Path, dict[str, list[Any]]]:
    """One chain per corpus entry, each in its own task, written as a library user writes it."""
    import shutil

    root = tmp_path_factory.mktemp("secrets") / "repo"
    shutil.copytree(template, root, symlinks=True)
    ledger = Repository.open(root, environ=suite_env).ledger
    chains: dict[str, list[Any]] = {}
    for number, secret in enumerate(CORPUS):

        def call(record: dict[str, Any], task: str = f"secret-{number}") -> Any:
            return ledger.record(parse_input(record), task=task).wire()

        # the number keeps subjects apart: a redacted subject seen before would reuse a prior
        chains[secret.label] = record_chain(
            call, lambda path, s=secret, n=number: f"{path} #{n}: {s.text}"
        )
    return root, chains


def test_no_secret_reaches_the_store(recorded: tuple[Path, dict[str, list[Any]]]) -> None:
    root, _ = recorded
    files = store_bytes(root)
    assert len(files) == len(CORPUS) * len(MODELS)
    assert all(name.endswith(".json") and "/." not in name for name in files)
    for name, data in files.items():
        assert leaks_in(data, list(CORPUS)) == [], name


@pytest.mark.parametrize("secret", CORPUS, ids=LABELS)
def test_every_record_names_the_shapes_it_lost(
    recorded: tuple[Path, dict[str, list[Any]]], secret: Secret
) -> None:
    root, chains = recorded
    for answer in chains[secret.label]:
        on_disk = json.loads((root / answer["path"]).read_text(encoding="utf-8"))
        assert on_disk == answer["record"]
        expected = [] if on_disk["body"]["kind"] == "plan" else sorted(secret.shapes)
        assert on_disk.get("redacted", []) == expected, on_disk["body"]["kind"]


def test_the_cli_writes_no_secret(
    fresh_repo: Callable[[str], Path], suite_env: dict[str, str]
) -> None:
    """The whole corpus at once in every field, through `majordomus reasoning record`."""
    root = fresh_repo("cli")
    everything = " | ".join(secret.text for secret in CORPUS)

    def call(record: dict[str, Any]) -> Any:
        done = run_majordomus(
            ["reasoning", "record", "--format", "json", "--task", "cli"],
            cwd=root,
            input=json.dumps(record),
            env=suite_env,
        )
        assert (done.code, done.stderr) == (0, ""), done.stderr
        assert leaks_in(done.stdout.encode(), list(CORPUS)) == []
        return json.loads(done.stdout)

    answers = record_chain(call, lambda path: f"{path}: {everything}")
    every_shape = sorted({shape for secret in CORPUS for shape in secret.shapes})
    for answer in answers:
        if answer["record"]["body"]["kind"] != "plan":
            assert answer["record"]["redacted"] == every_shape
    for name, data in store_bytes(root).items():
        assert leaks_in(data, list(CORPUS)) == [], name
