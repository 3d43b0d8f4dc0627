"""The shared corpus (a real upstream layer) indexes without crashing, and every file it
cannot read becomes a diagnostic rather than a silent omission."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from majordomus.layer.index import build
from tests.conftest import CORPUS, make_git_repo
from tests.layer.support import discovered

LAYERS = (
    sorted(p for p in CORPUS.iterdir() if (p / ".ai" / "manifest.yaml").is_file())
    if (CORPUS.is_dir())
    else []
)


@pytest.mark.skipif(not LAYERS, reason="no corpus folder")
@pytest.mark.parametrize("layer", LAYERS, ids=lambda p: p.name)
def test_corpus_layer(layer: Path, tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / layer.name, layer)
    index = build(root).index
    files, _ = discovered(index.root, index.manifest, index.sources, "vcs")
    served = {obj.provenance.path for obj in index.objects}
    reported = {d.path for d in index.diagnostics if d.severity == "error"}
    paths = [path for claimed in files for path in claimed.paths]
    silent = [path for path in paths if path not in served and path not in reported]
    assert silent == []
    assert build(root, "filesystem").index.by_uri.keys() == index.by_uri.keys()

    codes = Counter(d.code for d in index.diagnostics)
    print(
        f"\n{layer.name}: state {index.state}, {len(index.objects)} objects, "
        f"{len(index.edges)} edges, {len(index.external)} external nodes"
    )
    print("  kinds: " + ", ".join(f"{k} {n}" for k, n in index.kinds.items()))
    print("  diagnostics: " + (", ".join(f"{c} {n}" for c, n in sorted(codes.items())) or "none"))
    for diagnostic in index.diagnostics:
        if diagnostic.severity == "error":
            print(f"  FAIL {diagnostic.code} {diagnostic.path} — {diagnostic.message[:100]}")
