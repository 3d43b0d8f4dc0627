"""Where the team ledger lives in git, and reading it back (docs/team.md): replay reads
`ledger/` and `remote/`, never `incoming/` nor `quarantine/`; an unreadable ref is named."""

from __future__ import annotations

import os
import re
from pathlib import Path

from majordomus import safefs
from majordomus.errors import Refused
from majordomus.layer import git
from majordomus.ledger.loaded import Loaded, Placed
from majordomus.ledger.record import parse_stored

WRITER_FILE = ".ai/local/state/writer-id"
LEDGER = "refs/majordomus/ledger/"
INCOMING = "refs/majordomus/incoming/"
REMOTE = "refs/majordomus/remote/"
QUARANTINE = "refs/majordomus/quarantine/"

#: A writer id as a ref component and a record id part; a minted one is 8 hex digits.
WRITER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")

#: The largest record blob read back, as for a record file.
BLOB_LIMIT = 4 * 1024 * 1024


def writer_id(root: Path) -> str:
    """This clone's writer id, minted and kept on first use."""
    try:
        text = safefs.read_file(root, WRITER_FILE, 256).decode("ascii", "replace").strip()
    except safefs.Unsafe as exc:
        if exc.code != "missing":
            raise Refused(f"the writer id could not be read: {exc.message}") from None
    else:
        if WRITER_NAME.fullmatch(text):
            return text
        raise Refused(f"{WRITER_FILE} holds no writer id; remove it to mint a new one")
    minted = os.urandom(4).hex()
    try:
        safefs.write_file(root, WRITER_FILE, f"{minted}\n".encode("ascii"))
    except FileExistsError:
        return writer_id(root)
    except (safefs.Unsafe, OSError) as exc:
        raise Refused(f"the writer id could not be written: {exc}") from None
    return minted


def writer_of(ref: str) -> str | None:
    """The writer a replayed ref publishes (`ledger/<w>`, `remote/<remote>/<w>`), else None."""
    if ref.startswith(LEDGER):
        name = ref[len(LEDGER) :]
    elif ref.startswith(REMOTE):
        name = ref[len(REMOTE) :].partition("/")[2]
    else:
        return None
    return name if WRITER_NAME.fullmatch(name) else None


def published(root: Path) -> Loaded:
    """Every record file the replayed refs hold, each writer's in ref order, the blobs that
    hold none (`<writer>:<path>`) or the refs git could not read, and the refs kept aside;
    `records` stays empty (the store replays these files with its own)."""
    try:
        refs = git.ledger_refs(root)
    except git.GitError:
        return Loaded()
    found = Loaded(quarantined=sorted(r for r in refs if r.startswith(QUARANTINE)))
    chosen = [(writer, ref) for ref in sorted(refs) if (writer := writer_of(ref))]
    try:
        listed = git.trees(root, [refs[ref] for _, ref in chosen])
        files = [
            (writer, oid, path, size)
            for (writer, _), entries in zip(chosen, listed, strict=True)
            for kind, oid, size, path in entries
            if kind == "blob"
        ]
        wanted = {oid for _, oid, _, size in files if size is not None and size <= BLOB_LIMIT}
        contents = git.blobs(root, sorted(wanted))
    except git.GitError:
        found.unreadable = [ref for _, ref in chosen]
        return found
    records = {oid: parse_stored(data) for oid, data in contents.items()}
    unreadable: dict[str, None] = {}
    for writer, oid, path, _ in files:
        record = records.get(oid)
        if record is None or path.count("/") != 1:
            unreadable[f"{writer}:{path}"] = None
        else:
            found.placed.append(Placed(path, record, writer))
    found.unreadable = list(unreadable)
    return found
