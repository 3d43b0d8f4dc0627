"""A prompt object's arguments and `{{NAME}}` placeholders (docs/mcp.md#prompts).
Pure: objects in, findings out."""

from __future__ import annotations

import re
from typing import Any

from majordomus.layer.model import LayerDiagnostic, LayerObject

PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")

#: The placeholders majordomus fills itself when no argument claims the name: the task, the
#: git state, the root, the time and the newest checkpoint (docs/mcp.md#prompts).
FACTS = frozenset(
    ("TASK", "TASK_ID", "BRANCH", "HEAD", "WORKING_TREE", "REPOSITORY", "NOW", "CHECKPOINT")
)


def declared_arguments(obj: LayerObject) -> list[dict[str, Any]]:
    """The arguments a prompt's front matter declares, well-formed entries only."""
    raw = obj.metadata.get("arguments")
    out: list[dict[str, Any]] = []
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        entry: dict[str, Any] = {"name": item["name"]}
        if isinstance(item.get("description"), str):
            entry["description"] = item["description"]
        if item.get("required") is True:
            entry["required"] = True
        out.append(entry)
    return out


def placeholders(text: str) -> list[str]:
    """The placeholder names of `text`, in capitals, each once, in order of appearance."""
    return list(dict.fromkeys(name.upper() for name in PLACEHOLDER.findall(text)))


def undeclared_placeholders(objects: list[LayerObject]) -> list[LayerDiagnostic]:
    """One `undeclared_placeholder` warning per prompt whose body uses a placeholder that no
    argument declares and no fact fills."""
    findings = []
    for obj in objects:
        if obj.kind != "prompt":
            continue
        declared = {a["name"].upper() for a in declared_arguments(obj)}
        unknown = [n for n in placeholders(obj.body) if n not in declared and n not in FACTS]
        if unknown:
            names = ", ".join(f"{{{{{name}}}}}" for name in unknown)
            message = (
                f"prompt '{obj.identity}' uses {names}, which no argument declares and majordomus "
                "does not fill; declare each under `arguments` (docs/mcp.md#prompts)"
            )
            findings.append(LayerDiagnostic("warning", "undeclared_placeholder", message, obj.path))
    return findings
