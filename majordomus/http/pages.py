"""What the non-capability routes answer: `/`, `/api/v1` and `/swagger`."""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.order import natural_key
from majordomus.version import __version__
from majordomus.wire import Wire

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Registry
    from majordomus.layer.model import Index

DESCRIPTION = (
    "majordomus serves a repository's .ai/ layer, reasoning ledger and context compiler. "
    "Every route under /api/v1 is a capability of the one registry the CLI and MCP share."
)

#: Swagger UI's files ship with the package `fastapi-offline`, which vendors them; they are
#: served under `/swagger/` so the page works without a network.
SWAGGER_PACKAGE = "fastapi_offline"
SWAGGER_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
SWAGGER_INIT = (
    'window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", '
    "validatorUrl: null});"
)


def _digest(algorithm: str, data: bytes) -> str:
    """A CSP hash or a subresource integrity value: `<algorithm>-<base64 digest>`."""
    return f"{algorithm}-" + base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


SWAGGER_CSP = (
    "default-src 'none'; "
    f"script-src 'self' '{_digest('sha256', SWAGGER_INIT.encode())}'; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; "
    "font-src 'self' data:; "
    "connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
HOME_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"

#: Headers every HTML page carries.
HTML_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Surface(Wire):
    """One thing this server serves, as the index lists it."""

    id: str
    title: str
    path: str
    category: str
    visibility: str = "public"
    kind: str
    ready: bool = True


class ServerIndex(Wire):
    """`GET /`: what this server is and what it serves; never the repository's path."""

    name: str
    version: str
    commit: str | None
    dirty: bool | None
    stale: bool
    description: str
    reference: str
    repository: str
    repository_id: str | None = None
    git_repository_id: str | None = None
    linked_worktree: bool
    surfaces: list[Surface]


class ApiRoute(Wire):
    method: str
    path: str
    capability: str
    title: str


class ApiIndex(Wire):
    """`GET /api/v1`: every capability route, by path, method and id."""

    description: str
    openapi: str
    swagger: str
    routes: list[ApiRoute]


SURFACES = tuple(
    Surface(id=id_, title=title, path=path, category=category, kind=kind)
    for id_, title, path, category, kind in (
        ("api", "Capability routes", "/api/v1", "api", "json"),
        ("openapi", "OpenAPI document", "/openapi.json", "reference", "json"),
        ("swagger", "Swagger UI", "/swagger", "reference", "html"),
        ("mcp", "MCP over Streamable HTTP", "/mcp", "mcp", "json"),
    )
)


def server_index(index: Index, *, stale: bool = False) -> ServerIndex:
    """The JSON index; git facts are those of the index served. `stale` says the layer
    changed and could not be read again, so the last index read is still served."""
    git = index.git
    return ServerIndex(
        name="majordomus",
        version=__version__,
        commit=git.head if git.available else None,
        dirty=(git.working_tree == "dirty")
        if git.available and git.working_tree != "unknown"
        else None,
        stale=stale,
        description=DESCRIPTION,
        reference="/openapi.json",
        repository=index.root.name,
        linked_worktree=(index.root / ".git").is_file(),
        surfaces=list(SURFACES),
    )


def api_index(registry: Registry) -> ApiIndex:
    routes = [
        ApiRoute(method=cap.http[0], path=cap.http[1], capability=cap.id, title=cap.title)
        for cap in registry
        if cap.http is not None
    ]
    routes.sort(
        key=lambda r: (natural_key(r.path), natural_key(r.method), natural_key(r.capability))
    )
    return ApiIndex(
        description=DESCRIPTION, openapi="/openapi.json", swagger="/swagger", routes=routes
    )


def home_html(info: ServerIndex, api: ApiIndex) -> str:
    """The HTML home page: the same facts as the JSON index, for a person."""
    e = html.escape
    surfaces = "".join(
        f'<li><a href="{e(s.path)}">{e(s.title)}</a> <code>{e(s.path)}</code></li>'
        for s in info.surfaces
    )
    rows = "".join(
        f"<tr><td>{e(r.method)}</td><td><code>{e(r.path)}</code></td>"
        f"<td><code>{e(r.capability)}</code></td><td>{e(r.title)}</td></tr>"
        for r in api.routes
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>majordomus — {e(info.repository)}</title>\n"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "td{padding:.2em .8em}</style>\n</head>\n<body>\n"
        f"<h1>majordomus {e(info.version)}</h1>\n<p>{e(info.description)}</p>\n"
        f"<p>Repository <strong>{e(info.repository)}</strong></p>\n"
        f"<ul>{surfaces}</ul>\n"
        "<table><thead><tr><th>method</th><th>path</th><th>capability</th><th>title</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>\n</body>\n</html>\n"
    )


class SwaggerAssetsMissing(Exception):
    """The package that vendors Swagger UI is not installed."""


@functools.cache
def swagger_asset(name: str) -> bytes:
    """One of `SWAGGER_ASSETS`, read once per process from the vendoring package's `static/`
    folder (found without importing the package)."""
    spec = importlib.util.find_spec(SWAGGER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SwaggerAssetsMissing(f"Swagger UI's files are not installed ({SWAGGER_PACKAGE})")
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    try:
        return (folder / name).read_bytes()
    except OSError as exc:
        raise SwaggerAssetsMissing(f"Swagger UI's {name} cannot be read: {exc.strerror}") from None


@functools.cache
def swagger_html() -> str:
    """The Swagger UI shell: local assets with sha384 integrity, one hashed inline script."""
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>majordomus — API reference</title>\n"
        '<link rel="stylesheet" href="/swagger/swagger-ui.css" '
        f'integrity="{_digest("sha384", swagger_asset("swagger-ui.css"))}">\n'
        '</head>\n<body>\n<div id="swagger-ui"></div>\n'
        '<script src="/swagger/swagger-ui-bundle.js" '
        f'integrity="{_digest("sha384", swagger_asset("swagger-ui-bundle.js"))}"></script>\n'
        f"<script>{SWAGGER_INIT}</script>\n</body>\n</html>\n"
    )
