"""The console entry point: answers `--version` before importing anything heavy.

Everything else is handed to the click application, whose failures are rendered once, by
`majordomus.cli.errors`. A one-shot command of the console script runs without the cyclic
garbage collector (`majordomus.collector`): it exits long before garbage matters, and
replaying a large ledger otherwise spends a third of its time in collections that free
nothing. The servers keep it.
For the same reason `console()` ends a one-shot command without the interpreter's teardown,
which would free every object of a replayed ledger one by one: once the answer is flushed
there is nothing left to clean up (records are written and synced before a command returns).
The process also loads no pydantic plugin (`without_pydantic_plugins`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import types
    from importlib.machinery import ModuleSpec

SERVERS = ("mcp", "serve")


def is_server(args: list[str]) -> bool:
    """Whether this command line starts a long-lived server (`mcp --inspect` is one-shot)."""
    return bool(args) and args[0] in SERVERS and "--inspect" not in args


#: pydantic's own switch: "__all__" loads no plugin of the `pydantic` entry-point group.
PLUGINS_VARIABLE = "PYDANTIC_DISABLE_PLUGINS"
#: The switch's values with which pydantic looks for no plugin at all.
NO_PLUGINS = ("__all__", "1", "true")
#: pydantic's plugin loader: it imports `importlib.metadata` before it reads the switch.
PLUGIN_LOADER = "pydantic.plugin._loader"


def without_pydantic_plugins() -> None:
    """No pydantic plugin runs in a majordomus process, unless the user's environment names
    which to skip (then pydantic honours that setting as given).

    Two reasons: finding plugins scans the entry points of every installed distribution
    on the first validation (20-60 ms, a third of a small command), and a plugin sees every
    value validated, records included, before their secrets are redacted. A library caller
    (`majordomus.Repository`) keeps its process's own setting.

    With every plugin off, pydantic's loader is stood in for by one that finds none: the
    real one imports `importlib.metadata` and the email package behind it (10-25 ms of the
    first validation) only to read the switch and return nothing.
    """
    os.environ.setdefault(PLUGINS_VARIABLE, "__all__")
    if os.environ[PLUGINS_VARIABLE] in NO_PLUGINS and PLUGIN_LOADER not in sys.modules:
        sys.meta_path.insert(0, NoPluginLoader())


class NoPluginLoader:
    """Finds pydantic's plugin loader, when pydantic imports it, as a stand-in whose one
    function finds no plugin; every other import is left to the usual finders."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name != PLUGIN_LOADER:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, self)  # type: ignore[arg-type]

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: types.ModuleType) -> None:
        module.get_plugins = tuple  # type: ignore[attr-defined]


def console() -> None:
    """The `majordomus` command: `main()`, then an exit that skips the teardown of a
    one-shot command (a server's shutdown runs as usual)."""
    code = main()
    if is_server(sys.argv[1:]):
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass  # the reader left; what it did not take is not ours to report
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        from majordomus.version import __version__

        sys.stdout.write(f"majordomus {__version__}\n")
        return 0
    if argv is None:
        without_pydantic_plugins()
        if not is_server(args):
            from majordomus import collector

            collector.off_for_process()
    if args == ["mcp"]:
        return serve_mcp()
    from majordomus.cli.app import run

    return run(args)


def serve_mcp() -> int:
    """`majordomus mcp` as an MCP client launches it: with no option there is nothing to
    parse, so the stdio server starts without click (the command line's `mcp` does exactly
    this with its defaults). A failure is rendered as the command line renders it."""
    from majordomus.cli import logs

    logs.configure(server=True)
    try:
        from majordomus.capabilities.workspace import Workspace
        from majordomus.mcp.server import serve

        return serve(Workspace(None), read_only=False)
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from majordomus.cli.errors import exit_code_for

        return exit_code_for(exc)
