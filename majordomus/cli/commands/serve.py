"""`majordomus serve`: the HTTP API on loopback. FastAPI and uvicorn are
imported here, when the command runs, and nowhere else in the CLI."""

from __future__ import annotations

import click

from majordomus.cli.settings import settings, with_shared

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8741


def command() -> click.Command:
    @click.command(name="serve")
    @click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to bind.")
    @click.option(
        "--port",
        default=DEFAULT_PORT,
        show_default=True,
        type=click.IntRange(0, 65535),
        help="Port to bind; 0 picks a free one and prints the URL on stderr.",
    )
    @click.option("--fallback", is_flag=True, help="If the port is taken, bind a free one.")
    def serve(host: str, port: int, fallback: bool) -> None:
        """Serve the capabilities over HTTP, with OpenAPI at /openapi.json and Swagger UI."""
        from majordomus.http.server import serve as run_server

        code = run_server(settings().context(serving=True), host, port, fallback=fallback)
        click.get_current_context().exit(code)

    return with_shared(serve)
