"""The team ledger over real git: clones of one bare repository over file://, pushing and
pulling their writer refs (docs/team.md). The big interleaving runs are in benchmarks/team.py;
these are small and seeded."""

from __future__ import annotations

import json
import random
import subprocess
import threading
from pathlib import Path

import pytest

from majordomus.errors import Refused
from majordomus.layer.git import GitError
from majordomus.ledger.record import AssessmentInput, ConclusionInput, StoredConclusion
from majordomus.ledger.refs import LEDGER, QUARANTINE, REMOTE, WRITER_FILE
from majordomus.ledger.service import Ledger
from majordomus.ledger.store import STATE_DIR, Store
from majordomus.ledger.team import pull, push, sync
from majordomus.projections.handover import GitPosition, handover
from majordomus.projections.state import derive
from tests.conftest import GIT_ENV, git, initialised_repo, run_majordomus
from tests.layer.support import write


@pytest.fixture(autouse=True)
def _identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """`commit-tree` runs as the user's git: it needs the user's name and address."""
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def clones(tmp_path: Path, count: int) -> tuple[Path, list[Path]]:
    """A bare repository holding an initialised layer, and `count` clones of it."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "master", str(bare))
    first = initialised_repo(tmp_path / "c0")
    git(first, "remote", "add", "origin", bare.as_uri())
    git(first, "push", "-q", "origin", "master")
    rest = []
    for n in range(1, count):
        git(tmp_path, "clone", "-q", bare.as_uri(), str(tmp_path / f"c{n}"))
        rest.append(tmp_path / f"c{n}")
    return bare, [first, *rest]


def writer(root: Path) -> Ledger:
    return Ledger.open(root, {})


def record(root: Path, subject: str, task: str = "t") -> str:
    return writer(root).record(AssessmentInput(subject=subject), task=task).record.id


def seen(root: Path) -> tuple[str, str]:
    """What every reader derives: the state of every task and the handover, as text."""
    loaded = Store(root).load()
    state = derive(loaded, None).model_dump_json()
    position = GitPosition(branch="master", head=None)
    return state, handover(loaded, None, position=position, current_task_set=True).markdown


def rewrite(bare: Path, ref: str, *, keep_parent: bool) -> None:
    """Replace the tip of `ref` in the bare repository by a commit of another tree: on top of
    the old tip (a fast-forward that changes a record) or in its place (a forced push)."""
    tip = git(bare, "rev-parse", ref).strip()
    listing = git(bare, "ls-tree", "-r", tip).splitlines()
    mode, kind, _, path = listing[0].replace("\t", " ").split(" ")

    def fed(data: str, *args: str) -> str:
        command = ["git", "-C", str(bare), *args]
        done = subprocess.run(command, input=data, capture_output=True, check=True, text=True)
        return done.stdout.strip()

    blob = fed('{"changed": true}\n', "hash-object", "-w", "--stdin")
    task, name = path.split("/")
    inner = fed(f"{mode} {kind} {blob}\t{name}\n", "mktree")
    tree = fed(f"040000 tree {inner}\t{task}\n", "mktree")
    parents = ["-p", tip] if keep_parent else []
    commit = git(bare, "commit-tree", tree, *parents, "-m", "rewritten").strip()
    git(bare, "update-ref", ref, commit)


def test_records_travel_and_every_clone_derives_the_same(tmp_path: Path) -> None:
    bare, (a, b) = clones(tmp_path, 2)
    first = record(a, "lock scope")
    done = push(a, None)
    assert done.records == [f"t/{first}.json"] and done.tasks == ["t"]
    assert git(bare, "for-each-ref", "--format=%(refname)", LEDGER).split() == [done.ref]
    got = pull(b, None)
    assert (got.records, got.quarantined) == (1, [])
    later = writer(b).record(
        ConclusionInput(assessment=first, decision="keep it", rationale="no caller retries"),
        task="t",
    )
    assert later.record.lamport == 2
    sync(b, None)
    sync(a, None)
    assert seen(a) == seen(b)
    assert [r.id for r in Store(a).load().records] == [first, later.record.id]


def test_admission_sees_the_teams_records(tmp_path: Path) -> None:
    _, (a, b) = clones(tmp_path, 2)
    first = record(a, "lock scope")
    concluded = writer(a).record(
        ConclusionInput(assessment=first, decision="keep", rationale="r"), task="t"
    )
    push(a, None)
    pull(b, None)  # b never pushed and has no store yet
    assert not (b / STATE_DIR).exists()
    given = ConclusionInput(assessment=first, decision="drop", rationale="r")
    with pytest.raises(Refused, match="already concludes this assessment"):
        writer(b).record(given, task="t")
    again = given.model_copy(update={"supersedes": concluded.record.id})
    assert writer(b).record(again, task="t").record.body.supersedes == concluded.record.id


def test_a_dry_run_lists_and_makes_nothing(tmp_path: Path) -> None:
    bare, (a,) = clones(tmp_path, 1)
    assert (pull(a, None).records, pull(a, None).quarantined) == (0, [])
    ids = [record(a, "one", "t1"), record(a, "two", "t2")]
    objects = git(a, "count-objects", "-v")
    done = push(a, None, dry_run=True)
    assert done.records == [f"t1/{ids[0]}.json", f"t2/{ids[1]}.json"]
    assert done.tasks == ["t1", "t2"] and done.dry_run
    assert git(a, "count-objects", "-v") == objects
    assert git(a, "for-each-ref", "refs/majordomus/") == ""
    assert git(bare, "for-each-ref", "refs/majordomus/") == ""


@pytest.mark.parametrize("keep_parent", [False, True], ids=["forced", "changed"])
def test_a_rewritten_ref_is_quarantined_and_the_projection_unchanged(
    tmp_path: Path, keep_parent: bool
) -> None:
    bare, (a, b) = clones(tmp_path, 2)
    record(a, "one")
    ref = push(a, None).ref
    pull(b, None)
    before = seen(b)
    rewrite(bare, ref, keep_parent=keep_parent)
    got = pull(b, None)
    kept = QUARANTINE + "origin/" + ref.rsplit("/", 1)[-1]
    assert [q.ref for q in got.quarantined] == [kept]
    assert ("does not fast-forward" in got.quarantined[0].reason) is not keep_parent
    assert seen(b) == before
    assert git(b, "rev-parse", kept) == git(bare, "rev-parse", ref)
    done = run_majordomus(["reasoning", "pull"], cwd=b)
    assert done.code == 10 and f"quarantined {kept}: " in done.stdout
    checked = run_majordomus(["reasoning", "check", "--format", "json"], cwd=b)
    assert checked.code == 10
    assert kept in [f["subject"] for f in json.loads(checked.stdout)["findings"]]


def test_planted_secrets_never_reach_the_remote(tmp_path: Path) -> None:
    bare, (a,) = clones(tmp_path, 1)
    first = writer(a).record(AssessmentInput(subject="s"), task="t").record
    secrets = [f"ghp_{n:02d}{'x' * 34}" for n in range(50)]
    folder = a / STATE_DIR / "t"
    for n, secret in enumerate(secrets):
        planted = first.model_copy(
            update={"id": f"planted-{n}", "body": AssessmentInput(subject=f"token {secret}")}
        )
        (folder / f"planted-{n}.json").write_bytes(planted.model_dump_json(by_alias=True).encode())
    done = push(a, None)
    assert (len(done.records), done.redacted) == (51, 50)
    objects = subprocess.run(
        ["git", "-C", str(bare), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
        check=True,
    ).stdout
    assert not [s for s in secrets if s.encode() in objects]
    assert b"[redacted:github-token]" in objects


def test_when_the_redactor_cannot_run_nothing_is_pushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare, (a,) = clones(tmp_path, 1)
    record(a, "one")

    def broken(value: object) -> object:
        raise RuntimeError("no shapes")

    monkeypatch.setattr("majordomus.redaction.redactor.redact_value", broken)
    with pytest.raises(Refused, match="nothing was pushed"):
        push(a, None)
    assert git(a, "for-each-ref", "refs/majordomus/") == ""
    assert git(bare, "for-each-ref", "refs/majordomus/") == ""


def test_gc_prune_keeps_every_published_record(tmp_path: Path) -> None:
    bare, (a, b) = clones(tmp_path, 2)
    for n in range(3):
        record(a, f"a{n}")
        push(a, None)
    record(b, "b0")
    sync(b, None)
    pull(a, None)
    before = seen(a)
    for repo in (a, b, bare):
        git(repo, "gc", "-q", "--prune=now")
    assert seen(a) == seen(b) == before


def test_ids_held_twice_are_reported_never_dropped_silently(tmp_path: Path) -> None:
    _, (a,) = clones(tmp_path, 1)
    first = writer(a).record(AssessmentInput(subject="one"), task="r1").record
    twin = first.model_copy(update={"task": "r2", "body": AssessmentInput(subject="two")})
    (a / STATE_DIR / "r2").mkdir()
    (a / STATE_DIR / "r2" / f"{first.id}.json").write_text(twin.model_dump_json(by_alias=True))
    status = run_majordomus(["reasoning", "status", "--task", "r2"], cwd=a)
    assert status.code == 0
    assert f"collision   {first.id}: r1/{first.id}.json is replayed, not r2/" in status.stdout
    report = run_majordomus(["reasoning", "status", "--task", "r2", "--report"], cwd=a)
    assert f"- Collision: id {first.id} is held by r1/{first.id}.json" in report.stdout


def test_records_from_before_the_team_ledger_keep_their_order_and_travel(
    tmp_path: Path,
) -> None:
    _, (a, b) = clones(tmp_path, 2)
    ids = [record(a, f"s{n}") for n in range(3)]
    folder = a / STATE_DIR / "t"
    for ident in ids:  # as an older writer wrote them: no counter, no writer
        path = folder / f"{ident}.json"
        value = json.loads(path.read_text())
        del value["lamport"], value["writer"]
        path.write_text(json.dumps(value))
    newer = record(a, "after")
    assert [r.id for r in Store(a).load().records] == [*ids, newer]
    push(a, None)
    pull(b, None)
    assert [r.id for r in Store(b).load().records] == [*ids, newer]
    assert seen(a) == seen(b)


def test_a_remote_must_be_configured(tmp_path: Path) -> None:
    _, (a,) = clones(tmp_path, 1)
    done = run_majordomus(["reasoning", "push", "nowhere"], cwd=a)
    assert (done.code, done.stdout) == (12, "")
    assert done.stderr.startswith("majordomus: not found: no remote nowhere is configured")
    bad = run_majordomus(["reasoning", "pull", "a/b"], cwd=a)
    assert bad.code == 13 and "is not one word" in bad.stderr


def test_two_clones_writing_as_one_writer_are_refused_at_push(tmp_path: Path) -> None:
    _, (a, b) = clones(tmp_path, 2)
    record(a, "one")
    push(a, None)
    write(b, WRITER_FILE, (a / WRITER_FILE).read_bytes())
    record(b, "two")
    with pytest.raises(Refused, match="another clone writes as the same writer"):
        push(b, None)


def test_the_commands_on_the_command_line(tmp_path: Path) -> None:
    _, (a, b) = clones(tmp_path, 2)
    ident = record(a, "lock scope", "issue-4")
    dry = run_majordomus(["reasoning", "push", "--dry-run"], cwd=a)
    writer_ref = LEDGER + (a / WRITER_FILE).read_text().strip()
    assert dry.code == 0 and dry.stdout == (
        f"would push  1 record(s) of issue-4 to origin ({writer_ref})\n  issue-4/{ident}.json\n"
    )
    done = run_majordomus(["reasoning", "push", "origin"], cwd=a)
    assert done.stdout == f"pushed      1 record(s) of issue-4 to origin ({writer_ref})\n"
    synced = run_majordomus(["reasoning", "sync", "--format", "json"], cwd=b)
    answer = json.loads(synced.stdout)
    assert synced.code == 0 and answer["pulled"]["records"] == 1
    assert answer["pushed"]["records"] == []
    shared = run_majordomus(["reasoning", "status", "--task", "issue-4"], cwd=b)
    assert "lock scope" in shared.stdout


def test_check_shared_reads_what_a_ci_job_fetched(tmp_path: Path) -> None:
    bare, (a,) = clones(tmp_path, 1)
    first = writer(a).record(AssessmentInput(subject="s"), task="t").record
    body = StoredConclusion(assessment=first.id, decision="d", rationale="r", reviewed_by=["codex"])
    claimed = first.model_copy(update={"id": "claims-a-review", "body": body})
    (a / STATE_DIR / "t" / "claims-a-review.json").write_text(
        claimed.model_dump_json(by_alias=True)
    )
    push(a, None)
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", bare.as_uri(), str(ci))
    git(ci, "fetch", "-q", "origin", "refs/majordomus/*:refs/majordomus/*")
    plain = run_majordomus(["reasoning", "check", "--shared"], cwd=ci)
    assert plain.code == 10 and "FAIL records   claims-a-review: claims review by" in plain.stdout
    (ci / ".ai" / "local" / "state" / "reasoning" / "t").mkdir(parents=True)
    assert run_majordomus(["reasoning", "check", "--shared"], cwd=ci).stdout == plain.stdout


@pytest.mark.parametrize(("clone_count", "writes", "seed"), [(2, 12, 7), (5, 4, 11)])
def test_clones_interleaved(clone_count: int, writes: int, seed: int, tmp_path: Path) -> None:
    """Clones writing at once on threads, each pushing and pulling at random; then every
    clone syncs until all hold everything, and all derive the same state and handover."""
    _, repos = clones(tmp_path, clone_count)
    for repo in repos:  # mint writer ids before the threads start
        Ledger.open(repo, {})

    def work(repo: Path, chance: random.Random) -> None:
        for n in range(writes):
            record(repo, f"{repo.name} {n}", chance.choice(["t", "u"]))
            step = chance.random()
            if step < 0.3:
                push(repo, None)
            elif step < 0.6:
                pull(repo, None)

    threads = [
        threading.Thread(target=work, args=(repo, random.Random(seed + n)))
        for n, repo in enumerate(repos)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for _ in range(2):
        for repo in repos:
            sync(repo, None)
    views = {seen(repo) for repo in repos}
    assert len(views) == 1
    assert len(Store(repos[0]).load().records) == clone_count * writes


def test_no_git_means_nothing_published(tmp_path: Path) -> None:
    record(tmp_path, "local only")
    assert len(Store(tmp_path).load().records) == 1
    with pytest.raises(GitError):
        push(tmp_path, "origin")


def test_remote_copies_of_own_and_others_are_not_replayed_twice(tmp_path: Path) -> None:
    _, (a, b) = clones(tmp_path, 2)
    record(a, "one")
    push(a, None)
    pull(a, None)  # a's own ref now also at refs/majordomus/remote/origin/<a>
    pull(b, None)
    assert git(a, "for-each-ref", "--format=%(refname)", REMOTE).strip()
    assert len(Store(a).load().placed) == len(Store(b).load().placed) == 1
