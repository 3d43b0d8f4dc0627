"""Concurrent writers (docs/ledger.md#several-writers-at-once), in process and over the CLI,
lose nothing and collide on nothing: one parseable file per call, no temporary left, `check`
clean."""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from majordomus.ledger.store import STATE_DIR, Store
from tests.conftest import run_majordomus
from tests.reliability.conftest import soak

TASK = "swarm"
WORKERS = 8
CALLS = 100
CLI_CALLS = soak(5, 100)


def record_for(worker: int, number: int, last: str | None) -> dict[str, Any]:
    """Every fifth record an attempt on the worker's last assessment, else an assessment."""
    if last is not None and number % 5 == 4:
        return {
            "kind": "attempt",
            "assessment": last,
            "attempt": f"worker {worker} try {number}",
            "observed_failure": "still racing",
        }
    return {"kind": "assessment", "subject": f"worker {worker} question {number}"}


def executor_worker(
    root: str, environ: dict[str, str], worker: int, calls: int, start: Any, out: Any
) -> None:
    """One writer process: wait for the others, then record `calls` records in-process."""
    from majordomus.capabilities.workspace import Workspace

    ctx = Workspace(Path(root), environ=environ)
    ctx.executor.capability("reasoning.record")  # registry built before the start line
    start.wait()
    written: list[tuple[str, str]] = []
    last: str | None = None
    for number in range(calls):
        answer = ctx.executor.call(
            "reasoning.record", {"record": record_for(worker, number, last), "task": TASK}
        )
        record = answer["record"]
        if record["body"]["kind"] == "assessment":
            last = record["id"]
        written.append((record["id"], answer["path"]))
    out.put((worker, written))


def assert_store_holds(root: Path, written: list[tuple[str, str]], env: dict[str, str]) -> None:
    """Exactly the written records, one file each, all parseable, nothing else, check clean."""
    folder = root / STATE_DIR / TASK
    names = sorted(p.name for p in folder.iterdir())
    ids = [ident for ident, _ in written]
    assert len(set(ids)) == len(ids), "a minted id was handed out twice"
    assert names == sorted(f"{ident}.json" for ident in ids), "only the records, no leftovers"
    assert sorted(path for _, path in written) == sorted(
        f"{STATE_DIR}/{TASK}/{ident}.json" for ident in ids
    )
    loaded = Store(root).load()
    assert loaded.unreadable == []
    assert sorted(r.id for r in loaded.records) == sorted(ids)
    for record in loaded.records:
        on_disk = json.loads((folder / f"{record.id}.json").read_text(encoding="utf-8"))
        assert on_disk == record.wire()
        assert on_disk["task"] == TASK
    done = run_majordomus(["reasoning", "check", "--format", "json"], cwd=root, env=env)
    assert done.code == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ok"] is True
    status = run_majordomus(
        ["reasoning", "status", "--task", TASK, "--format", "json"], cwd=root, env=env
    )
    assert status.code == 0, status.stderr
    assert json.loads(status.stdout)["state"]["totals"]["records"] == len(ids)


def test_eight_processes_record_eight_hundred_records_at_once(
    repo: Path, suite_env: dict[str, str]
) -> None:
    spawn = multiprocessing.get_context("spawn")
    start = spawn.Event()
    out = spawn.Queue()
    workers = [
        spawn.Process(
            target=executor_worker, args=(str(repo), suite_env, n, CALLS, start, out), daemon=True
        )
        for n in range(WORKERS)
    ]
    for process in workers:
        process.start()
    start.set()
    results = dict(out.get(timeout=300) for _ in workers)
    for process in workers:
        process.join(timeout=60)
        assert process.exitcode == 0
    written = [item for n in sorted(results) for item in results[n]]
    assert len(written) == WORKERS * CALLS
    assert_store_holds(repo, written, suite_env)


def test_eight_concurrent_cli_streams(repo: Path, suite_env: dict[str, str]) -> None:
    def stream(worker: int) -> list[tuple[str, str]]:
        written = []
        last = None
        for number in range(CLI_CALLS):
            done = run_majordomus(
                ["reasoning", "record", "--task", TASK, "--format", "json"],
                cwd=repo,
                input=json.dumps(record_for(worker, number, last)),
                env=suite_env,
            )
            assert (done.code, done.stderr) == (0, ""), done.stderr
            answer = json.loads(done.stdout)
            if answer["record"]["body"]["kind"] == "assessment":
                last = answer["record"]["id"]
            written.append((answer["record"]["id"], answer["path"]))
        return written

    with ThreadPoolExecutor(WORKERS) as pool:
        streams = list(pool.map(stream, range(WORKERS)))
    written = [item for items in streams for item in items]
    assert len(written) == WORKERS * CLI_CALLS
    assert_store_holds(repo, written, suite_env)
