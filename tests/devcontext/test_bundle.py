"""The bundle: the selected entries' content as one Markdown text, in tier order, each headed
by its identifier and why it is in, within the budget; on the Python API, MCP and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.devcontext import CompileInput, compile_context
from majordomus.devcontext.bundle import section
from majordomus.devcontext.model import Selector, Tier
from majordomus.layer.model import Index
from majordomus.mcp.server import Server
from tests.conftest import make_git_repo, run_majordomus
from tests.devcontext.conftest import LEDGERLY


@pytest.mark.parametrize("limit", [3_000, 8_000, 24_000])
def test_the_bundle_holds_every_selected_entry_in_tier_order_within_the_budget(
    ledgerly: Index, limit: int
) -> None:
    compiled = compile_context(
        ledgerly, CompileInput(issue="I0105", budget_tokens=limit, bundle=True)
    )
    bundle = compiled.bundle
    assert bundle is not None and bundle.startswith("# Development context\n")
    assert not compiled.budget.over_budget
    assert len(bundle.encode("utf-8")) <= 4 * limit, "content and headings fit the budget"
    headings = [line[4:] for line in bundle.splitlines() if line.startswith("### majordomus:")]
    assert headings == [e.uri for e in compiled.selected if e.uri.startswith("majordomus:")]
    words = {f"## {t.value}" for t in Tier.ORDER}
    tiers = [line[3:] for line in bundle.splitlines() if line in words]
    assert tiers == list(dict.fromkeys(e.tier.value for e in compiled.selected))
    for e in compiled.selected:
        obj = ledgerly.by_uri.get(e.uri)
        if obj is not None:
            assert obj.content in bundle
    issue = ledgerly.by_uri["majordomus://issue/I0105"]
    assert f"task · required · `{issue.provenance.path}` — seed: named in the request" in bundle


def test_a_section_costs_its_heading_too(ledgerly: Index) -> None:
    plain = compile_context(ledgerly, CompileInput(issue="I0105"))
    bundled = compile_context(ledgerly, CompileInput(issue="I0105", bundle=True))
    first = bundled.selected[0]
    assert first.cost_bytes > first.provenance.bytes
    assert first.cost_bytes == len(
        section(
            first.uri,
            first.tier,
            first.provenance.path,
            first.required,
            first.discovered_by,
            ledgerly.by_uri[first.uri].content,
        ).encode("utf-8")
    )
    assert plain.bundle is None and "bundle" not in plain.wire()
    assert "bundle" not in CompileInput().model_dump(mode="json", exclude_defaults=False)


def test_a_fence_is_longer_than_any_run_of_backticks_in_the_content() -> None:
    text = section("majordomus://adr/x", Tier.DECISION, "a.md", False, [], "a ```` b\n")
    assert "\n`````markdown\na ```` b\n`````\n" in text
    missing = section("file:lib", Tier.SOURCE, "lib", False, [], None)
    assert "does not hold this content; read `lib`" in missing


def test_the_bundle_through_mcp_is_one_call(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "ledgerly", LEDGERLY)
    srv = Server(Workspace(root), read_only=True)
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "majordomus_devcontext",
            "arguments": {"issue": "I0105", "budget_tokens": 8000, "bundle": True},
        },
    }
    line = srv.handle_line(json.dumps(message).encode())
    assert line is not None
    result = json.loads(line)["result"]
    [block] = result["content"]
    assert "structuredContent" not in result, "over MCP the answer is the bundle, once"
    assert block["text"].startswith("# Development context")
    assert "### majordomus://adr/adr-0006" in block["text"]


def test_the_cli_prints_the_bundle(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "ledgerly", LEDGERLY)
    done = run_majordomus(["devcontext", "compile", "--issue", "I0105", "--bundle"], cwd=root)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith("# Development context\n")
    assert "### majordomus://milestone/billing" in done.stdout
    assert Selector.SCOPE_PATH.value in done.stdout
