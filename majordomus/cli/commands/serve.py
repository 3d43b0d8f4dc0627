"""`majordomus serve`: the HTTP API and MCP over Streamable HTTP, on loopback by default.
FastAPI and uvicorn are imported here, when the command runs, and nowhere else in the CLI."""

from __future__ import annotations

import click

from majordomus.cli.settings import settings, with_shared


def command() -> click.Command:
    @click.command(name="serve")
    @click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
    @click.option(
        "--port",
        default=8741,
        show_default=True,
        type=click.IntRange(0, 65535),
        help="Port to bind; 0 picks a free one and prints the URL on stderr.",
    )
    @click.option("--fallback", is_flag=True, help="If the port is taken, bind a free one.")
    @click.option("--mcp-only", is_flag=True, help="Serve MCP at /mcp and nothing else.")
    @click.option(
        "--open-loopback",
        is_flag=True,
        help="Let callers on this machine write without the token (.ai/local/serve-token).",
    )
    def serve(host: str, port: int, fallback: bool, mcp_only: bool, open_loopback: bool) -> None:
        """Serve the capabilities over HTTP (OpenAPI at /openapi.json, Swagger UI) and MCP at
        /mcp. Writes, and every request from another host, need the token it prints."""
        from majordomus.http.server import serve as run_server

        code = run_server(
            settings().context(serving=True),
            host,
            port,
            fallback=fallback,
            mcp_only=mcp_only,
            open_loopback=open_loopback,
        )
        click.get_current_context().exit(code)

    return with_shared(serve)
