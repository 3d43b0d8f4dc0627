"""What the MCP surface offers as prompts, and the values `completion/complete` suggests.

Every object of kind `prompt` is a prompt under its identity. Its arguments are the ones its
front matter declares (`arguments: [{name, description, required}]`); `prompts/get` fills
each `{{NAME}}` placeholder of its body (the argument's name in capitals) with the value
given, and `{{BRANCH}}` / `{{HEAD}}`, when no argument claims them, with the git facts of
the index. One built-in prompt, `devcontext`, compiles the context of an issue, a milestone
or an intent through the `devcontext.compile` capability and returns it as messages.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from majordomus.errors import CapabilityError

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace
    from majordomus.layer.model import LayerObject

DEVCONTEXT = "devcontext"
#: Completion answers hold at most this many values (the protocol's own ceiling).
MAX_COMPLETIONS = 100

_DEVCONTEXT_ARGUMENTS = [
    {"name": "issue", "description": "An issue id, or its majordomus:// identifier."},
    {"name": "milestone", "description": "A milestone id or slug, or its identifier."},
    {"name": "intent", "description": "What the session is about to do, in words."},
    {
        "name": "budget_tokens",
        "description": "The ceiling in estimated tokens (an integer); the policy's default "
        "when absent.",
    },
]
_SEEDS = ("issue", "milestone", "intent")
_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")


class PromptRefused(Exception):
    """`prompts/get` cannot answer: an unknown prompt or a missing or bad argument."""


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


def layer_prompts(ctx: Workspace) -> dict[str, LayerObject]:
    """The layer's prompt objects by name; the built-in name is not taken from the layer."""
    return {
        obj.identity: obj
        for obj in ctx.index.objects
        if obj.kind == "prompt" and obj.identity != DEVCONTEXT
    }


def prompt_entries(ctx: Workspace) -> list[dict[str, Any]]:
    """`prompts/list` entries: the built-in `devcontext`, then the layer's, by name."""
    entries: list[dict[str, Any]] = [
        {
            "name": DEVCONTEXT,
            "title": "Development context",
            "description": "The compiled context of an issue, a milestone or an intent: what "
            "a session should read first, within a token budget. Give one of issue, "
            "milestone or intent.",
            "arguments": _DEVCONTEXT_ARGUMENTS,
        }
    ]
    prompts = layer_prompts(ctx)
    for name in sorted(prompts):
        obj = prompts[name]
        entry: dict[str, Any] = {"name": name}
        if obj.title and obj.title != name:
            entry["title"] = obj.title
        if obj.description:
            entry["description"] = obj.description
        entry["arguments"] = declared_arguments(obj)
        entry["_meta"] = {"majordomus": {"uri": obj.uri}}
        entries.append(entry)
    return entries


def get_prompt(ctx: Workspace, name: str, arguments: dict[str, str]) -> dict[str, Any]:
    """The `prompts/get` result; raises `PromptRefused` with the message the client sees."""
    if name == DEVCONTEXT:
        return _devcontext(ctx, arguments)
    obj = layer_prompts(ctx).get(name)
    if obj is None:
        raise PromptRefused(f"unknown prompt: {name}")
    declared = declared_arguments(obj)
    names = {a["name"] for a in declared}
    unknown = sorted(set(arguments) - names)
    if unknown:
        raise PromptRefused(f"prompt {name} takes no argument {', '.join(unknown)}")
    for arg in declared:
        if arg.get("required") and not arguments.get(arg["name"]):
            raise PromptRefused(f"prompt {name} requires the argument {arg['name']}")
    values = {key.upper(): value for key, value in arguments.items()}
    git = ctx.index.git
    if git.available:
        values.setdefault("BRANCH", git.branch or "(detached)")
        values.setdefault("HEAD", git.head or "(no commit)")
    text = _PLACEHOLDER.sub(lambda m: values.get(m.group(1).upper(), m.group(0)), obj.body)
    result: dict[str, Any] = {
        "messages": [{"role": "user", "content": {"type": "text", "text": text.strip()}}]
    }
    if obj.description:
        result["description"] = obj.description
    return result


def _devcontext(ctx: Workspace, arguments: dict[str, str]) -> dict[str, Any]:
    unknown = sorted(set(arguments) - {a["name"] for a in _DEVCONTEXT_ARGUMENTS})
    if unknown:
        raise PromptRefused(f"prompt devcontext takes no argument {', '.join(unknown)}")
    request: dict[str, Any] = {k: arguments[k] for k in _SEEDS if arguments.get(k)}
    if not request:
        raise PromptRefused(
            "prompt devcontext requires one of the arguments issue, milestone, intent"
        )
    budget = arguments.get("budget_tokens")
    if budget:
        if not budget.strip().isdigit():
            raise PromptRefused("argument budget_tokens must be a non-negative integer")
        request["budget_tokens"] = int(budget.strip())
    request["bundle"] = True
    try:
        compiled = ctx.executor.call("devcontext.compile", request)
    except CapabilityError as exc:
        raise PromptRefused(exc.display) from None
    return {
        "description": "The compiled context for "
        + ", ".join(f"{k} {request[k]}" for k in (*_SEEDS, "budget_tokens") if k in request),
        "messages": devcontext_messages(compiled),
    }


def devcontext_messages(compiled: dict[str, Any]) -> list[dict[str, Any]]:
    """The compiled context as messages: an overview of the selection (what was chosen, at
    what cost, and any diagnostic), then the capability's Markdown bundle, which holds each
    selected entry's content in tier order within the budget."""
    selected = compiled.get("selected", [])
    lines = [
        "# Development context",
        "",
        f"{len(selected)} entries selected, {len(compiled.get('excluded', []))} excluded "
        f"(fingerprint {compiled.get('fingerprint', '')}):",
        "",
    ]
    for entry in selected:
        title = entry.get("title") or entry["uri"]
        lines.append(
            f"- {title} ({entry['uri']}, tier {entry.get('tier')}, "
            f"{entry.get('cost_tokens')} tokens)"
        )
    for diagnostic in compiled.get("diagnostics", []):
        lines.append(f"- note: {diagnostic.get('message', diagnostic)}")
    messages = [{"role": "user", "content": {"type": "text", "text": "\n".join(lines)}}]
    bundle = compiled.get("bundle")
    if isinstance(bundle, str) and bundle:
        messages.append({"role": "user", "content": {"type": "text", "text": bundle}})
    return messages


def completion_values(
    ctx: Workspace, ref: dict[str, Any], argument: str, value: str, context: dict[str, str]
) -> list[str]:
    """Every value `completion/complete` may offer for one argument, filtered by prefix."""
    index = ctx.index
    candidates: list[str] = []
    if ref.get("type") == "ref/resource":
        if argument == "kind":
            candidates = list(index.kinds)
        elif argument == "identity":
            kind = context.get("kind")
            candidates = [o.identity for o in index.objects if kind is None or o.kind == kind]
    elif (
        ref.get("type") == "ref/prompt"
        and ref.get("name") == DEVCONTEXT
        and argument in ("issue", "milestone")
    ):
        candidates = [o.identity for o in index.objects if o.kind == argument]
    needle = value.casefold()
    return sorted({c for c in candidates if c.casefold().startswith(needle)})
