"""Any path git can track names an object on every surface (README: "Object URIs")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import (
    GIT_ENV,
    MAJORDOMUS,
    answered_sdk,
    initialised_repo,
    run_majordomus,
    serve,
)

FILES = {
    "docs/Meeting notes.md": "# Meeting notes\n\nWe met.\n",
    "Release Notes.md": "# Release notes\n\nShipped.\n",
    "Ünïcode 100% #1?.md": "# Unicode\n\nOdd name.\n",
    "tab\there.md": "# Tab\n",
}
#: decoded identity → canonical URI
NAMED = {
    "docs/Meeting notes.md": "majordomus://document/docs/Meeting%20notes.md",
    "Release Notes.md": "majordomus://document/Release%20Notes.md",
    "Ünïcode 100% #1?.md": "majordomus://document/%C3%9Cn%C3%AFcode%20100%25%20%231%3F.md",
}
DISCOVERY = ["vcs", "filesystem"]


@pytest.fixture(scope="module")
def odd_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("odd") / "repo"
    (root / "docs").mkdir(parents=True)
    return initialised_repo(root, FILES)


def cli(root: Path, discovery: str, *args: str) -> Any:
    done = run_majordomus(["--discovery", discovery, "--format", "json", *args], cwd=root)
    assert done.code == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("discovery", DISCOVERY)
def test_the_cli_lists_canonical_uris_and_accepts_both_forms(
    odd_repo: Path, discovery: str
) -> None:
    listed = {
        o["identity"]: o["uri"] for o in cli(odd_repo, discovery, "objects", "list")["objects"]
    }
    for identity, uri in NAMED.items():
        assert listed[identity] == uri
        decoded = "majordomus://document/" + identity
        for given in (uri, decoded):
            got = cli(odd_repo, discovery, "objects", "get", given)
            assert got["uri"] == uri
            assert got["content"] == FILES[identity]
        explained = cli(odd_repo, discovery, "devcontext", "explain", decoded)
        assert explained["uri"] == uri
    assert not any("\t" in identity for identity in listed)


@pytest.mark.parametrize("discovery", DISCOVERY)
def test_inspect_prints_every_diagnostic(odd_repo: Path, discovery: str) -> None:
    text = run_majordomus(["--discovery", discovery, "mcp", "--inspect"], cwd=odd_repo)
    assert text.code == 10
    assert "FAIL unnamable_object" in text.stdout
    for uri in NAMED.values():
        assert f"resource    {uri}\n" in text.stdout
    done = run_majordomus(
        ["--discovery", discovery, "--format", "json", "mcp", "--inspect"], cwd=odd_repo
    )
    report = json.loads(done.stdout)
    [unnamed] = [d for d in report["repository"]["diagnostics"] if d["code"] == "unnamable_object"]
    assert unnamed["path"] == "tab\there.md"
    assert unnamed["severity"] == "error"


@pytest.mark.parametrize("discovery", DISCOVERY)
def test_the_sdk_client_lists_and_reads_them(odd_repo: Path, discovery: str) -> None:
    """Listed, read by canonical URI, and got by the tool under the decoded form."""

    async def main() -> tuple[list[str], dict[str, str], Any]:
        params = StdioServerParameters(
            command=MAJORDOMUS,
            args=["--discovery", discovery, "mcp"],
            cwd=str(odd_repo),
            env={**GIT_ENV, "MAJORDOMUS_LOG": "warn"},
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = [str(r.uri) for r in (await session.list_resources()).resources]
            texts = {}
            for uri in NAMED.values():
                [content] = (await session.read_resource(uri)).contents
                texts[str(content.uri)] = content.text
            decoded = {"uri": "majordomus://document/docs/Meeting notes.md"}
            return listed, texts, await session.call_tool("majordomus_get", decoded)

    listed, texts, got = asyncio.run(main())
    assert set(NAMED.values()) <= set(listed)
    assert texts == {uri: FILES[identity] for identity, uri in NAMED.items()}
    assert answered_sdk(got)["uri"] == NAMED["docs/Meeting notes.md"]


@pytest.mark.parametrize("discovery", DISCOVERY)
def test_http_serves_them(odd_repo: Path, discovery: str) -> None:
    served = serve(odd_repo, "--discovery", discovery)
    try:
        with served.client() as client:
            listed = client.get("/api/v1/objects").json()["objects"]
            assert {o["identity"]: o["uri"] for o in listed if o["identity"] in NAMED} == NAMED
            for identity, uri in NAMED.items():
                for given in (uri, "majordomus://document/" + identity):
                    got = client.get("/api/v1/object", params={"uri": given})
                    assert got.status_code == 200, got.text
                    assert got.json()["uri"] == uri
            ready = client.get("/api/v1/ready").json()
            assert ready["layer"] == "warn"
    finally:
        assert served.stop() == 0
