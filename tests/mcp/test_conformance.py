"""The MCP conformance suite against MCP over Streamable HTTP, with docs/mcp.md's failures as
its baseline; needs node (`MAJORDOMUS_TEST_CONFORMANCE=1` lets npx fetch it).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import npx_command, serve

#: The newest release that runs on node 20; 0.1.16 on node 22 gives the same results.
PACKAGE = "@modelcontextprotocol/conformance@0.1.13"
BASELINE = Path(__file__).with_name("conformance-expected-failures.yaml")


def test_the_conformance_suite_fails_only_what_the_docs_explain(layer_repo: Path) -> None:
    command = npx_command(PACKAGE, "MAJORDOMUS_TEST_CONFORMANCE")
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
