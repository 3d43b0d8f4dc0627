"""The bundle: the selected entries' content as one Markdown text, in tier order, each headed
by its identifier and why it is in, within the budget (over MCP: tests/mcp/test_tokens.py and
test_sdk_client.py; on the command line: tests/reliability/test_secret_layer.py)."""

from __future__ import annotations

import pytest

from majordomus.devcontext import CompileInput, compile_context
from majordomus.devcontext.bundle import section
from majordomus.devcontext.model import Tier
from majordomus.layer.model import Index


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
