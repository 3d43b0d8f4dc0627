"""The token economy of the MCP surface (docs/mcp.md): each answer carried once, lean tool
definitions with the record kinds' schemas as resources, list tools answering a page of about
2,000 tokens with a cursor for the rest, and the devcontext answer within its budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, answered, make_git_repo, run_majordomus
from tests.mcp.test_live import RULES, commit

#: What "about 2,000 tokens" may come to on the wire, for the byte-sized pages.
PAGE_LINE = 9_000


def _lines(pipes: Any, root: Path, messages: list[Any]) -> list[str]:
    result = pipes.run(root, messages).result
    assert result.code == 0, result.stderr
    return [line for line in result.stdout.split("\n") if line]


def test_tools_list_is_lean_and_every_answer_is_one_text_block(layer_repo: Path, pipes) -> None:
    tools_line, repository_line = _lines(
        pipes, layer_repo, [pipes.request(1, "tools/list"), pipes.call(2, "majordomus_repository")]
    )
    assert len(tools_line.encode()) <= 20_000
    tools = json.loads(tools_line)["result"]["tools"]
    for tool in tools:
        assert "outputSchema" not in tool, tool["name"]
        schema = json.dumps(tool["inputSchema"])
        assert "$defs" not in schema and '"title"' not in schema, tool["name"]
    [record] = [t for t in tools if t["name"] == "majordomus_reasoning_record"]
    tagged = record["inputSchema"]["properties"]["record"]
    assert tagged["type"] == "object" and tagged["required"] == ["kind"]
    assert "assessment" in tagged["properties"]["kind"]["enum"]
    assert "majordomus://schema/<kind>" in tagged["description"]
    [devcontext] = [t for t in tools if t["name"] == "majordomus_devcontext"]
    assert "detail" in devcontext["inputSchema"]["properties"]
    assert "bundle" not in devcontext["inputSchema"]["properties"], "the answer is the bundle"
    result = json.loads(repository_line)["result"]
    assert answered(result)["state"] == "ok"
    assert list(result) == ["content", "isError"]


def test_the_record_kinds_schemas_are_resources(layer_repo: Path, pipes) -> None:
    schema_ref = {"type": "ref/resource", "uri": "majordomus://schema/{kind}"}
    messages = [
        pipes.request(2, "resources/read", {"uri": "majordomus://schema/assessment"}),
        pipes.request(3, "resources/read", {"uri": "majordomus://schema/nonesuch"}),
        pipes.request(
            4,
            "completion/complete",
            {"ref": schema_ref, "argument": {"name": "kind", "value": "a"}},
        ),
    ]
    read, unknown, completed = (json.loads(line) for line in _lines(pipes, layer_repo, messages))
    [content] = read["result"]["contents"]
    schema = json.loads(content["text"])
    assert schema["type"] == "object" and "subject" in schema["required"]
    assert schema["properties"]["kind"]["const"] == "assessment"
    assert unknown["error"]["code"] == -32002
    assert completed["result"]["completion"]["values"] == ["assessment", "attempt"]


def test_a_list_tool_answers_a_page_and_its_cursor_the_rest(layer_repo: Path, pipes) -> None:
    commit(layer_repo, RULES, "150 rules")
    everything = json.loads(
        run_majordomus(["objects", "list", "--format", "json"], cwd=layer_repo).stdout
    )
    seen: list[str] = []
    arguments: dict[str, Any] = {}
    while True:
        [line] = _lines(pipes, layer_repo, [pipes.call(1, "majordomus_list", arguments)])
        assert len(line.encode()) <= PAGE_LINE
        page = answered(json.loads(line)["result"])
        seen += [o["uri"] for o in page["objects"]]
        if "next_cursor" not in page:
            break
        assert page["more"] is True and page["total"] == everything["count"]
        arguments = {"cursor": page["next_cursor"]}
    assert seen == [o["uri"] for o in everything["objects"]], "nothing lost, nothing twice"
    assert len(arguments) == 1, "more than one page"


def test_devcontext_over_mcp_is_the_bundle_within_its_budget(tmp_path: Path, pipes) -> None:
    root = make_git_repo(tmp_path / "ledgerly", FIXTURES / "layers" / "ledgerly")
    budgets = (600, 1500, 4000)
    calls = [
        pipes.call(i, "majordomus_devcontext", {"issue": "I0105", "budget_tokens": budget})
        for i, budget in enumerate(budgets)
    ]
    detail = {"issue": "I0105", "budget_tokens": 4000, "detail": True}
    calls += [
        pipes.call(10, "majordomus_devcontext", detail),
        pipes.call(11, "majordomus_devcontext", {"issue": "I0105", "detail": "yes"}),
    ]
    lines = _lines(pipes, root, calls)
    for budget, line in zip(budgets, lines, strict=False):
        [block] = json.loads(line)["result"]["content"]
        text = block["text"]
        assert text.startswith("# Development context")
        assert len(line.encode()) + 1 <= budget * 4 or "over the" in text, (budget, len(line))
        if "Compiled at" in text:
            assert f"of the {budget} tokens asked" in text
    rows = answered(json.loads(lines[3])["result"])
    assert rows["selected"] and "bundle" not in rows, "detail: the rows, not the content"
    notes = [d["message"] for d in rows["diagnostics"] if d["code"] == "mcp_budget"]
    shown = f"the first {len(rows['excluded'])} of "
    assert any(n.startswith("Shown to fit the budget") and shown in n for n in notes), notes
    assert len(lines[3].encode()) + 1 <= 4000 * 4 or any("over the 4000" in n for n in notes)
    refused = json.loads(lines[4])["result"]
    assert (
        refused["isError"] is True
        and "detail: must be true or false" in refused["content"][0]["text"]
    )
