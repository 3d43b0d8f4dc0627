"""In-memory SQLite FTS5 tables: how one is built and queried (recall's ranking builds its
own with them), and the copy of the index that narrows `objects search`: candidates, never
truth, switched off with `MAJORDOMUS_SQLITE=0` (docs/layer-internals.md)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

log = logging.getLogger(__name__)


if TYPE_CHECKING:
    from majordomus.layer.model import Index, LayerObject


SWITCH = "MAJORDOMUS_SQLITE"
TRIGRAM = "trigram case_sensitive 1"
#: Characters SQLite's C strings and FTS queries cannot be trusted with: such a needle
#: is not narrowed, and an object whose text holds one is always a candidate.
_UNSAFE = "\x00"


def enabled(environ: Mapping[str, str]) -> bool:
    """On unless `MAJORDOMUS_SQLITE` is `0`, `false`, `no` or `off`."""
    return environ.get(SWITCH, "").strip().lower() not in ("0", "false", "no", "off")


def phrase(text: str) -> str:
    """An FTS5 phrase query matching `text` as it is."""
    return '"' + text.replace('"', '""') + '"'


def fts_table(
    db: Any, table: str, columns: Sequence[str], tokenize: str, rows: Iterable[Any]
) -> None:
    """Create the FTS5 table `table` of `columns` split by `tokenize`, and fill it with `rows`
    (the rowid, then a text per column)."""
    names = ", ".join(columns)
    marks = ", ".join("?" * (len(columns) + 1))
    with db:
        db.execute(f"create virtual table {table} using fts5({names}, tokenize='{tokenize}')")
        db.executemany(f"insert into {table} (rowid, {names}) values ({marks})", rows)


class SqliteIndex:
    """An FTS5 table of one text (`text_of`) of every object of one index, built when first
    asked for."""

    def __init__(self, index: Index, text_of: Callable[[LayerObject], str]) -> None:
        self.objects = index.objects
        self.text_of = text_of
        self._db: Any = None
        self._built = False
        #: The URIs that are always candidates, or None when the table could not be built.
        self._always: frozenset[str] | None = None

    def _build(self) -> None:
        self._built = True
        always: set[str] = set()
        rows = []
        for number, obj in enumerate(self.objects):
            text = self.text_of(obj)
            if _UNSAFE in text:
                always.add(obj.uri)
            rows.append((number, text))
        try:
            import sqlite3

            self._db = sqlite3.connect(":memory:")
            fts_table(self._db, "fts", ("text",), TRIGRAM, rows)
        except Exception as exc:  # any SQLite or encoding failure: narrow nothing
            log.debug("sqlite index: table not built: %s", exc)
            return
        self._always = frozenset(always)

    def matching(self, needle: str) -> set[str] | None:
        """URIs whose text holds `needle`, or None when it cannot narrow."""
        if len(needle) < 3 or _UNSAFE in needle:
            return None
        if not self._built:
            self._build()
        if self._always is None:
            return None
        found = set(self._always)
        try:
            query = "select rowid from fts where fts match ?"
            for (rowid,) in self._db.execute(query, [phrase(needle)]).fetchall():
                found.add(self.objects[rowid].uri)
        except Exception as exc:
            log.debug("sqlite index: query failed: %s", exc)
            return None
        return found
