"""Swagger UI works without a network: its files ship with the package and are served by
`majordomus serve` itself; headless Chromium, with every other host unreachable, renders one
entry per operation of the OpenAPI document. Skips where Chromium is not installed."""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Served

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)


def test_the_page_loads_only_what_this_server_serves(server: Served) -> None:
    with server.client() as client:
        page = client.get("/swagger")
        assert page.status_code == 200 and client.get("/swagger/").content == page.content
        assert "https://" not in page.text and "http://" not in page.text
        assert "/openapi.json" in page.text and page.text.count('integrity="sha384-') == 2
        policy = page.headers["content-security-policy"]
        assert "https:" not in policy and "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "no-referrer"
        for name, media in (
            ("swagger-ui-bundle.js", "text/javascript"),
            ("swagger-ui.css", "text/css"),
        ):
            asset = client.get(f"/swagger/{name}")
            assert asset.status_code == 200
            assert asset.headers["content-type"].startswith(media)
            digest = base64.b64encode(hashlib.sha384(asset.content).digest()).decode()
            assert f'src="/swagger/{name}"' in page.text or f'href="/swagger/{name}"' in page.text
            assert f'integrity="sha384-{digest}"' in page.text


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
def test_headless_chromium_renders_every_operation(server: Served, tmp_path: Path) -> None:
    with server.client() as client:
        document = client.get("/openapi.json").json()
    operations = [
        (op["tags"][0], op["operationId"])
        for item in document["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    ]
    assert operations
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            # every host but this machine is unreachable: the page must need no network
            "--proxy-server=http://127.0.0.1:9",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            server.url + "/swagger",
        ],
        capture_output=True,
        timeout=120,
    )
    dom = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    rendered = set(re.findall(r'id="operations-([^"]+)"', dom))
    for tag, operation_id in operations:
        assert f"{tag}-{operation_id.replace('.', chr(92) + '.')}" in rendered, operation_id
