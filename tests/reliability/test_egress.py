"""Everything that leaves the process passes the redactor and the control-character filter
(docs/RELIABILITY.md, "Redaction and egress"): no sample of `secret_samples` leaves on any
path, and the ordinary corpus bounds the false positives."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from majordomus import AssessmentInput, ReasoningEvidence, ReasoningEvidenceKind, Repository
from majordomus.egress import answer_json, clean, clean_json, clean_line, excerpt
from majordomus.ledger.store import STATE_DIR
from majordomus.redaction.redactor import redact_text
from majordomus.wire import Wire
from tests.conftest import git, run_majordomus, serve
from tests.mcp.conftest import Pipes
from tests.reliability.secret_samples import (
    FAMILIES,
    ORDINARY,
    SAMPLES,
    TASK_TOKENS,
    Sample,
    leaks_in,
)

IDS = [f"{sample.family}-{n}" for n, sample in enumerate(SAMPLES)]
ESCAPES = "Evil \x1b[2J\x1b]52;c;ZXZpbA==\x07 \x9b31m \u202egnp.exe\u202c rule"


_ESCAPABLE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|[A-Za-z0-9]")


def _escape_letter(match: re.Match[str]) -> str:
    """A letter or digit written as a JSON `\\u` escape; existing escapes kept."""
    text = match.group()
    return text if text.startswith("\\") else f"\\u{ord(text):04x}"


def store_text(root: Path) -> str:
    """Every file under the store, concatenated (temporary files included)."""
    base = root / STATE_DIR
    return "\n".join(
        p.read_text("utf-8", "replace") for p in sorted(base.rglob("*")) if p.is_file()
    )


# -- the corpora ---------------------------------------------------------------------------------


def test_the_corpora_are_large_and_varied() -> None:
    assert len(SAMPLES) >= 100
    assert len(FAMILIES) >= 30
    assert len(ORDINARY) >= 200
    assert {"pem-escaped", "json-in-json", "assignment", "url-credentials"} <= FAMILIES


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_every_sample_is_redacted_wherever_it_goes_out(sample: Sample) -> None:
    for cleaned in (
        redact_text(sample.text),
        clean(sample.text),
        clean_line(sample.text),
        excerpt(sample.text, 10_000),
    ):
        assert leaks_in(cleaned, [sample]) == [], cleaned
        assert "[redacted:" in cleaned
    document = json.dumps({"value": sample.text, "nested": [{"note": sample.text}]}, indent=2)
    served = clean_json(document, lambda v: json.dumps(v, indent=2))
    assert leaks_in(served, [sample]) == []
    assert json.loads(served)["value"] == json.loads(served)["nested"][0]["note"]
    assert clean_json(document, lambda v: json.dumps(v, indent=2)) == served


def test_false_positives_stay_under_one_percent() -> None:
    changed = [line for line in ORDINARY if redact_text(line) != line]
    assert len(changed) / len(ORDINARY) <= 0.01, changed


# -- the filter ------------------------------------------------------------------------------------


def test_terminal_controls_are_escaped_and_layout_is_kept() -> None:
    assert clean(ESCAPES + "\nnext\tcolumn") == (
        "Evil \\x1b[2J\\x1b]52;c;ZXZpbA==\\x07 \\x9b31m \\u202egnp.exe\\u202c rule\nnext\tcolumn"
    )
    assert clean_line("one\ntwo\tthree\r") == "one\\ntwo\\tthree\\r"
    assert clean("plain text") == "plain text"


def test_an_excerpt_is_short_redacted_and_one_line() -> None:
    token = "ghp_" + "Q" * 36
    shown = excerpt("x" * 70 + token + "\n" + "y" * 10_000)
    assert len(shown) <= 80
    assert "Q" * 8 not in shown
    assert "\n" not in shown
    assert excerpt("short\x1b[2J") == "short\\x1b[2J"


def test_json_stays_valid_deterministic_and_escapes_what_json_does_not() -> None:
    value = {"title": "a\x7fb\x85c\u202ed", "key": 1, "token": 12345678901234567890}
    text = json.dumps(value, ensure_ascii=False)
    cleaned = clean_json(text, lambda v: json.dumps(v, ensure_ascii=False))
    assert cleaned == clean_json(text, lambda v: json.dumps(v, ensure_ascii=False))
    assert json.loads(cleaned) == value
    assert "\x7f" not in cleaned and "\x85" not in cleaned and "\u202e" not in cleaned


UNSAFE_IN_JSON = "\x7f\x80\x85\x9f\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069"


@pytest.mark.parametrize("char", UNSAFE_IN_JSON)
def test_json_bytes_escape_what_a_viewer_would_act_on(char: str) -> None:
    """Each such character is escaped, next to the characters ordinary text holds (`—`, `→`);
    the JSON value is unchanged."""
    value = {"summary": f"a — b → c {char} d", "plain": "x\u2030y"}
    cleaned = clean_json(json.dumps(value, ensure_ascii=False), json.dumps)
    assert char not in cleaned
    assert json.loads(cleaned) == value


@pytest.mark.parametrize(
    "sample", SAMPLES[:: max(1, len(SAMPLES) // 20)], ids=IDS[:: max(1, len(SAMPLES) // 20)]
)
def test_json_bytes_holding_a_secret_are_redacted(sample: Sample) -> None:
    def dumps(v: Any) -> str:
        return json.dumps(v, indent=2)

    text = dumps({"steps": [{"summary": "— fine"}, {"summary": sample.text}]})
    assert leaks_in(clean_json(text, dumps), [sample]) == []


class _Answer(Wire):
    summary: str
    n: int


def test_an_answer_with_nothing_to_clean_is_its_indented_json() -> None:
    answer = _Answer(summary="ship change 1 — reviewed → done…", n=1)
    expected = json.dumps(answer.wire(), ensure_ascii=False, indent=2) + "\n"
    assert answer_json(answer) == expected.encode("utf-8")


# -- before disk -----------------------------------------------------------------------------------


def test_no_sample_reaches_the_store_through_the_writer(
    fresh_repo: Callable[[str], Path], suite_env: dict[str, str]
) -> None:
    """Each sample alone, in the subject and in a nested evidence note, one task each."""
    root = fresh_repo("writer")
    ledger = Repository.open(root, environ=suite_env).ledger
    for number, sample in enumerate(SAMPLES):
        record = AssessmentInput(
            subject=f"#{number} {sample.text}",
            facts=[sample.text],
            evidence=[
                ReasoningEvidence(
                    kind=ReasoningEvidenceKind.COMMAND, reference="env", note=sample.text
                )
            ],
        )
        ledger.record(record, task=f"sample-{number}")
    assert leaks_in(store_text(root)) == []


def test_the_cli_writes_no_sample_even_behind_json_escapes(
    fresh_repo: Callable[[str], Path], suite_env: dict[str, str]
) -> None:
    """The whole corpus at once through `reasoning record`, sent with every character that
    JSON can escape escaped (`\\u0067hp_…`): the redactor sees the decoded text."""
    root = fresh_repo("cli")
    record = {
        "kind": "assessment",
        "subject": "\n".join(sample.text for sample in SAMPLES),
        "facts": [sample.text for sample in SAMPLES],
        "evidence": [{"kind": "file", "reference": "x", "note": s.text} for s in SAMPLES],
    }
    sent = _ESCAPABLE.sub(_escape_letter, json.dumps(record))
    assert json.loads(sent) == record
    done = run_majordomus(
        ["reasoning", "record", "--format", "json", "--task", "cli"],
        cwd=root,
        input=sent,
        env=suite_env,
    )
    assert done.code == 0, done.stderr
    assert leaks_in(done.stdout + done.stderr) == []
    assert leaks_in(store_text(root)) == []
    assert json.loads(done.stdout)["record"]["redacted"]


@pytest.mark.parametrize("token", TASK_TOKENS, ids=[t[:4] for t in TASK_TOKENS])
def test_a_task_name_that_is_a_token_is_refused_and_never_echoed(
    repo: Path, suite_env: dict[str, str], token: str
) -> None:
    done = run_majordomus(
        ["reasoning", "record", "--task", token],
        cwd=repo,
        input=json.dumps({"kind": "assessment", "subject": "s"}),
        env=suite_env,
    )
    assert done.code == 13
    assert "shape of a secret" in done.stderr
    assert token[4:] not in done.stdout + done.stderr
    store = repo / STATE_DIR
    assert not store.exists() or token not in "\n".join(str(p) for p in store.rglob("*"))


# -- before any output -----------------------------------------------------------------------------


def _rule(number: int, title: str, body: str) -> str:
    return (
        f"---\nid: project.sample-{number}\nversion: 1\nkind: rule\ntitle: {title}\n"
        f"description: sample {number}\nstatement: Keep it.\nstatus: active\n"
        f"class: advisory\ndepends_on: []\ntags: []\n---\n# Rationale\n\n{body}\n"
    )


@pytest.fixture(scope="module")
def secret_layer(tmp_path_factory: pytest.TempPathFactory, template: Path) -> Path:
    """A layer whose rules carry the corpus in their bodies, and one rule whose title holds
    terminal escapes."""
    root = tmp_path_factory.mktemp("layer") / "repo"
    shutil.copytree(template, root, symlinks=True)
    rules = root / ".ai/repo/rules/project"
    rules.mkdir(parents=True, exist_ok=True)
    for number, sample in enumerate(SAMPLES):
        (rules / f"sample-{number}.v1.md").write_text(_rule(number, "Sample", sample.text))
    (rules / "escapes.v1.md").write_text(_rule(999, ESCAPES, "body"), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "secrets in the layer")
    return root


def test_objects_list_prints_terminal_escapes_escaped(secret_layer: Path) -> None:
    done = run_majordomus(["objects", "list"], cwd=secret_layer)
    assert done.code == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "\x9b" not in done.stdout and "\u202e" not in done.stdout
    assert "Evil \\x1b[2J\\x1b]52;c;ZXZpbA==\\x07" in done.stdout
    listed = run_majordomus(["objects", "list", "--format", "json"], cwd=secret_layer)
    titles = [o["title"] for o in json.loads(listed.stdout)["objects"]]
    assert ESCAPES in titles
    assert "\u202e" not in listed.stdout and "\x9b" not in listed.stdout


#: One sample of each family for the per-object CLI runs (each is a process start); MCP and
#: HTTP below serve the whole corpus from one process each.
FIRST_OF_FAMILY = sorted({s.family: n for n, s in reversed(list(enumerate(SAMPLES)))}.values())


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_cli_serves_no_sample(secret_layer: Path, form: str) -> None:
    for number in FIRST_OF_FAMILY[::2] if form == "json" else FIRST_OF_FAMILY[1::5]:
        uri = f"majordomus://rule/project.sample-{number}@1"
        done = run_majordomus(["objects", "get", uri, "--format", form], cwd=secret_layer)
        assert done.code == 0, done.stderr
        assert leaks_in(done.stdout) == [], uri
        if form == "json":
            json.loads(done.stdout)


def test_mcp_serves_no_sample_and_echoes_no_token_even_in_its_log(
    secret_layer: Path, suite_env: dict[str, str]
) -> None:
    token = TASK_TOKENS[0]
    pipes = Pipes()
    messages: list[Any] = [
        pipes.request(0, "initialize", {"protocolVersion": "2025-06-18"}),
        pipes.request(1, "resources/list"),
        pipes.call(2, token),
        pipes.request(3, token),
        pipes.call(4, "majordomus_list", {"kind": "rule"}),
        pipes.request(5, "resources/read", {"uri": f"majordomus://nope/{token}"}),
    ]
    messages += [
        pipes.call(10 + n, "majordomus_get", {"uri": f"majordomus://rule/project.sample-{n}@1"})
        for n in range(len(SAMPLES))
    ]
    session = pipes.run(secret_layer, messages, env={**suite_env, "MAJORDOMUS_LOG": "trace"})
    out = session.result.stdout + session.result.stderr
    assert "majordomus[" in session.result.stderr, "the log lines are checked too"
    assert leaks_in(out) == []
    assert token[4:] not in out
    by_id = {answer["id"]: answer for answer in session.responses}
    assert by_id[2]["error"]["code"] == -32602
    assert "[redacted:github-token]" in by_id[2]["error"]["message"]
    assert "[redacted:github-token]" in by_id[3]["error"]["message"]
    for n in range(len(SAMPLES)):
        assert by_id[10 + n]["result"]["isError"] is False


def test_http_serves_no_sample(secret_layer: Path, suite_env: dict[str, str]) -> None:
    token = TASK_TOKENS[0]
    served = serve(secret_layer, env=suite_env)
    try:
        with served.client() as client:
            bodies = [client.get("/api/v1/objects", params={"kind": "rule"}).text]
            for n in range(len(SAMPLES)):
                answer = client.get(
                    "/api/v1/object", params={"uri": f"majordomus://rule/project.sample-{n}@1"}
                )
                bodies.append(answer.text)
            missing = client.get(f"/api/v1/{token}")
            assert missing.status_code == 404
            bodies.append(missing.text)
    finally:
        served.stop()
    text = "\n".join(bodies) + "".join(served.stderr)
    assert leaks_in(text) == []
    assert token[4:] not in text


def test_an_error_line_quoting_a_token_is_redacted_and_one_line(secret_layer: Path) -> None:
    token = TASK_TOKENS[0]
    done = run_majordomus(
        ["objects", "get", f"majordomus://rule/{token}\x1b[2J@1"], cwd=secret_layer
    )
    assert done.code == 12
    assert done.stderr.startswith("majordomus: ")
    assert done.stderr.count("\n") == 1
    assert token[4:] not in done.stderr
    assert "\x1b" not in done.stderr
    assert "[redacted:github-token]" in done.stderr
