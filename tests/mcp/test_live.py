"""A long session with the official SDK client: prompts, the resource template, completion,
pagination, and a layer that changes while the session runs (README "In an MCP client").
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from tests.conftest import answered_sdk, git, sdk_session

TEMPLATE = "majordomus://{kind}/{identity}"
ADR_PATH = ".ai/repo/adrs/0007-serve-live.md"
ADR_URI = "majordomus://adr/ADR-0007"
ADR = """---
schema: adr/v1
id: ADR-0007
title: Servers stay true while they live
status: accepted
---

# Servers stay true while they live

The servers re-index when the layer changes: quokka-marker.
"""
PROJECT = {
    ".ai/repo/project/milestones/M01.yaml": "id: M01\ntitle: Live serving\noutcome: it works\n",
    ".ai/repo/project/issues/I0001.yaml": (
        "id: I0001\nmilestone: M01\ntitle: Serve live\nobjective: stay true\n"
    ),
    ".ai/repo/project/issues/I0002.yaml": (
        "id: I0002\nmilestone: M01\ntitle: Notify\nobjective: say so\n"
    ),
}


class Notes:
    """The notifications the session received, with an event per method."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []
        self.events: dict[str, anyio.Event] = {}

    def event(self, method: str) -> anyio.Event:
        return self.events.setdefault(method, anyio.Event())

    async def __call__(self, message: Any) -> None:
        if isinstance(message, Exception):
            return
        note = getattr(message, "root", message)
        method = getattr(note, "method", type(note).__name__)
        params = getattr(note, "params", None)
        self.seen.append((method, params))
        self.event(method).set()

    async def wait(self, method: str) -> None:
        with anyio.fail_after(30):
            await self.event(method).wait()


def drive(root: Path, work: Callable[[ClientSession, Notes], Awaitable[Any]], *args: str) -> Any:
    """Run one SDK session against `majordomus mcp` in `root`; return what `work` returns."""
    notes = Notes()
    return sdk_session(root, lambda session, _: work(session, notes), *args, handler=notes)[0]


def commit(root: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


async def refusal(call: Awaitable[Any]) -> tuple[int, str]:
    try:
        await call
    except MCPError as exc:
        return exc.code, exc.message
    raise AssertionError("the call was answered")


def test_prompts_are_listed_and_got(layer_repo: Path) -> None:
    commit(layer_repo, PROJECT, "A milestone and two issues")

    async def work(session: ClientSession, _: Notes) -> dict[str, Any]:
        listed = await session.list_prompts()
        handover = await session.get_prompt("handover", {"task": "live-serving"})
        cont = await session.get_prompt("continue")
        missing = await refusal(session.get_prompt("handover"))
        unknown = await refusal(session.get_prompt("nope"))
        compiled = await session.get_prompt("devcontext", {"issue": "I0001"})
        budget = await refusal(
            session.get_prompt("devcontext", {"intent": "x", "budget_tokens": "many"})
        )
        no_seed = await session.get_prompt("devcontext")
        return {
            "listed": listed,
            "handover": handover,
            "continue": cont,
            "missing": missing,
            "unknown": unknown,
            "compiled": compiled,
            "budget": budget,
            "no_seed": no_seed,
        }

    got = drive(layer_repo, work)
    prompts = {p.name: p for p in got["listed"].prompts}
    assert list(prompts) == ["devcontext", "continue", "handover"]
    assert [(a.name, a.required) for a in prompts["handover"].arguments or []] == [("task", True)]
    assert {a.name for a in prompts["devcontext"].arguments or []} == {
        "issue",
        "milestone",
        "intent",
        "budget_tokens",
    }
    [message] = got["handover"].messages
    assert message.role == "user" and "--task live-serving`" in message.content.text
    head = git(layer_repo, "rev-parse", "HEAD").strip()
    assert f"on branch master at {head}" in got["continue"].messages[0].content.text
    assert got["missing"] == (-32602, "prompt handover requires the argument task")
    assert got["unknown"] == (-32602, "unknown prompt: nope")
    assert got["budget"][0] == -32602 and "budget_tokens" in got["budget"][1]
    [bundle] = got["compiled"].messages
    assert "majordomus://issue/I0001" in bundle.content.text
    assert "objective: stay true" in bundle.content.text
    [governance] = got["no_seed"].messages
    assert "For no seed: the repository's governance only." in governance.content.text


def test_template_read_and_completion(layer_repo: Path) -> None:
    commit(layer_repo, PROJECT, "A milestone and two issues")

    async def work(session: ClientSession, _: Notes) -> dict[str, Any]:
        ref = types.ResourceTemplateReference(uri=TEMPLATE)
        prompt = types.PromptReference(name="devcontext")
        return {
            "templates": await session.list_resource_templates(),
            "read": await session.read_resource("majordomus://prompt/continue"),
            "kinds": await session.complete(ref, {"name": "kind", "value": "pr"}),
            "identities": await session.complete(
                ref, {"name": "identity", "value": ""}, {"kind": "prompt"}
            ),
            "issues": await session.complete(prompt, {"name": "issue", "value": "I"}),
            "milestones": await session.complete(prompt, {"name": "milestone", "value": ""}),
            "other": await refusal(
                session.complete(
                    types.ResourceTemplateReference(uri="file:///{x}"), {"name": "x", "value": ""}
                )
            ),
            "no_prompt": await refusal(
                session.complete(types.PromptReference(name="nope"), {"name": "x", "value": ""})
            ),
        }

    got = drive(layer_repo, work)
    templates = [t.uri_template for t in got["templates"].resource_templates]
    assert templates == [
        TEMPLATE,
        "majordomus://schema/{kind}",
        "majordomus://reasoning/record/{id}",
    ]
    [content] = got["read"].contents
    assert content.text == (layer_repo / ".ai/repo/prompts/continue.md").read_text()
    assert got["kinds"].completion.values == ["profile", "prompt"]
    assert got["identities"].completion.values == ["continue", "handover"]
    assert got["issues"].completion.values == ["I0001", "I0002"]
    assert got["milestones"].completion.values == ["M01"]
    assert got["other"][0] == -32602
    assert got["no_prompt"] == (-32602, "unknown prompt: nope")


#: 150 rules: more than fill one page of a list, and more than 64 layer files.
RULES = {
    f".ai/repo/rules/project/r{i:03d}.v1.md": (
        f"---\nid: project.r{i:03d}\nversion: 1\ntitle: Rule {i}\n---\n\nRule {i}.\n"
    )
    for i in range(150)
}


def test_every_list_pages_with_a_cursor(layer_repo: Path) -> None:
    commit(layer_repo, RULES, "150 rules")

    async def work(session: ClientSession, _: Notes) -> dict[str, Any]:
        pages = []
        cursor = None
        while True:
            page = await session.list_resources(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
            )
            pages.append(page)
            cursor = page.next_cursor
            if cursor is None:
                break
        return {
            "pages": pages,
            "tools": await session.list_tools(),
            "prompts": await session.list_prompts(),
            "bad": await refusal(
                session.list_tools(params=types.PaginatedRequestParams(cursor="bm9wZTow"))
            ),
            "other": await refusal(
                session.list_prompts(
                    params=types.PaginatedRequestParams(cursor=pages[0].next_cursor)
                )
            ),
        }

    got = drive(layer_repo, work)
    sizes = [
        len(json.dumps([r.model_dump(mode="json") for r in p.resources])) for p in got["pages"]
    ]
    assert len(sizes) >= 5 and all(size < 12_000 for size in sizes), "about 2,000 tokens a page"
    uris = [str(r.uri) for p in got["pages"] for r in p.resources]
    assert len(uris) == len(set(uris)) and "majordomus://rule/project.r149@1" in uris
    assert got["tools"].next_cursor is None and got["prompts"].next_cursor is None
    assert got["bad"] == (-32602, "invalid cursor: pass a nextCursor this list gave")
    assert got["other"][0] == -32602


def test_an_adr_committed_during_the_session_is_announced_unasked_and_served(
    layer_repo: Path,
) -> None:
    """The session sends nothing after the commit: the server says so of its own accord."""

    async def work(session: ClientSession, notes: Notes) -> dict[str, Any]:
        before = await session.list_resources()
        await session.list_prompts()
        commit(layer_repo, {ADR_PATH: ADR}, "ADR 0007")
        await notes.wait("notifications/resources/list_changed")
        after = await session.list_resources()
        found = await session.call_tool("majordomus_search", {"query": "quokka-marker"})
        read = await session.read_resource(ADR_URI)
        return {"before": before, "after": after, "found": found, "read": read, "notes": notes}

    got = drive(layer_repo, work)
    assert ADR_URI not in [str(r.uri) for r in got["before"].resources]
    assert ADR_URI in [str(r.uri) for r in got["after"].resources]
    methods = [method for method, _ in got["notes"].seen]
    assert "notifications/resources/list_changed" in methods
    assert "notifications/prompts/list_changed" not in methods
    hits = answered_sdk(got["found"])["hits"]
    assert [h["uri"] for h in hits] == [ADR_URI]
    assert got["read"].contents[0].text == ADR


@pytest.mark.parametrize("rule", ["r000", "r149"])
def test_an_unstaged_edit_in_place_is_served_by_the_next_answer(
    layer_repo: Path, rule: str
) -> None:
    """On a layer of more than 64 files (and within the freshness check's bound, so every
    file is stat'ed at every check), a file saved in place and not staged (git sees nothing)
    is what the very next answer serves."""
    commit(layer_repo, RULES, "150 rules")
    uri = f"majordomus://rule/project.{rule}@1"
    path = layer_repo / f".ai/repo/rules/project/{rule}.v1.md"

    async def work(session: ClientSession, _: Notes) -> list[str]:
        texts = [(await session.read_resource(uri)).contents[0].text]
        for line in ("First edit.", "Second edit."):
            with path.open("a", encoding="utf-8") as out:
                out.write(f"\n{line}\n")
            texts.append((await session.read_resource(uri)).contents[0].text)
        return texts

    before, first, second = drive(layer_repo, work)
    assert before.endswith(f"Rule {int(rule[1:])}.\n")
    assert first.endswith("\nFirst edit.\n") and second.endswith("\nSecond edit.\n")
    assert git(layer_repo, "status", "--porcelain").strip() == f"M {path.relative_to(layer_repo)}"


# The protocol revision after 2025-11-25 replaces subscriptions; the SDK warns about it.
@pytest.mark.filterwarnings("ignore:resources/.*subscribe is removed")
def test_a_subscribed_resource_that_changes_is_announced(layer_repo: Path) -> None:
    uri = "majordomus://prompt/continue"
    path = layer_repo / ".ai/repo/prompts/continue.md"

    async def work(session: ClientSession, notes: Notes) -> dict[str, Any]:
        await session.subscribe_resource(uri)
        await session.subscribe_resource("majordomus://prompt/handover")
        with path.open("a", encoding="utf-8") as out:
            out.write("\nOne more line, saved in place.\n")
        await session.send_ping()
        await notes.wait("notifications/resources/updated")
        read = await session.read_resource(uri)
        await session.unsubscribe_resource(uri)
        unknown = await refusal(session.subscribe_resource("majordomus://rule/nope@1"))
        return {"notes": notes, "read": read, "unknown": unknown}

    got = drive(layer_repo, work)
    updated = [p for m, p in got["notes"].seen if m == "notifications/resources/updated"]
    assert [str(p.uri) for p in updated] == [uri]
    assert got["read"].contents[0].text.endswith("saved in place.\n")
    assert got["unknown"][0] == -32002


def test_filesystem_discovery_sees_a_new_file(layer_repo: Path) -> None:
    """Without git in the loop, a file written under a watched directory is served next."""
    rule = ".ai/repo/rules/project/fresh.v1.md"

    async def work(session: ClientSession, notes: Notes) -> Any:
        await session.list_resources()
        (layer_repo / rule).write_text(
            "---\nid: project.fresh\nversion: 1\ntitle: Fresh\n---\n\nFresh.\n", encoding="utf-8"
        )
        await session.send_ping()
        await notes.wait("notifications/resources/list_changed")
        return await session.read_resource("majordomus://rule/project.fresh@1")

    read = drive(layer_repo, work, "--discovery", "filesystem")
    assert "Fresh." in read.contents[0].text
