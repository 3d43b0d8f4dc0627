"""No vendor, provider or model is named in code (`reasoning check`'s `coupling` check).

Every name the packaged data declares (advisor ids, titles, adapters, executables,
providers, vendors, models and their aliases) must be absent from the Python sources of
the advisors package and of the reasoning surfaces, as a whole word in any case.
"""

from __future__ import annotations

import re
from pathlib import Path

import majordomus
from majordomus.advisors.loading import load_catalogue

PACKAGE = Path(majordomus.__file__).parent
SOURCES = [
    PACKAGE / "advisors",
    PACKAGE / "capabilities" / "reasoning.py",
    PACKAGE / "cli" / "views" / "reasoning.py",
]


def declared_names() -> set[str]:
    loaded = load_catalogue(None)
    names = set(loaded.catalogue.names())
    names.update(a.title for a in loaded.catalogue.advisors)
    names.update(loaded.references.providers)
    models = loaded.references.models
    names.update(v.id for v in models.vendors)
    names.update(v.title for v in models.vendors)
    for m in models.models:
        names.update([m.id, m.native_id, *m.aliases])
    return names


def python_files() -> list[Path]:
    files: list[Path] = []
    for source in SOURCES:
        if source.is_dir():
            files.extend(sorted(source.rglob("*.py")))
        elif source.is_file():
            files.append(source)
    return files


def test_the_packaged_data_declares_names_to_look_for() -> None:
    assert len(declared_names()) > 10


def test_no_declared_name_appears_in_code() -> None:
    hits = []
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        for name in sorted(declared_names()):
            pattern = rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])"
            if re.search(pattern, text, re.IGNORECASE):
                hits.append(f"{path.relative_to(PACKAGE)}: {name}")
    assert hits == []
