"""The MCP conformance suite (npm `@modelcontextprotocol/conformance`) against MCP over
Streamable HTTP on `majordomus serve`, with the failures docs/mcp.md explains as its baseline.

Optional: it needs node and npx. The suite is used from the npx cache; only with
`MAJORDOMUS_TEST_CONFORMANCE=1` may npx download it. Without either the test skips.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import serve

#: The newest release that runs on node 20; 0.1.16 on node 22 gives the same results.
PACKAGE = "@modelcontextprotocol/conformance@0.1.13"
BASELINE = Path(__file__).with_name("conformance-expected-failures.yaml")


def suite() -> list[str] | None:
    npx = shutil.which("npx")
    if npx is None or shutil.which("node") is None:
        return None
    if os.environ.get("MAJORDOMUS_TEST_CONFORMANCE") == "1":
        return [npx, "--yes", PACKAGE]
    try:
        cached = subprocess.run(
            [npx, "--no", "--offline", PACKAGE, "--help"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [npx, "--no", "--offline", PACKAGE] if cached.returncode == 0 else None


def test_the_conformance_suite_fails_only_what_the_docs_explain(layer_repo: Path) -> None:
    command = suite()
    if command is None:
        pytest.skip(
            "the MCP conformance suite is not at hand (MAJORDOMUS_TEST_CONFORMANCE=1 lets npx "
            "fetch it)"
        )
    served = serve(layer_repo)
    url = served.url.replace("127.0.0.1", "localhost") + "/mcp"
    try:
        done = subprocess.run(
            [*command, "server", "--url", url, "--expected-failures", str(BASELINE)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
    finally:
        assert served.stop() == 0
    assert "Baseline check passed" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0
