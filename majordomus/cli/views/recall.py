"""The text rendering of `majordomus recall`: one block per hit, best first."""

from __future__ import annotations

from typing import Any

from majordomus.capabilities import recall
from majordomus.cli.views import CliView, Params, lines


def recall_query(out: Any, _: Params) -> str:
    rows = []
    for hit in out["hits"]:
        where = f"{hit['task']}/{hit['id']}" if "id" in hit else hit["uri"]
        rows += [f"{hit['score']:.4f}  {hit['kind']:<12} {where}", f"  {hit['title']}"]
        if hit["snippet"] and hit["snippet"] != hit["title"]:
            rows.append(f"  {hit['snippet']}")
        rows.append(f"  why: {hit['why']}")
    rows.append(f"{len(out['hits'])} hit(s) for '{out['query']}'")
    if "next_cursor" in out:
        rows.append(f"more: --cursor {out['next_cursor']}")
    return lines(*rows)


VIEWS = {recall.RECALL_QUERY.id: CliView(text=recall_query, arguments=("query",))}
