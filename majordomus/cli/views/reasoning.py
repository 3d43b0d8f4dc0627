"""Text renderings of the `reasoning` capabilities, one section per capability."""

from __future__ import annotations

import io
import os
import stat
from typing import Any, BinaryIO

import click
from pydantic import ValidationError

from majordomus.bounded_json import loads, refusal
from majordomus.cli.views import CliView, Params, lines, more
from majordomus.egress import one_line
from majordomus.errors import EXIT_CONTRACT, InvalidInput
from majordomus.ledger.record import (
    MAX_RECORD_BYTES,
    describe_record_error,
    parse_input,
    record_size_problem,
)


def _advisor_row(state: dict[str, Any]) -> str:
    row = f"  {state['id']:<14} {state['status']:<18} {state['transport']:<13} {state['reason']}"
    if state.get("recovering"):
        row += " (recovering)"
    if state.get("circuit"):
        row += f" until {state['circuit']['until']}"
    return row


def advisors(out: Any, _: Params) -> str:
    mode = out["mode"]
    return lines(
        f"reasoning   operational · mode {mode['mode']} ({mode['source']})",
        f"advisors    {out['available']} available · {out['unavailable']} optional unavailable",
        *(_advisor_row(s) for s in out["advisors"]),
        "capacity",
        *(
            f"  {row['capability']:<22} {', '.join(row['available']) or 'local review'}"
            for row in out["capacity"]
        ),
        *(f"diagnostic  {text}" for text in out.get("diagnostics", [])),
    )


def plan(out: Any, _: Params) -> str:
    return lines(
        f"outcome     {out['outcome']}",
        f"reason      {out['reason']}",
        f"mode        {out['mode']} ({out['mode_source']}) · budget {out['budget']} · "
        f"available {out['available']}",
        *(
            f"consult     {s['advisor']} — covers {', '.join(s['covers'])} — {s['why']}"
            for s in out["selected"]
        ),
        *(f"excluded    {e['advisor']} — {e['reason']}" for e in out["excluded"]),
        *(f"local       {step}" for step in out.get("local_review", [])),
    )


def _read_limited(source: BinaryIO) -> bytes:
    """Read one byte more than the record limit at most: a larger input is refused unread."""
    data = source.read(MAX_RECORD_BYTES + 1)
    if len(data) <= MAX_RECORD_BYTES:
        return data
    try:
        info: os.stat_result | None = os.fstat(source.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        info = None
    problem = record_size_problem(info.st_size) if info and stat.S_ISREG(info.st_mode) else None
    raise InvalidInput(problem or f"the record is over the 1 MiB limit ({MAX_RECORD_BYTES} bytes)")


def _record_input(values: Params) -> dict[str, Any]:
    """The bare record from `--file` (stdin by default) as `{"record": …}`, validated bare so
    an error names its fields as the user wrote them."""
    source = values["file"]
    try:
        data = _read_limited(source)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InvalidInput(f"the record could not be read from {source.name}: {reason}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte order mark is dropped
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"the record is not UTF-8 text (byte {exc.start} cannot be decoded)"
        ) from None
    if not text.strip():
        where = "standard input" if source.name == "<stdin>" else source.name
        raise InvalidInput(
            f"no input: {where} is empty; give one record as JSON with its `kind` "
            "(`majordomus schema assessment` shows what an assessment holds)"
        )
    try:
        record = loads(text)
    except ValueError as exc:
        raise InvalidInput(f"the record {refusal(exc)}") from None
    if not isinstance(record, dict):
        raise InvalidInput("the record must be a JSON object with a `kind`")
    try:
        given = parse_input(record)
    except ValidationError as exc:
        raise InvalidInput(describe_record_error(exc)) from None
    raw: dict[str, Any] = {"record": given}
    if values.get("task") is not None:
        raw["task"] = values["task"]
    return raw


def record(out: Any, _: Params) -> str:
    step = out["step"]
    return lines(
        f"[reasoning] {step['phase']} {step['id']}",
        f"  {step['summary']}",
        f"  recorded {out['path']}",
    )


RECORD_FILE = click.Option(
    ["--file"],
    type=click.File("rb"),
    default="-",
    help="Read the record (JSON with its `kind`) from this file instead of standard input.",
)


def _pushed(out: Any) -> list[str]:
    tasks = f" of {', '.join(out['tasks'])}" if out["tasks"] else ""
    verb = "would push" if out["dry_run"] else "pushed"
    return [
        f"{verb:<11} {len(out['records'])} record(s){tasks} to {out['remote']} ({out['ref']})",
        *([f"redacted    {out['redacted']} record(s) again"] if out["redacted"] else []),
        *(f"  {path}" for path in out["records"] if out["dry_run"]),
    ]


def _pulled(out: Any) -> list[str]:
    return [
        f"pulled      {out['records']} new record(s) from {len(out['writers'])} writer(s) of "
        f"{out['remote']}",
        *(f"quarantined {q['ref']}: {q['reason']}" for q in out["quarantined"]),
    ]


def pull_exit(out: Any) -> int:
    """A ref kept aside means the team's ledger is not what it was: the contract is unmet."""
    return EXIT_CONTRACT if out["quarantined"] else 0


def status(out: Any, values: Params) -> str:
    if values.get("report"):
        from majordomus.ledger.tasks import UNTASKED

        if values.get("task") is None and out["state"]["task"] == UNTASKED:
            # no current task: say so and name the tasks that have records on stderr (stdout
            # keeps the report alone, as other tools read it)
            from majordomus.cli.errors import fail
            from majordomus.cli.settings import settings
            from majordomus.ledger.store import Store
            from majordomus.projections.handover import task_counts

            counts = task_counts(Store(settings().context().root).load().records)
            named = ", ".join(f"{t.task} ({t.records})" for t in counts)
            fail(
                "no current task is set (`majordomus reasoning task set NAME` chooses one); "
                + (f"tasks with records: {named}" if counts else "no task has records yet")
            )
        return out["report"]
    state, mode, totals = out["state"], out["mode"], out["state"]["totals"]
    return lines(
        f"task        {state['task']}",
        f"mode        {mode['mode']} ({mode['source']}) · advisors "
        f"{out['advisors_available']} available, {out['advisors_unavailable']} unavailable",
        f"records     {totals['records']} · consultations {totals['consultations_completed']} "
        f"completed, {totals['consultations_failed']} failed · independent reviewers "
        f"{totals['independent_reviewers']}",
        *(f"  {s['at']}  {s['phase']:<16} {s['summary']}" for s in state["timeline"]),
        *(one_line(f"unreadable  {path}") for path in state.get("unreadable", [])),
        *(
            f"collision   {c['id']}: {c['replayed']} is replayed, not "
            f"{', '.join(c['not_replayed'])}"
            for c in state.get("collisions", [])
        ),
        *more(out, len(state["timeline"])),
    )


def explain(out: Any, _: Params) -> str:
    record = out["record"]
    return lines(
        f"record      {record['id']} ({record['body']['kind']})",
        f"assessment  {out.get('assessment') or 'none'}",
        *(f"  {s['phase']:<16} {s['id']}  {s['summary']}" for s in out["chain"]),
    )


def check(out: Any, _: Params) -> str:
    return lines(
        f"checks      {', '.join(out['checks'])}",
        *(["ok          no finding"] if not out["findings"] else []),
        *(
            one_line(f"FAIL {f['check']:<9} {f['subject']}: {f['message']}")
            for f in out["findings"]
        ),
    )


def check_exit(out: Any) -> int:
    """A finding means the contract is unmet."""
    return 0 if out["ok"] else EXIT_CONTRACT


def handover(out: Any, _: Params) -> str:
    return str(out["markdown"])


REPORT = click.Option(
    ["--report"],
    is_flag=True,
    default=False,
    help="Print only the Markdown report, ready to paste into a handover.",
)

VIEWS = {
    "reasoning.advisors": CliView(text=advisors),
    "reasoning.plan": CliView(text=plan),
    "reasoning.record": CliView(text=record, options=(RECORD_FILE,), prepare=_record_input),
    "reasoning.status": CliView(text=status, options=(REPORT,)),
    "reasoning.explain": CliView(text=explain, arguments=("id",)),
    "reasoning.check": CliView(text=check, exit_code=check_exit),
    "reasoning.handover": CliView(text=handover),
    "reasoning.push": CliView(text=lambda out, _: lines(*_pushed(out)), arguments=("remote",)),
    "reasoning.pull": CliView(
        text=lambda out, _: lines(*_pulled(out)), arguments=("remote",), exit_code=pull_exit
    ),
    "reasoning.sync": CliView(
        text=lambda out, _: lines(*_pulled(out["pulled"]), *_pushed(out["pushed"])),
        arguments=("remote",),
        exit_code=lambda out: pull_exit(out["pulled"]),
    ),
}
