"""Text renderings of the core capabilities (repository, objects, capabilities, health)."""

from __future__ import annotations

from typing import Any

from majordomus.capabilities import core
from majordomus.cli.views import CliView, Params, lines, more
from majordomus.egress import one_line


def objects_list(out: Any, _: Params) -> str:
    """One row per object; an empty answer says `count 0` rather than nothing."""
    objects = out["objects"]
    if not objects:
        return "count 0\n"
    width = max(len(o["uri"]) for o in objects)
    rows = [one_line(f"{o['uri']:<{width}}  {o['title'] or ''}".rstrip()) for o in objects]
    return lines(*rows, *more(out, len(objects)))


def objects_get(out: Any, _: Params) -> str:
    """The URI and the file it was read from, a blank line, then the content."""
    content = out["content"]
    path = out["provenance"].get("path")
    head = lines(f"uri         {out['uri']}", *([f"path        {path}"] if path else []), "")
    return head + (content if content.endswith("\n") or not content else content + "\n")


def objects_search(out: Any, _: Params) -> str:
    rows = []
    for hit in out["hits"]:
        rows.append(hit["uri"])
        if hit.get("snippet"):
            rows.append(f"  {hit['snippet']}")
    rows.append(f"{out['count']} hit(s) for '{out['query']}' (limit {out['limit']})")
    return lines(*rows, *more(out, out["count"]))


def _surfaces(exposure: dict[str, Any]) -> str:
    parts = []
    mcp = exposure.get("mcp", {})
    if "tool" in mcp:
        parts.append(f"tool {mcp['tool']}")
    if "resource" in mcp:
        parts.append(f"resource {mcp['resource']['uri']}")
    if "http" in exposure:
        parts.append(f"{exposure['http']['method']} {exposure['http']['path']}")
    if "cli" in exposure:
        parts.append("majordomus " + " ".join(exposure["cli"]["path"]))
    return " · ".join(parts) or "—"


def capabilities_list(out: Any, _: Params) -> str:
    rows = [
        f"{c['id']:<32} {c['kind']:<9} {c['stability']:<22} {_surfaces(c['exposure'])}"
        for c in out["capabilities"]
    ]
    summary = out["summary"]
    rows.append(
        f"{out['count']} shown · {summary['total']} in the registry "
        f"({summary['builtin']} built-in, {summary['declarative']} declarative)"
    )
    return lines(*rows, *more(out, out["count"]))


def capabilities_describe(out: Any, _: Params) -> str:
    return lines(
        f"id          {out['id']}",
        f"title       {out['title']}",
        f"kind        {out['kind']} · {out['stability']} · module {out['module']}",
        f"exposure    {_surfaces(out['exposure'])}",
        f"input       {out['input'].get('name', 'object')}",
        f"output      {out['output'].get('name', 'object')}",
        f"cache       {out['cache']['policy']}",
        f"benchmark   {out['benchmark']['policy']}",
        f"effect      {out['execution']['effect']}",
        "",
        out["description"],
    )


VIEWS = {
    core.OBJECTS_LIST.id: CliView(text=objects_list),
    core.OBJECTS_GET.id: CliView(text=objects_get, arguments=("uri",)),
    core.OBJECTS_SEARCH.id: CliView(text=objects_search, arguments=("query",)),
    core.CAPABILITIES_LIST.id: CliView(text=capabilities_list),
    core.CAPABILITIES_DESCRIBE.id: CliView(text=capabilities_describe, arguments=("id",)),
}
