"""The ranking behind recall and devcontext's intent (majordomus.layer.ranking)."""

from __future__ import annotations

from majordomus.layer.ranking import (
    BOOST_CAP,
    Document,
    Ranking,
    corrections,
    edit_distance,
    plan,
    query_terms,
    rank,
    snippet,
    why,
)


def test_query_terms_leave_out_stop_words_unless_nothing_else_is_left() -> None:
    assert query_terms("Did we already try caching the REGISTRY?") == ["try", "caching", "registry"]
    assert query_terms("scope_path, all-blocking; x.y") == ["scope", "path", "blocking"]
    assert query_terms("what is it") == ["what", "is", "it"]
    assert query_terms("Přehled rozpočtu 256") == ["přehled", "rozpočtu", "256"]


def test_edit_distance_counts_a_swap_as_one() -> None:
    assert edit_distance("cahce", "cache", 1) == 1
    assert edit_distance("shutdwon", "shutdown", 2) == 1
    assert edit_distance("cokpit", "cockpit", 1) == 1
    assert edit_distance("budget", "gadget", 1) == 2


def _docs() -> list[Document]:
    filler = " ".join(f"word{i}" for i in range(60))
    return [
        Document("u:milestone", "milestone", "Speed", "Speed milestone", body="performance work"),
        Document(
            "u:issue",
            "issue",
            "Cache the flattened files",
            "Cache the flattened files",
            body=f"{filler} the flatten cache keys by content hash {filler}",
            links=("u:milestone",),
        ),
        Document("u:other", "rule", "Readiness probes", "Readiness probes", body="health"),
    ]


def test_ranks_stems_and_typos_with_reasons() -> None:
    ranking = Ranking(_docs())
    terms = plan("flaten cahce", [ranking])
    assert [t.spellings for t in terms] == [("flaten", "flatten"), ("cahce", "cache")]
    assert corrections("readyness", [ranking]) == ("readiness",)
    hits = rank(terms, [ranking])
    assert [h.document.uri for h in hits] == ["u:issue", "u:milestone"]
    issue, milestone = hits
    assert "read flaten as flatten, cahce as cache" in why(issue)
    assert "title: flatten, cache" in why(issue)
    window = snippet(issue, terms)
    assert "flatten cache" in window and not window.startswith("word0")
    assert 0 < milestone.score <= BOOST_CAP and milestone.via == ["u:issue"]
    assert why(milestone) == "linked from u:issue"


def test_the_same_documents_and_query_give_the_same_answer() -> None:
    first, second = Ranking(_docs()), Ranking(list(reversed(_docs())))
    a = [(h.document.uri, h.score) for h in rank(plan("cache probes", [first]), [first])]
    b = [(h.document.uri, h.score) for h in rank(plan("cache probes", [second]), [second])]
    assert a == b and all(0 < s <= 1 for _, s in a)


def test_a_word_nothing_holds_weighs_nothing() -> None:
    ranking = Ranking(_docs())
    alone = rank(plan("readiness", [ranking]), [ranking])
    padded = rank(plan("readiness zyxwvut", [ranking]), [ranking])
    assert [(h.document.uri, h.score) for h in alone] == [(h.document.uri, h.score) for h in padded]
