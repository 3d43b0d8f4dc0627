"""`majordomus generate [all|docs|openapi] [--check]`, black-box."""

from __future__ import annotations

import json
from pathlib import Path

from majordomus.capabilities.builtin import builtin_modules
from tests.conftest import REPO_ROOT, run_majordomus

GENERATED = REPO_ROOT / "docs" / "generated"


def _expected_files() -> list[str]:
    from majordomus.layer.reference import schema_kinds

    modules = sorted({module.id for module in builtin_modules()})
    return [
        "capabilities.md",
        "layer.md",
        *(f"modules/{m}.md" for m in modules),
        "openapi.json",
        *(f"schemas/{kind}.json" for kind in schema_kinds()),
    ]


def test_check_names_missing_files_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_majordomus(["generate", "--check", "--out", str(out)], cwd=tmp_path)
    assert done.code == 10, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:-1] == [f"{out / rel} (missing)" for rel in sorted(_expected_files())]
    assert (
        lines[-1]
        == f"generate --check: {len(lines) - 1} stale file(s); run `majordomus generate all`"
    )
    assert not out.exists()


def test_generate_is_deterministic_and_check_finds_edits(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run_majordomus(["generate", "all", "--out", str(out)], cwd=tmp_path)
    assert first.code == 0, first.stderr
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == sorted(_expected_files())
    snapshot = {rel: (out / rel).read_bytes() for rel in written}
    again = run_majordomus(["generate", "all", "--out", str(out)], cwd=tmp_path)
    assert again.code == 0 and again.stdout == ""
    assert {rel: (out / rel).read_bytes() for rel in written} == snapshot
    assert run_majordomus(["generate", "--check", "--out", str(out)], cwd=tmp_path).code == 0

    (out / "capabilities.md").write_text("edited\n", encoding="utf-8")
    orphan = out / "modules" / "gone.md"
    orphan.write_text("<!-- GENERATED FILE — DO NOT EDIT DIRECTLY. -->\n", encoding="utf-8")
    mine = out / "modules" / "notes.md"
    mine.write_text("hand-written\n", encoding="utf-8")
    stale = run_majordomus(["generate", "docs", "--check", "--out", str(out)], cwd=tmp_path)
    assert stale.code == 10
    assert stale.stdout.splitlines()[:-1] == [
        f"{out / 'capabilities.md'} (differs)",
        f"{orphan} (not generated)",
    ]
    fixed = run_majordomus(["generate", "docs", "--out", str(out)], cwd=tmp_path)
    assert fixed.code == 0
    assert not orphan.exists() and mine.exists()
    assert (out / "capabilities.md").read_bytes() == snapshot["capabilities.md"]


def test_targets_write_their_own_files(tmp_path: Path) -> None:
    api, docs = tmp_path / "api", tmp_path / "docs"
    assert run_majordomus(["generate", "openapi", "--out", str(api)], cwd=tmp_path).code == 0
    assert [p.name for p in api.iterdir()] == ["openapi.json"]
    assert run_majordomus(["generate", "docs", "--out", str(docs)], cwd=tmp_path).code == 0
    assert not (docs / "openapi.json").exists() and (docs / "capabilities.md").is_file()


def test_every_file_says_it_is_generated_and_holds_no_absolute_path() -> None:
    for rel in _expected_files():
        text = (GENERATED / rel).read_text(encoding="utf-8")
        assert str(REPO_ROOT) not in text and "/tmp/" not in text, rel
        if rel.endswith(".json"):
            document = json.loads(text)
            assert next(iter(document)) == "x-generated"
            assert document["x-generated"].startswith("GENERATED FILE — DO NOT EDIT DIRECTLY")
            producer = "docs" if rel.startswith("schemas/") else "openapi"
            assert f"majordomus generate {producer}" in document["x-generated"]
        else:
            first = text.splitlines()[0]
            assert first.startswith("<!-- GENERATED FILE — DO NOT EDIT DIRECTLY")
            assert "majordomus generate docs" in first


def test_module_pages_show_every_surface_with_absence_explicit() -> None:
    page = (GENERATED / "modules" / "objects.md").read_text(encoding="utf-8")
    assert "# Module `objects` — Objects" in page
    assert "## `objects.search` — Search objects" in page
    section = page.split("## `objects.search`")[1].split("\n## ")[0]
    for row in (
        "| MCP tool | `majordomus_search` |",
        "| MCP resource | — |",
        "| HTTP | `GET /api/v1/search` (operationId `objects.search`) |",
        "| CLI | `majordomus objects search` |",
        "| cache | process, 64 entries, emptied when the layer is read again |",
        "| benchmark | required |",
        "### Input: `SearchInput`",
        "| `query` | string | yes | Case-insensitive text to look for. |",
        "| `limit` | integer | no | At most this many hits (1..200, default 20). |",
        "### Output: `SearchResult`",
        "| http | covered | 1 | `rule` cold+warm |",
    ):
        assert row in section, row
    health = (GENERATED / "modules" / "health.md").read_text(encoding="utf-8")
    live = health.split("## `health.live`")[1].split("\n## ")[0]
    assert "| MCP tool | — |" in live and "| CLI | — |" in live
    assert "Input: none." in live
