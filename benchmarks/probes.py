"""The floors, and the SDK peer: programs that run in a fresh interpreter, one per process.

    python benchmarks/probes.py stack MODELS [layer ROOT | ledger ROOT]
    python benchmarks/probes.py sdk-server

`stack` is the floor of a command (issue 30): the declared stack's own start (`import click,
pydantic`), then the models the command uses built (MODELS, a JSON file of JSON Schemas the
run exported from the product's own models, is turned back into pydantic models of the same
fields, nesting and unions), then the work's floor: `layer` lists the files git tracks and
reads every one, `ledger` `json.load`s every record file of the store and sorts them by stamp
and id. Nothing of majordomus is imported, so the floor moves only with the stack and the
machine. `sdk-server` is the official MCP SDK's own minimal server, serving one tool.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Literal, Union

_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}


class Models:
    """pydantic models built from JSON Schemas: one class per `$defs` entry or inline object."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.made: dict[str, Any] = {}
        self.count = 0

    def annotation(self, schema: dict[str, Any], name: str) -> Any:
        if "$ref" in schema:
            return self.model(schema["$ref"].rsplit("/", 1)[1])
        if "const" in schema:
            return Literal[schema["const"]]
        if "enum" in schema:
            return Literal[tuple(schema["enum"])]
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                options = [self.annotation(s, f"{name}{i}") for i, s in enumerate(schema[key])]
                return options[0] if len(options) == 1 else Union[tuple(options)]  # noqa: UP007
        kind = schema.get("type")
        if isinstance(kind, list):
            return Union[tuple(_SCALARS.get(k, Any) for k in kind)]  # noqa: UP007
        if kind == "array":
            return list[self.annotation(schema.get("items", {}), f"{name}Item")]  # type: ignore[misc]
        if kind == "object" and "properties" in schema:
            return self.build(name, schema)
        if kind == "object":
            extra = schema.get("additionalProperties")
            value = self.annotation(extra, f"{name}Value") if isinstance(extra, dict) else Any
            return dict[str, value]  # type: ignore[valid-type]
        return _SCALARS.get(kind or "", Any)

    def model(self, ref: str) -> Any:
        if ref not in self.made:
            self.made[ref] = Any  # a model that refers to itself takes any value there
            self.made[ref] = self.annotation(self.defs[ref], ref)
        return self.made[ref]

    def build(self, name: str, schema: dict[str, Any]) -> Any:
        from pydantic import Field, create_model

        required = set(schema.get("required", ()))
        fields: dict[str, Any] = {}
        for index, (key, value) in enumerate(schema.get("properties", {}).items()):
            annotation = self.annotation(value, f"{name}{key.title()}")
            default = ... if key in required else value.get("default")
            fields[f"f{index}"] = (annotation, Field(default, alias=key))
        self.count += 1
        return create_model(name, **fields)


def build_models(path: str) -> int:
    """Every schema of the file built, with what it refers to; the number of classes made."""
    with open(path, encoding="utf-8") as handle:
        schemas: dict[str, dict[str, Any]] = json.load(handle)
    from pydantic import TypeAdapter

    made = 0
    for name, schema in schemas.items():
        models = Models(schema.get("$defs", {}))
        TypeAdapter(models.annotation(schema, name))
        made += models.count
    return made


def layer(root: str) -> int:
    """`git ls-files`, then every listed file read: the bytes read."""
    listed = subprocess.run(
        ["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    total = 0
    for name in listed.split(b"\0"):
        if name:
            with open(os.path.join(root.encode(), name), "rb") as handle:
                total += len(handle.read())
    return total


def ledger(root: str) -> int:
    """Every record file `json.load`ed, then sorted by stamp and id: the records."""
    store = os.path.join(root, ".ai", "local", "state", "reasoning")
    records = []
    for task in os.listdir(store):
        folder = os.path.join(store, task)
        for name in os.listdir(folder):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), "rb") as handle:
                    records.append(json.load(handle))
    records.sort(key=lambda r: (r["recorded_at"], r["id"]))
    return len(records)


def stack(argv: list[str]) -> None:
    import click  # noqa: F401
    import pydantic  # noqa: F401

    made = build_models(argv[0])
    work = {"layer": layer, "ledger": ledger}[argv[1]](argv[2]) if len(argv) > 1 else 0
    sys.stdout.write(f"{made} {work}\n")


def sdk_server() -> None:
    """One tool, `get(uri)`, served by the SDK's own high-level server over stdio."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("minimal")

    @server.tool()
    def get(uri: str) -> str:
        """Answer with the URI asked for."""
        return uri

    server.run()


def main(argv: list[str]) -> int:
    if argv[0] == "sdk-server":
        sdk_server()
    else:
        stack(argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
