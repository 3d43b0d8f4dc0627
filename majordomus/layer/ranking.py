"""Ranked retrieval: documents in an in-memory SQLite FTS5 table, a query ranked over them
(docs/recall.md; docs/layer-internals.md)."""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from majordomus.layer.model import Index

#: The text columns, what each weighs in BM25, and what a match in it is worth in the score.
COLUMNS = ("name", "summary", "body", "kind")
BM25_WEIGHTS = (8.0, 4.0, 1.0, 2.0)
FIELD_WORTH = (1.0, 0.75, 0.5, 0.35)
#: A word matched only through a corrected spelling is worth this share of the word itself.
CORRECTED_WORTH = 0.8
#: The share of a score the BM25 rank within its table decides (the rest is coverage).
RANK_SHARE = 0.4
#: At most this many of a table's best BM25 hits are scored per query.
CANDIDATES = 300
#: A document the query reaches through a link gets this share of the linking document's
#: score, at most `BOOST_CAP` in all.
BOOST_SHARE = 0.15
BOOST_CAP = 0.08
#: Edges between layer objects that carry the boost: forward (from the matching object to
#: what it points at), and put_in_force backwards (a matching rule lifts its decision).
FORWARD_EDGES = frozenset(
    ("belongs_to", "names", "put_in_force", "governed_by", "evidences", "exercises", "serves")
)
BACKWARD_EDGES = frozenset(("put_in_force",))
SCORE_PLACES = 4
SNIPPET_WORDS = 24

#: A word of a text, lowered first: letters and digits (`_` and the rest separate).
_WORD = re.compile(r"[^\W_]+")
#: Unicode words, diacritics removed, each reduced by the Porter stemmer.
_TOKENIZE = "porter unicode61 remove_diacritics 2"


def phrase(text: str) -> str:
    """An FTS5 phrase query matching `text` as it is."""
    return '"' + text.replace('"', '""') + '"'


STOP_WORDS = frozenset(
    _WORD.findall(
        """a about above after again all already also am an and any are as at be because been
        before being below between both but by can could did do does doing done down during each
        else ever few for from further get got had has have having he her here hers him his how
        i if in into is it its itself just let like may me might more most must my no nor not
        now of off on once only or other our ours out over own same shall she should so some
        such than that the their theirs them then there these they this those through to too
        under until up upon us very was we were what when where which while who whom why will
        with would yes yet you your yours"""
    )
)


def query_terms(text: str) -> list[str]:
    """The distinct words of a query in order, stop words left out (all of them kept when
    nothing else is left), words of one letter never."""
    words = [w for w in dict.fromkeys(_WORD.findall(text.lower())) if len(w) > 1 or w.isdigit()]
    kept = [w for w in words if w not in STOP_WORDS]
    return kept or words


@dataclass(frozen=True, slots=True)
class Document:
    """What one hit can be: its texts by weight, and the documents it points at; `labels` names
    the three text columns in a hit's `why`."""

    uri: str
    kind: str
    title: str
    name: str
    summary: str = ""
    body: str = ""
    kind_words: str = ""
    links: tuple[str, ...] = ()
    labels: tuple[str, str, str] = ("title", "description", "content")


@dataclass(frozen=True, slots=True)
class Term:
    """One word of the query and the spellings it is matched by (itself first)."""

    word: str
    spellings: tuple[str, ...]

    @property
    def match(self) -> str:
        return " OR ".join(phrase(s) for s in self.spellings)


@dataclass(slots=True)
class Scored:
    """One document's standing for one query: its score and what it matched where."""

    ranking: Ranking
    row: int
    score: float
    #: Per column, the spellings it matched (in query order).
    fields: list[list[str]]
    #: Each misspelt query word matched, and the spelling that matched it.
    corrected: dict[str, str] = field(default_factory=dict)
    #: The query words it matched, however spelt.
    words: set[str] = field(default_factory=set)
    via: list[str] = field(default_factory=list)

    @property
    def document(self) -> Document:
        return self.ranking.documents[self.row]


class Ranking:
    """One FTS5 table over `documents`, built on construction."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = list(documents)
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        rows = (
            (row, d.name, d.summary, d.body, d.kind_words or d.kind)
            for row, d in enumerate(self.documents)
        )
        names = ", ".join(COLUMNS)
        marks = ", ".join("?" * (len(COLUMNS) + 1))
        with self.db as db:
            db.execute(f"create virtual table docs using fts5({names}, tokenize='{_TOKENIZE}')")
            db.executemany(f"insert into docs (rowid, {names}) values ({marks})", rows)

    def count(self, match: str) -> int:
        """How many documents the FTS5 query `match` finds."""
        found = self.db.execute("select count(*) from docs where docs match ?", [match])
        return int(found.fetchone()[0])

    @cached_property
    def vocabulary(self) -> dict[str, set[str]]:
        """Every word of every document (unstemmed: FTS5 lists them from a second table of
        words alone) by its trigrams, built when a typo first needs it."""
        with self.db:
            self.db.execute(
                "create virtual table words using fts5(text, tokenize='unicode61 "
                "remove_diacritics 2', detail=none)"
            )
            self.db.executemany(
                "insert into words (text) values (?)",
                ((f"{d.name}\n{d.summary}\n{d.body}",) for d in self.documents),
            )
            self.db.execute("create virtual table vocabulary using fts5vocab(words, 'row')")
        words = [word for (word,) in self.db.execute("select term from vocabulary")]
        grams: dict[str, set[str]] = {}
        for word in words:
            if len(word) > 2 and not word.isdigit():
                for gram in trigrams(word):
                    grams.setdefault(gram, set()).add(word)
        return grams

    def score(
        self,
        terms: Sequence[Term],
        idf: Sequence[float],
        keep: Callable[[Document], bool] | None = None,
    ) -> list[Scored]:
        """Every document matching a term (at most `CANDIDATES` by BM25), scored in 0..1:
        the share of the terms' information (`idf`) it matches, by field, scaled by BM25."""
        if not terms or not self.documents:
            return []
        weights = ", ".join(str(w) for w in BM25_WEIGHTS)
        query = " OR ".join(f"({t.match})" for t in terms)
        rows = self.db.execute(
            f"select rowid, -bm25(docs, {weights}) from docs where docs match ? "
            f"order by bm25(docs, {weights}), rowid limit {CANDIDATES}",
            [query],
        ).fetchall()
        hits = {row: raw for row, raw in rows if keep is None or keep(self.documents[row])}
        if not hits:
            return []
        best = max(hits.values()) or 1.0
        total = sum(idf) or 1.0
        scored = {row: Scored(self, row, 0.0, [[] for _ in COLUMNS]) for row in hits}
        for weight, term in zip(idf, terms, strict=True):
            for row, value in self._match(term, scored).items():
                scored[row].score += weight * value
        for row, raw in hits.items():
            coverage = scored[row].score / total
            scored[row].score = coverage * (1 - RANK_SHARE + RANK_SHARE * raw / best)
        return list(scored.values())

    def _match(self, term: Term, scored: dict[int, Scored]) -> dict[int, float]:
        """Note where each `scored` document matches `term`; the worth of its best match, by row."""
        worth: dict[int, float] = {}
        for column, name in enumerate(COLUMNS):
            for spelling_at, spelling in enumerate(term.spellings):
                found = self.db.execute(
                    "select rowid from docs where docs match ?", [f"{name} : {phrase(spelling)}"]
                )
                for (row,) in found:
                    hit = scored.get(row)
                    if hit is None:
                        continue
                    hit.words.add(term.word)
                    if spelling not in hit.fields[column]:
                        hit.fields[column].append(spelling)
                    if spelling_at:
                        hit.corrected.setdefault(term.word, spelling)
                    value = FIELD_WORTH[column] * (CORRECTED_WORTH if spelling_at else 1.0)
                    worth[row] = max(value, worth.get(row, 0.0))
        return worth


def trigrams(word: str) -> set[str]:
    padded = f" {word} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def edit_distance(a: str, b: str, bound: int) -> int:
    """Optimal string alignment distance (a swap of two neighbours is one edit), or
    `bound + 1` as soon as it exceeds `bound`."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > bound:
            return bound + 1
        before, row = row, current
    return row[-1]


def corrections(word: str, rankings: Sequence[Ranking]) -> tuple[str, ...]:
    """The two vocabulary words nearest `word` in spelling (a shared trigram, then one edit,
    two past six letters; a swap is one edit); none under four letters."""
    if len(word) < 4 or word.isdigit():
        return ()
    bound = 1 if len(word) <= 6 else 2
    grams = trigrams(word)
    shared = Counter(k for r in rankings for gram in grams for k in r.vocabulary.get(gram, ()))
    near = sorted((edit_distance(word, k, bound), -count, k) for k, count in shared.items())
    return tuple(known for distance, _, known in near[:2] if distance <= bound)


def plan(text: str, rankings: Sequence[Ranking]) -> list[Term]:
    """The query's terms, each with the spellings it is matched by: a word no ranking holds
    is matched by its nearest spellings instead."""
    terms = []
    for word in query_terms(text):
        held = any(r.count(phrase(word)) for r in rankings)
        near = () if held else corrections(word, rankings)
        terms.append(Term(word, (word, *near)))
    return terms


def rank(
    terms: Sequence[Term],
    rankings: Sequence[Ranking],
    keep: Callable[[Document], bool] | None = None,
) -> list[Scored]:
    """Every document any term reaches (or a link lifts), best first (score, then URI); a term
    weighs its inverse document frequency over all the rankings."""
    n = sum(len(r.documents) for r in rankings)
    idf = []
    for term in terms:
        df = sum(r.count(term.match) for r in rankings)
        idf.append(math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else 0.0)
    scored = [s for ranking in rankings for s in ranking.score(terms, idf, keep)]
    by_uri = {s.document.uri: s for s in scored}
    lift: dict[str, tuple[float, list[str]]] = {}
    for s in scored:
        for target in s.document.links:
            if target == s.document.uri:
                continue
            best, via = lift.get(target, (0.0, []))
            lift[target] = (max(best, BOOST_SHARE * s.score), [*via, s.document.uri])
    located = {d.uri: (r, row) for r in rankings for row, d in enumerate(r.documents)}
    for uri, (total, via) in lift.items():
        known = by_uri.get(uri)
        if known is None:
            place = located.get(uri)
            if place is None or (keep is not None and not keep(place[0].documents[place[1]])):
                continue
            known = by_uri[uri] = Scored(place[0], place[1], 0.0, [[] for _ in COLUMNS])
            scored.append(known)
        known.score = min(1.0, known.score + min(BOOST_CAP, total))
        known.via = sorted(via)
    for s in scored:
        s.score = round(s.score, SCORE_PLACES)
    return sorted((s for s in scored if s.score > 0), key=lambda s: (-s.score, s.document.uri))


def why(hit: Scored) -> str:
    """Which fields matched which words, and the links that lifted the hit."""
    labels = (*hit.document.labels, "kind")
    parts = [
        f"{labels[column]}: {', '.join(words)}" for column, words in enumerate(hit.fields) if words
    ]
    if hit.corrected:
        read = ", ".join(f"{word} as {spelling}" for word, spelling in hit.corrected.items())
        parts.append(f"read {read}")
    if hit.via:
        more = len(hit.via) - 2
        parts.append(
            f"linked from {', '.join(hit.via[:2])}" + (f" and {more} more" if more > 0 else "")
        )
    return "; ".join(parts)


def snippet(hit: Scored, terms: Sequence[Term]) -> str:
    """The window holding the most matched words of the hit's body when the body matched, else
    of its best field, on one line."""
    if not any(hit.fields):
        return ""
    column = 2 if hit.fields[2] else -1
    query = " OR ".join(f"({t.match})" for t in terms)
    found = hit.ranking.db.execute(
        f"select snippet(docs, {column}, '', '', '…', {SNIPPET_WORDS}) from docs "
        "where docs match ? and rowid = ?",
        [query, hit.row],
    ).fetchone()
    return " ".join(found[0].split()) if found else ""


# -- the layer's documents ---------------------------------------------------------------------

#: Words a kind is also known by, so a question naming it ("which milestone", "the decision")
#: leans towards it.
KIND_WORDS = {
    "adr": "adr architecture decision record",
    "issue": "issue task work item",
    "milestone": "milestone",
    "rule": "rule doctrine",
    "use-case": "use case",
    "knowledge": "knowledge note",
}


def layer_ranking(index: Index) -> Ranking:
    """The index ranked: one document per object (identity and title, description and tags, the
    body), linked along the edges that carry the boost."""
    links: dict[str, list[str]] = {}
    for edge in index.edges:
        if edge.kind in FORWARD_EDGES:
            links.setdefault(edge.source, []).append(edge.target)
        if edge.kind in BACKWARD_EDGES:
            links.setdefault(edge.target, []).append(edge.source)
    held = index.by_uri
    documents = []
    for obj in index.objects:
        title = obj.title or obj.identity
        description = obj.description if obj.description != obj.title else None
        tags = obj.metadata.get("tags")
        words = " ".join(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else ""
        documents.append(
            Document(
                uri=obj.uri,
                kind=obj.kind,
                title=title,
                name=f"{obj.identity} {obj.title or ''}",
                summary=f"{description or ''} {words}",
                body=obj.body or obj.content,
                kind_words=KIND_WORDS.get(obj.kind, obj.kind.replace("-", " ")),
                links=tuple(sorted({u for u in links.get(obj.uri, ()) if u in held})),
            )
        )
    return Ranking(documents)
