"""Publishing and fetching the team ledger: `reasoning push`, `pull` and `sync` (docs/team.md)."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from majordomus.errors import NotFound, Refused
from majordomus.layer import git
from majordomus.ledger.record import ReasoningRecord
from majordomus.ledger.refs import INCOMING, LEDGER, QUARANTINE, REMOTE, WRITER_NAME, writer_id
from majordomus.ledger.store import Store, check_record_id, record_bytes
from majordomus.ledger.tasks import task_problem
from majordomus.order import canonical_strings
from majordomus.wire import Wire

#: A remote name that is one ref component (`refs/majordomus/remote/<remote>/…`).
_REMOTE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


class Pushed(Wire):
    """What a push published (or, with `dry_run`, would publish): the record files as
    `<task>/<id>.json`, their tasks, and how many the redactor changed again."""

    remote: str
    ref: str
    records: list[str]
    tasks: list[str]
    redacted: int
    dry_run: bool


class Quarantined(Wire):
    """A fetched ref kept aside, and why."""

    ref: str
    reason: str


class Pulled(Wire):
    """What a pull brought: how many new records from which other writers, and every ref of
    the remote kept aside (then the command exits 10)."""

    remote: str
    records: int
    writers: list[str]
    quarantined: list[Quarantined]


class Synced(Wire):
    """A pull, then a push."""

    pulled: Pulled
    pushed: Pushed


def remote_name(root: Path, given: str | None) -> str:
    """`given`, else the branch's upstream remote, else `origin`: one plain word, configured."""
    name = given
    if name is None:
        branch = git.current_branch(root)
        upstream = git.config_value(root, f"branch.{branch}.remote") if branch else None
        name = upstream if upstream and upstream != "." else "origin"
    if not _REMOTE_NAME.fullmatch(name):
        raise Refused(
            f"remote name {name!r} is not one word of letters, digits, '_' and '-'; "
            "add the remote under such a name (git remote add NAME URL)"
        )
    if git.config_value(root, f"remote.{name}.url") is None:
        raise NotFound(f"no remote {name} is configured (git remote add {name} URL)")
    return name


def _publishable(record: ReasoningRecord) -> tuple[ReasoningRecord, bool]:
    """The record as it may leave the machine, and whether the redactor changed it; any
    failure of the redactor refuses the whole push."""
    from majordomus.redaction.redactor import redact_value

    value = record.wire()
    try:
        cleaned, kinds = redact_value(value)
        if cleaned == value:
            return record, False
        cleaned["redacted"] = canonical_strings({*record.redacted, *kinds})
        redone = ReasoningRecord.model_validate(cleaned)
    except ValidationError:
        raise Refused(
            f"record {record.id} is no longer a record once redacted; nothing was pushed"
        ) from None
    except Exception as exc:
        raise Refused(f"the redactor could not run ({exc}); nothing was pushed") from None
    if (redone.id, redone.task) != (record.id, record.task):
        raise Refused(f"a record of task {redone.task} has a secret in its id or task name")
    return redone, True


def _pending(root: Path, writer: str, held: set[str]) -> list[tuple[str, ReasoningRecord]]:
    """This clone's records (or older ones without a writer) the writer ref does not hold."""
    todo: dict[str, ReasoningRecord] = {}
    for entry in Store(root).load(team=False).placed:
        record = entry.record
        path = f"{record.task}/{record.id}.json"
        if record.writer not in (None, writer) or path in held or path in todo:
            continue
        problem = task_problem(record.task)
        if problem:
            raise Refused(f"{entry.path} cannot be published: {problem}")
        check_record_id(record.id)
        todo[path] = record
    return list(todo.items())


def push(root: Path, remote: str | None, *, dry_run: bool = False) -> Pushed:
    """Publish this clone's new records on its writer ref and push that ref to `remote`."""
    name = remote_name(root, remote)
    writer = writer_id(root)
    ref = LEDGER + writer
    refs = git.ledger_refs(root)
    tip = refs.get(ref) or refs.get(f"{REMOTE}{name}/{writer}")
    entries = git.trees(root, [tip])[0] if tip else []
    todo = _pending(root, writer, {path for kind, _, _, path in entries if kind == "blob"})
    cleaned = [_publishable(record) for _, record in todo]
    answer = Pushed(
        remote=name,
        ref=ref,
        records=[path for path, _ in todo],
        tasks=canonical_strings({record.task for _, record in todo}),
        redacted=sum(changed for _, changed in cleaned),
        dry_run=dry_run,
    )
    if dry_run:
        return answer
    if todo:
        new = _commit(root, entries, [record for record, _ in cleaned], tip)
        git.update_refs(root, [(ref, new, refs.get(ref))])
    if todo or ref in refs:
        rejected = git.push(root, name, ref)
        if rejected is not None:
            raise Refused(
                f"{name} refused {ref} ({rejected}): its copy holds commits this clone has "
                "not made; another clone writes as the same writer (a copied .ai/local/?). "
                f"Pull, then remove .ai/local/state/writer-id to write as a new writer"
            )
    return answer


def _commit(
    root: Path, entries: list[git.TreeEntry], records: list[ReasoningRecord], parent: str | None
) -> str:
    """A commit of the parent's tree plus one file per record, made as the user's own."""
    blobs = git.write_blobs(root, [record_bytes(record) for record in records])
    tasks: dict[str, list[tuple[str, str, str]]] = {}
    for kind, oid, _, path in entries:
        folder, _, file = path.partition("/")
        if kind == "blob" and "/" not in file:
            tasks.setdefault(folder, []).append(("blob", oid, file))
    touched = canonical_strings({record.task for record in records})
    for record, oid in zip(records, blobs, strict=True):
        tasks.setdefault(record.task, []).append(("blob", oid, f"{record.id}.json"))
    made = git.make_trees(root, [tasks[task] for task in touched])
    top = {path: oid for kind, oid, _, path in entries if kind == "tree" and "/" not in path}
    top.update(zip(touched, made, strict=True))
    tree = git.make_trees(root, [[("tree", top[t], t) for t in sorted(top)]])[0]
    count = len(records)
    return git.commit_tree(root, tree, parent, f"majordomus ledger: {count} record(s)")


def pull(root: Path, remote: str | None) -> Pulled:
    """Fetch every writer's ref of `remote`, and take each that appends to what was seen."""
    name = remote_name(root, remote)
    own = writer_id(root)
    incoming = f"{INCOMING}{name}/"
    git.fetch(root, name, f"+{LEDGER}*:{incoming}*")
    refs = git.ledger_refs(root)
    fetched = {ref[len(incoming) :]: tip for ref, tip in refs.items() if ref.startswith(incoming)}
    seen = {w: refs.get(f"{REMOTE}{name}/{w}") for w in fetched}
    changed = [w for w in sorted(fetched) if fetched[w] != seen[w]]
    listed = git.trees(root, [t for w in changed for t in (fetched[w], seen[w]) if t])
    lists = iter(listed)
    records, writers, quarantined = 0, [], []
    moves: list[tuple[str, str | None, str | None]] = []
    for w in sorted(fetched):
        kept = f"{QUARANTINE}{name}/{w}"
        if w in changed:
            new = {p: o for k, o, _, p in next(lists) if k == "blob"}
            old = {p: o for k, o, _, p in next(lists) if k == "blob"} if seen[w] else {}
            reason = _rewritten(root, w, seen[w], fetched[w], old, new)
            if reason:
                moves.append((kept, fetched[w], refs.get(kept)))
                quarantined.append(Quarantined(ref=kept, reason=reason))
                continue
            moves.append((f"{REMOTE}{name}/{w}", fetched[w], seen[w]))
            if w != own:
                records += len(new) - len(old)
                writers.append(w)
        moves.append((kept, None, refs.get(kept)))
    git.update_refs(root, moves)
    aside = f"{QUARANTINE}{name}/"
    quarantined += [
        Quarantined(ref=ref, reason="kept aside by an earlier pull")
        for ref in sorted(refs)
        if ref.startswith(aside) and ref[len(aside) :] not in fetched
    ]
    return Pulled(remote=name, records=records, writers=writers, quarantined=quarantined)


def _rewritten(
    root: Path, writer: str, old: str | None, new: str, was: dict[str, str], now: dict[str, str]
) -> str | None:
    """Why a fetched tip may not replace the one last seen, or None when it appends to it."""
    if not WRITER_NAME.fullmatch(writer):
        return "its name is not a writer id"
    if old is None:
        return None
    if not git.is_ancestor(root, old, new):
        return f"it does not fast-forward from {old[:12]}, the tip last seen"
    for path, oid in sorted(was.items()):
        if now.get(path) != oid:
            verb = "removes" if path not in now else "changes"
            return f"it {verb} the record {path} seen at {old[:12]}"
    return None


def sync(root: Path, remote: str | None) -> Synced:
    """Pull, then push."""
    return Synced(pulled=pull(root, remote), pushed=push(root, remote))
