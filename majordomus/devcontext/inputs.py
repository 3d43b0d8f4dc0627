"""A request, checked and resolved against the index; the first failure wins. Pure: no I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass

from majordomus.devcontext.model import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    CompileInput,
    Seed,
)
from majordomus.devcontext.relevance import number
from majordomus.errors import InvalidInput, NotFound
from majordomus.layer.model import Index
from majordomus.layer.shortid import why_absent
from majordomus.paths import escapes

PATH_KIND = "path"
#: What a request may name as its own scope: each path is weighed against every object of
#: the layer, so their number bounds what a request costs (docs/devcontext.md).
MAX_PATHS = 64
MAX_PATH_LENGTH = 1024
INTENT_KIND = "intent"


@dataclass(frozen=True, slots=True)
class Request:
    """What the selectors work from: seeds, the named paths, the terms and the limits."""

    seeds: list[Seed]
    object_seeds: list[str]
    paths: frozenset[str]
    intent: str
    limit: int
    max_depth: int
    floor: float
    all_blocking_rules: bool


def resolve(index: Index, given: CompileInput) -> Request:
    """Check `given` in the order of docs/devcontext.md and resolve its seeds against `index`."""
    if given.budget_tokens == 0:
        raise InvalidInput("a budget of zero tokens buys nothing; leave it out for the default")
    floor = DEFAULT_FLOOR if given.floor is None else float(given.floor)
    if math.isnan(floor) or not 0.0 <= floor <= 1.0:
        raise InvalidInput(f"the relevance floor is between 0 and 1; got {number(floor)}")
    seeds: list[Seed] = []
    for field in ("issue", "milestone"):
        value = getattr(given, field)
        if value is not None:
            seeds.append(_named(index, field, value))
    for uri in given.uris:
        obj = index.by_uri.get(uri)
        if obj is None:
            raise NotFound(why_absent(index, uri, f"the index holds nothing under `{uri}`"))
        seeds.append(Seed(uri=uri, kind=obj.kind, from_="uris"))
    if len(given.paths) > MAX_PATHS:
        raise InvalidInput(
            f"{len(given.paths)} paths; at most {MAX_PATHS} are a scope (name their directory)"
        )
    paths: set[str] = set()
    for raw in given.paths:
        path = normalise_path(raw)
        paths.add(path)
        seeds.append(Seed(uri=path, kind=PATH_KIND, from_="paths"))
    intent = (given.intent or "").strip()
    if intent:
        seeds.append(Seed(uri=intent, kind=INTENT_KIND, from_="intent"))
    object_seeds = sorted({s.uri for s in seeds if s.kind not in (PATH_KIND, INTENT_KIND)})
    return Request(
        seeds=seeds,
        object_seeds=object_seeds,
        paths=frozenset(paths),
        intent=intent,
        limit=DEFAULT_BUDGET_TOKENS if given.budget_tokens is None else given.budget_tokens,
        max_depth=DEFAULT_MAX_DEPTH if given.max_depth is None else given.max_depth,
        floor=floor,
        all_blocking_rules=bool(given.all_blocking_rules),
    )


def _named(index: Index, field: str, value: str) -> Seed:
    """An issue or milestone named by uri, identity or slug; the first in uri order wins."""
    named = value.strip()
    if not named:
        raise InvalidInput(f"{field}: name one, or leave it out")
    for obj in index.objects:
        if obj.kind == field and named in (obj.uri, obj.identity, obj.metadata.get("slug")):
            resolved = obj.identity if obj.identity != named else None
            return Seed(uri=obj.uri, kind=obj.kind, from_=field, resolved=resolved)

    def absent(lister: str) -> str:
        return why_absent(
            index,
            named,
            f"no {field} '{named}' in this repository; {lister} names every one",
            field,
        )

    raise NotFound(
        absent(f"`objects.list` with kind `{field}`"),
        cli=absent(f"`majordomus objects list --kind {field}`"),
    )


def normalise_path(raw: str) -> str:
    """Trimmed, without leading `./` or trailing `/`; refused when empty or outside the tree."""
    if len(raw) > MAX_PATH_LENGTH:
        raise InvalidInput(f"a path of {len(raw)} characters; at most {MAX_PATH_LENGTH}")
    path = raw.strip()
    while path.startswith("./"):
        path = path[2:]
    path = path.rstrip("/")
    if not path:
        raise InvalidInput("an empty path is not a scope")
    if escapes(path):
        raise InvalidInput(
            f"'{raw}' is not repository-relative; a path outside the repository is not context"
        )
    return path
