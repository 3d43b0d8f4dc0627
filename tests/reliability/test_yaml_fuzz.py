"""The YAML subset and the readers built on it under fuzzing: nothing raises but each reader's
own error, and the index turns every fuzzed file into objects or one diagnostic naming it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import majordomus.layer
from majordomus.layer.frontmatter import FrontMatterError, split
from majordomus.layer.index import build
from majordomus.layer.manifest import InvalidManifest, parse_manifest
from majordomus.layer.sources import InvalidSources, parse_sources
from majordomus.layer.yaml import YamlError, key_paths, parse
from tests.conftest import git, make_git_repo
from tests.layer.support import write
from tests.reliability.conftest import soak

FUZZ = settings(
    derandomize=True,
    max_examples=soak(200, 5000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SOURCES = """\
version: 1
sources:
  - id: policy
    kind: policy
    discovery: vcs
    pathspec: ':(glob).ai/repo/policy.yaml'
    required: true
  - id: profile
    kind: profile
    discovery: vcs
    pathspec: ':(glob).ai/repo/profiles/*.yaml'
    required: true
  - id: rule
    kind: rule
    discovery: vcs
    pathspec: ':(glob).ai/repo/rules/**/*.md'
    required: true
"""
SKELETON = Path(majordomus.layer.__file__).parent / "skeleton" / "ai"
MANIFEST = (SKELETON / "manifest.yaml").read_text(encoding="utf-8")
POLICY = (SKELETON / "repo/policy.yaml").read_text(encoding="utf-8")
PROFILE = (SKELETON / "repo/profiles/routine.yaml").read_text(encoding="utf-8")
RULE = (SKELETON / "repo/rules/vendor/majordomus/rules/scope-integrity.v1.md").read_text(
    encoding="utf-8"
)
FILES = {
    ".ai/repo/policy.yaml": POLICY,
    ".ai/repo/profiles/routine.yaml": PROFILE,
    ".ai/repo/rules/project/scope-integrity.v1.md": RULE,
}
SEEDS = [MANIFEST, SOURCES, *FILES.values()]

FRAGMENTS = [
    "a", "b1", "_k", "x-y", "id", "version", "kind", ":", ": ", " ", "  ", "- ", "-", "\n",
    "\r\n", "\r", "\t", "#", " #", "[", "]", ",", "'", '"', "---", "---\n", "\n---\n", "...",
    "? ", "&", "*", "|", ">", "!", "{", "}", "0", "7", "-3", "99999999999999999999", "true",
    "false", "null", "~", "\v", "\f", "\u2028", "\u2029", "\x85", "\x1c", "\x00", "\ufeff",
    "é", "\U0001f600", "\ud7ff", "  - ", "k: [a, b]", "k:\n  - x\n", "a.b: 1", "k: &x",
]  # fmt: skip
fragments = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str] = SEEDS) -> str:
    """A real layer file with a few insertions, deletions and replacements."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=5)))
        span = draw(st.integers(0, 12))
        if op == "insert":
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + span :]
        else:
            text = text[:at] + piece + text[at + span :]
    return text


fenced = st.builds(
    lambda open_, front, close, body: open_ + front + close + body,
    st.sampled_from(["---\n", "---\r\n", "---", "--- \n", "\ufeff---\n", ""]),
    st.one_of(fragments, st.text(max_size=60)),
    st.sampled_from(["\n---\n", "\n---", "---\n", "\n--- \n", "\n---\r\n", "\n...\n", ""]),
    st.one_of(fragments, st.text(max_size=30)),
)
texts = st.one_of(st.text(), fragments, mutated(), fenced)


def parse_total(text: str) -> None:
    try:
        mapping = parse(text)
    except YamlError as err:
        assert err.message and "\n" not in err.message
        return
    assert type(mapping) is dict
    key_paths(mapping)


@FUZZ
@given(texts)
def test_the_parser_raises_only_its_own_error(text: str) -> None:
    parse_total(text)


@FUZZ
@given(texts)
def test_the_front_matter_path_raises_only_its_own_errors(text: str) -> None:
    try:
        front, body = split(text)
    except FrontMatterError as err:
        assert err.message and "\n" not in err.message
        assert text.startswith("---")
        return
    if front is None:
        assert body == text
        return
    assert text.startswith("---\n") or text.startswith("---\r\n")
    assert text.endswith(body)
    parse_total(front)


@FUZZ
@given(st.one_of(texts, mutated([MANIFEST]), mutated([SOURCES])))
def test_the_typed_reads_raise_only_their_own_errors(text: str) -> None:
    try:
        parse_manifest(text, "manifest.yaml")
    except InvalidManifest as err:
        assert str(err).startswith("manifest.yaml: ")
    try:
        parse_sources(text, "sources.yaml")
    except InvalidSources as err:
        assert str(err).startswith("sources.yaml: ")


@pytest.fixture(scope="module")
def small_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A layer of three classes with one tracked file each; examples rewrite the work tree
    (vcs discovery lists the index, so the paths stay discovered)."""
    root = tmp_path_factory.mktemp("fuzz") / "repo"
    layer = {".ai/manifest.yaml": MANIFEST, ".ai/repo/knowledge/sources.yaml": SOURCES, **FILES}
    for rel, text in layer.items():
        write(root, rel, text)
    make_git_repo(root)
    git(root, "add", "-A")
    index = build(root, "vcs").index
    assert index.state == "ok", index.diagnostics
    assert {o.provenance.path for o in index.objects} == set(FILES)
    yield root


@FUZZ
@given(
    st.fixed_dictionaries(
        {
            rel: st.one_of(st.just(text), texts, st.binary(max_size=64)).map(
                lambda v: v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass")
            )
            for rel, text in FILES.items()
        }
    )
)
def test_the_index_turns_every_fuzzed_file_into_an_object_or_one_diagnostic(
    small_repo: Path, contents: dict[str, bytes]
) -> None:
    for rel, data in contents.items():
        (small_repo / rel).write_bytes(data)
    index = build(small_repo, "vcs").index
    for rel in FILES:
        objects = [o for o in index.objects if o.provenance.path == rel]
        errors = [d for d in index.diagnostics if d.path == rel and d.severity == "error"]
        assert (len(objects), len(errors)) in ((1, 0), (0, 1)), (rel, objects, errors)
        for diagnostic in errors:
            assert diagnostic.message and "\n" not in diagnostic.message
    assert index.state == ("degraded" if index.error_count else "ok")
