"""What the MCP surface offers as prompts, and the values `completion/complete` suggests."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from majordomus.errors import CapabilityError
from majordomus.layer.prompts import PLACEHOLDER, declared_arguments, placeholders
from majordomus.mcp.devcontext import fitted
from majordomus.mcp.jsonrpc import clean_value

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


class PromptRefused(Exception):
    """`prompts/get` cannot answer: an unknown prompt or a missing or bad argument."""


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
            "description": "What a session should read first, within a token budget: the "
            "context of an issue, a milestone or an intent, or of the repository's "
            "governance when none is given.",
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
    obj = layer_prompts(ctx).get(name)
    if obj is None and name != DEVCONTEXT:
        raise PromptRefused(f"unknown prompt: {name}")
    declared = _DEVCONTEXT_ARGUMENTS if obj is None else declared_arguments(obj)
    unknown = sorted(set(arguments) - {a["name"] for a in declared})
    if unknown:
        raise PromptRefused(f"prompt {name} takes no argument {', '.join(unknown)}")
    if obj is None:
        return _devcontext(ctx, arguments)
    for arg in declared:
        if arg.get("required") and not arguments.get(arg["name"]):
            raise PromptRefused(f"prompt {name} requires the argument {arg['name']}")
    given = {key.upper(): value for key, value in arguments.items() if value}
    values: dict[str, str | None] = {}
    for placeholder in placeholders(obj.body):
        fact = _FACTS.get(placeholder)
        values[placeholder] = given.get(placeholder) or (fact(ctx) if fact else None)
    text = PLACEHOLDER.sub(lambda m: values.get(m.group(1).upper()) or m.group(0), obj.body)
    unfilled = [f"{{{{{n}}}}}" for n, value in values.items() if value is None]
    if unfilled:
        text = f"{text.rstrip()}\n\nNot filled (no argument gave it and majordomus knows no "
        text += f"value): {', '.join(unfilled)}"
    result: dict[str, Any] = {
        "messages": [{"role": "user", "content": {"type": "text", "text": text.strip()}}]
    }
    if obj.description:
        result["description"] = obj.description
    return result


def _task(ctx: Workspace) -> str | None:
    from majordomus.ledger.tasks import UNTASKED, current_task

    task = current_task(ctx.root)
    return None if task == UNTASKED else task


def _checkpoint(ctx: Workspace) -> str | None:
    """The newest checkpoint's path and body, None when there is none or it cannot be read."""
    from majordomus.devcontext.sources import newest_record
    from majordomus.layer.frontmatter import FrontMatterError, split
    from majordomus.safefs import CONFIG_LIMIT, Tree, Unsafe

    folder = f".ai/{ctx.index.manifest.local_path}/state/checkpoints"
    try:
        with Tree(ctx.root) as tree:
            record = newest_record(tree, folder)
            if record is None:
                return None
            text = tree.read(record["path"], CONFIG_LIMIT).decode("utf-8", "replace")
        return f"{record['path']}\n\n{split(text)[1].strip()}"
    except (ValueError, Unsafe, FrontMatterError):
        return None


def _git(read: Callable[[Any], str | None]) -> Callable[[Workspace], str | None]:
    return lambda ctx: read(ctx.index.git) if ctx.index.git.available else None


#: How each fact of `majordomus.layer.prompts.FACTS` is read, only when a prompt uses it.
_FACTS: dict[str, Callable[[Workspace], str | None]] = {
    "TASK": _task,
    "TASK_ID": _task,
    "BRANCH": _git(lambda git: git.branch or "(detached)"),
    "HEAD": _git(lambda git: git.head or "(no commit)"),
    "WORKING_TREE": _git(lambda git: git.working_tree),
    "REPOSITORY": lambda ctx: str(ctx.root),
    "NOW": lambda _ctx: _now(),
    "CHECKPOINT": _checkpoint,
}


def _now() -> str:
    from majordomus.clock import now_epoch, stamp_of

    return stamp_of(now_epoch())


def _devcontext(ctx: Workspace, arguments: dict[str, str]) -> dict[str, Any]:
    request: dict[str, Any] = {k: arguments[k] for k in _SEEDS if arguments.get(k)}
    budget = arguments.get("budget_tokens")
    if budget:
        if not budget.strip().isdigit():
            raise PromptRefused("argument budget_tokens must be a non-negative integer")
        request["budget_tokens"] = int(budget.strip())
    named = ", ".join(f"{k} {v}" for k, v in request.items())
    description = f"The compiled context for {named or 'the repository governance'}"

    def messages(text: str) -> dict[str, Any]:
        message = {"role": "user", "content": {"type": "text", "text": text}}
        return clean_value({"description": description, "messages": [message]})  # type: ignore[no-any-return]

    try:
        return fitted(ctx, request, messages)
    except CapabilityError as exc:
        raise PromptRefused(exc.display) from None


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
