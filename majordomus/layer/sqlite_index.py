"""The in-memory SQLite copy of the index: candidates, never truth (docs/layer-internals.md).
Switched off with `MAJORDOMUS_SQLITE=0`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from majordomus.logger import log

if TYPE_CHECKING:
    from majordomus.layer.model import Index, LayerObject


SWITCH = "MAJORDOMUS_SQLITE"
TRIGRAM = "trigram case_sensitive 1"
#: Characters SQLite's C strings and FTS queries cannot be trusted with: such a needle
#: is not narrowed, and an object whose text holds one is always a candidate.
_UNSAFE = "\x00"

TextOf = Callable[["LayerObject"], str]


def enabled(environ: Mapping[str, str]) -> bool:
    """On unless `MAJORDOMUS_SQLITE` is `0`, `false`, `no` or `off`."""
    return environ.get(SWITCH, "").strip().lower() not in ("0", "false", "no", "off")


def phrase(needle: str) -> str:
    """An FTS5 phrase query matching `needle` as it is."""
    return '"' + needle.replace('"', '""') + '"'


class SqliteIndex:
    """FTS5 tables over the objects of one index, built when first asked for."""

    def __init__(self, index: Index) -> None:
        self.objects = index.objects
        self._db: Any = None
        self._tables: dict[str, frozenset[str] | None] = {}

    def _database(self) -> Any:
        if self._db is None:
            import sqlite3

            self._db = sqlite3.connect(":memory:")
        return self._db

    def _build(self, table: str, text_of: TextOf) -> frozenset[str] | None:
        """Create and fill `table`; the URIs that are always candidates, or None on failure."""
        always: set[str] = set()
        rows = []
        for number, obj in enumerate(self.objects):
            text = text_of(obj)
            if _UNSAFE in text:
                always.add(obj.uri)
            rows.append((number, text))
        try:
            db = self._database()
            with db:
                db.execute(
                    f"create virtual table [{table}_fts] using fts5(text, tokenize='{TRIGRAM}')"
                )
                db.executemany(f"insert into [{table}_fts] (rowid, text) values (?, ?)", rows)
        except Exception as exc:  # any SQLite or encoding failure: narrow nothing
            log.debug("sqlite index: table %s not built: %s", table, exc)
            return None
        return frozenset(always)

    def matching(self, table: str, needles: Iterable[str], text_of: TextOf) -> set[str] | None:
        """URIs whose `text_of` holds at least one needle, or None when it cannot narrow; `table`
        names the text (`text_of` is always the same function for one name)."""
        wanted = list(needles)
        if not wanted or any(len(n) < 3 or _UNSAFE in n for n in wanted):
            return None
        if table not in self._tables:
            self._tables[table] = self._build(table, text_of)
        always = self._tables[table]
        if always is None:
            return None
        found = set(always)
        query = f"select rowid from [{table}_fts] where [{table}_fts] match ?"
        try:
            for needle in wanted:
                for (rowid,) in self._db.execute(query, [phrase(needle)]).fetchall():
                    found.add(self.objects[rowid].uri)
        except Exception as exc:
            log.debug("sqlite index: query on %s failed: %s", table, exc)
            return None
        return found
