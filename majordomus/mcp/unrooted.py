"""The MCP server started where no repository is (a client that starts it in its own folder,
or a `--repo` that names none): it completes `initialize` and answers every call with how to
fix the start, so the client shows the reason instead of a server that disconnected."""

from __future__ import annotations

import logging
from typing import Any

from majordomus.errors import NotFound
from majordomus.mcp.dispatch import Dispatcher
from majordomus.mcp.framing import RESOURCE_NOT_FOUND, RpcError, clean_value
from majordomus.mcp.results import offset_of, page, tool_refusal
from majordomus.mcp.server import _CAPABILITIES, initialize_result

log = logging.getLogger(__name__)

#: What every call answers after the reason the start gave.
FIX = (
    "start the server in the repository (the project folder the client opens), or give it "
    'the repository in its entry: "args": ["mcp", "--repo", "/path/to/repository"]'
)


class Unrooted(Dispatcher):
    """Every method answers; none serves anything but the reason and the fix."""

    def __init__(self, tools: list[dict[str, Any]], reason: str) -> None:
        self.fix = f"{reason}; {FIX}"
        log.error("no repository is served: %s", self.fix)
        empty = {
            "resources/list": "resources",
            "resources/templates/list": "resourceTemplates",
            "prompts/list": "prompts",
        }
        methods = {
            method: (
                lambda params, name=name: page(name, [], offset_of(name, params.get("cursor")))
            )
            for method, name in empty.items()
        }
        super().__init__(
            {
                **methods,
                "initialize": lambda params: initialize_result(
                    params, _CAPABILITIES, f"Majordomus serves no repository: {self.fix}."
                ),
                "ping": lambda _params: {},
                "tools/list": lambda params: clean_value(
                    page("tools", tools, offset_of("tools", params.get("cursor")))
                ),
                "tools/call": lambda _params: clean_value(tool_refusal(NotFound(self.fix))),
                "resources/read": self._refuse,
                "prompts/get": self._refuse,
                "completion/complete": self._refuse,
            }
        )

    def _refuse(self, _params: dict[str, Any]) -> Any:
        raise RpcError(RESOURCE_NOT_FOUND, self.fix)
