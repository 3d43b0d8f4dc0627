"""Tool calls answered without pydantic: `majordomus_get` (always), `majordomus_search` and
`majordomus_devcontext` (until the executor is built) when their arguments are provably
valid, so a session's first call costs neither importing pydantic nor building a model.

The proof is conservative and generated: each tool's input schema as `tools.json` ships it
(`majordomus generate` writes it from the input model; `generate --check` fails when it is
stale), read for the few keywords understood here; a schema holding anything else proves
nothing. Arguments pass when they are exactly the properties' JSON types (a `null`, a huge
integer or a lone surrogate does not), name no unknown property and give every required
one. Everything else, and every call whose answer the plain value cannot give
(`majordomus.capabilities.objects_json`, `majordomus.devcontext.shapes`), goes to the
executor: every refusal still comes from the models' validation and the capability itself,
and an answer is the same JSON either way.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from majordomus.capabilities.objects_json import plain_text
from majordomus.mcp import catalog

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

Check = Callable[[Any], bool]
Answer = Callable[["Workspace", dict[str, Any]], Any]

#: Integers every validator takes as they are (JSON's safe range).
_INT_BOUND = 2**53
#: The keywords an input schema may hold and still prove arguments valid.
_OBJECT = frozenset(
    {"type", "title", "description", "properties", "required", "additionalProperties"}
)
#: The keywords a property schema may hold and still prove a value valid: documentation,
#: and the default the model and the plain request agree on (tests/mcp/test_plain.py).
_DOCUMENTING = frozenset({"type", "title", "description", "default"})


def _text(value: Any) -> bool:
    return type(value) is str and plain_text(value)


def _integer(value: Any) -> bool:
    return type(value) is int and -_INT_BOUND <= value <= _INT_BOUND


def _boolean(value: Any) -> bool:
    return type(value) is bool


def _number(value: Any) -> bool:
    """A finite float, or an integer a float holds exactly (the model takes it as a float)."""
    if type(value) is float:
        return math.isfinite(value)
    return _integer(value)


#: The JSON types a value is proved against.
_TYPES: dict[str, Check] = {
    "string": _text,
    "integer": _integer,
    "number": _number,
    "boolean": _boolean,
}


def _at_least(check: Check, minimum: Any) -> Check | None:
    if not _integer(minimum):
        return None
    return lambda value: check(value) and value >= minimum


def _strings(value: Any) -> bool:
    return type(value) is list and all(_text(item) for item in value)


def _property_check(prop: dict[str, Any]) -> Check | None:
    """The check of one property's schema, or None when it holds more than is proved here:
    a scalar type (an integer may carry a `minimum`) or an array of strings."""
    kind = prop.get("type")
    if kind == "array":
        if set(prop) - _DOCUMENTING - {"items"} or prop.get("items") != {"type": "string"}:
            return None
        return _strings
    check = _TYPES.get(kind) if isinstance(kind, str) else None
    if check is None:
        return None
    if "minimum" in prop:
        if kind != "integer" or set(prop) - _DOCUMENTING - {"minimum"}:
            return None
        return _at_least(check, prop["minimum"])
    return None if set(prop) - _DOCUMENTING else check


def _get(ctx: Workspace, arguments: dict[str, Any]) -> Any:
    from majordomus.capabilities.objects_json import get_json

    return get_json(ctx, arguments["uri"])


def _search(ctx: Workspace, arguments: dict[str, Any]) -> Any:
    """Until the executor is built (its process cache answers a repeated search). A
    workspace's first search looks at every object, which costs less than building the
    index's SQLite copy; every later one narrows with the copy, as the executor does."""
    from majordomus.capabilities.objects_json import search_json

    if "executor" in vars(ctx):
        return None
    narrow = ctx in _searched
    _searched.add(ctx)
    query, kind, limit = arguments["query"], arguments.get("kind"), arguments.get("limit")
    return search_json(ctx, query, kind, limit, narrow=narrow)


#: The workspaces that searched once already.
_searched: weakref.WeakSet[Workspace] = weakref.WeakSet()


def _compile(ctx: Workspace, arguments: dict[str, Any]) -> Any:
    """Until the executor is built (its process cache answers a repeated request).

    The answer shows the working tree, and a session's index is built without asking git
    for it: `git status` is started first, so git answers on the other core while the
    compiler is imported and run, and it is collected however the compile ends (a refused
    one too: no child outlives the call)."""
    if "executor" in vars(ctx):
        return None
    git = ctx.index.git
    git.ask_early()
    try:
        return _compiled(ctx, arguments)
    finally:
        git.working_tree  # noqa: B018 - collected, its process reaped


def _compiled(ctx: Workspace, arguments: dict[str, Any]) -> Any:
    """The compile's plain answer, or None. The intent looks at every object rather than
    building the index's SQLite copy to narrow with (the same answer, and cheaper once).
    Anything the compile raises, a refusal included, is the executor's to give."""
    from majordomus.capabilities.objects_json import plain
    from majordomus.devcontext.compiler import CompileSources, compile_plain
    from majordomus.devcontext.inputs import expanded_uris
    from majordomus.devcontext.shapes import Request, wire_json

    given = dict(arguments)
    if "floor" in given:
        given["floor"] = float(given["floor"])
    try:
        request = Request(**given)
        uris = expanded_uris(ctx.index, request.uris)
        if uris is not None:
            request.uris = uris
        answer = wire_json(compile_plain(CompileSources.for_checkout(ctx.index), request))
    except Exception:
        return None
    return answer if plain(answer) else None


#: The capabilities answered here, by id.
ANSWERS: dict[str, Answer] = {
    "objects.get": _get,
    "objects.search": _search,
    "devcontext.compile": _compile,
}
#: Those whose answer to proved arguments is a function of the index alone, whatever the
#: session did before (a search or a compile is the executor's once it is built, and a
#: compile reads the working tree): the server gives such an answer again for the same
#: arguments and index (`majordomus.mcp.results`).
SNAPSHOT_ANSWERS = frozenset({"objects.get"})


@functools.cache
def _schema_check(tool: str) -> tuple[dict[str, Check], frozenset[str]] | None:
    """A check per property and the required ones, from the shipped input schema of `tool`,
    or None when the schema holds more than these checks prove."""
    page = catalog.shipped()
    entry = next((e for e in page["tools"] if e["name"] == tool), None) if page else None
    if entry is None:
        return None
    schema = entry["inputSchema"]
    if schema.get("type") != "object" or schema.get("additionalProperties") is not False:
        return None
    if set(schema) - _OBJECT:
        return None
    checks: dict[str, Check] = {}
    for name, prop in schema.get("properties", {}).items():
        check = _property_check(prop)
        if check is None:
            return None
        checks[name] = check
    return checks, frozenset(schema.get("required", ()))


def proved(tool: str, arguments: dict[str, Any]) -> bool:
    """Whether `arguments` are valid for `tool` by its shipped schema alone."""
    known = _schema_check(tool)
    if known is None:
        return False
    checks, required = known
    if not required.issubset(arguments):
        return False
    for name, value in arguments.items():
        check = checks.get(name)
        if check is None or not check(value):
            return False
    return True


def answer(ctx: Workspace, capability_id: str, tool: str, arguments: dict[str, Any]) -> Any:
    """The tool's answer as a JSON value, or None when the executor must answer."""
    plain_answer = ANSWERS.get(capability_id)
    if plain_answer is None or not proved(tool, arguments):
        return None
    return plain_answer(ctx, arguments)
