"""One `ls-files` shared out among the classes: for every pathspec `shared` takes, the paths
it finds are the ones git lists for that pathspec alone, and a discovery that shares is the
discovery that lists each class alone (files, findings, entries and errors), against real git
over generated index paths and pathspecs."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majordomus.layer import discovery as discovery_module
from majordomus.layer.discovery import Glob, Listed, discover_listed, shared
from majordomus.layer.git import GitError, Listing
from majordomus.layer.model import SourceClass
from tests.conftest import GIT_ENV, git, make_git_repo
from tests.layer.support import listing_calls, manifest

PROPERTY = settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

MANIFEST = manifest(knowledge="repo/knowledge")

#: The blob every generated index entry names (git does not read it to list the index).
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

# Names with what git's matching and `Glob` read differently: wildcards, brackets, escapes,
# dots, spaces, non-ASCII (two bytes, one character).
_NAME_CHARS = "ab.*?[]\\ é-"
names = st.text(_NAME_CHARS, min_size=1, max_size=4).filter(
    lambda n: n not in (".", "..") and n.lower().rstrip(". ") not in ("", ".git", "git~1")
)
paths = st.lists(names, min_size=1, max_size=4).map("/".join)
#: Pattern segments: the ones git reads specially, and generated ones.
segments = st.one_of(
    st.sampled_from(["**", "*", "***", "a**", "**a", "", ".", "..", "[ab]", "\\*", "?", "*.a"]),
    st.text(_NAME_CHARS, min_size=1, max_size=3),
)
patterns = st.lists(segments, min_size=1, max_size=4).map("/".join)
#: Patterns inside the shared subset: `**` segments, and names with at most one `*`.
_PLAIN = st.text("ab. é-", max_size=2)
starred = st.builds(lambda a, star, b: a + star + b, _PLAIN, st.sampled_from(["", "*"]), _PLAIN)
shared_patterns = (
    st.lists(st.one_of(st.just("**"), starred), min_size=1, max_size=4)
    .filter(lambda parts: parts[-1] != "**" and all(p and p not in (".", "..") for p in parts))
    .map("/".join)
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_git_repo(tmp_path_factory.mktemp("shared") / "r", commit=False)


def _index(repo: Path, listed: list[str], conflicted: frozenset[str] = frozenset()) -> list[str]:
    """Make the git index hold `listed` (a conflicted path with three stages); the paths git
    kept, in its order (a path that is also a directory above another may be replaced)."""
    (repo / ".git" / "index").unlink(missing_ok=True)
    records = []
    for path in dict.fromkeys(listed):
        stages = (1, 2, 3) if path in conflicted else (0,)
        records += [f"100644 {EMPTY_BLOB} {stage}\t{path}".encode() for stage in stages]
    env = {**os.environ, **GIT_ENV}
    subprocess.run(
        ["git", "-C", str(repo), "update-index", "-z", "--index-info"],
        input=b"".join(r + b"\0" for r in records),
        env=env,
        check=True,
        capture_output=True,
    )
    return list(dict.fromkeys(git(repo, "ls-files", "-z").split("\0")[:-1]))


def _alone(repo: Path, pathspec: str) -> dict[str, str] | str:
    """What `ls-files` answers for `pathspec` alone: its entries, or the failure's text."""
    try:
        return Listing(repo, pathspec).entries()
    except GitError as exc:
        return exc.message


def _git_rule(pattern: str, path: str) -> bool:
    """Git's literal reading of a pathspec: the path itself or a directory above it."""
    return path == pattern or path.startswith(pattern + "/")


@PROPERTY
@given(
    listed=st.lists(paths, min_size=1, max_size=12),
    pattern=shared_patterns,
    below=st.sampled_from(["", "/x", "/*/y.a"]),
)
def test_a_shared_pathspec_finds_what_git_lists_for_it(
    repo: Path, listed: list[str], pattern: str, below: str
) -> None:
    """`below` adds a path under a directory named as the pattern (git's literal rule)."""
    how = shared(":(glob)" + pattern)
    assert how is not None
    assume(".git" not in pattern.lower())
    keys = _index(repo, [*listed, pattern + below] if below else listed)
    alone = _alone(repo, ":(glob)" + pattern)
    assert isinstance(alone, dict)
    entries = dict.fromkeys(keys, "")
    assert how.paths(sorted(keys), entries) == sorted(alone)
    # on these pathspecs `Glob` is git's matcher, besides git's literal rule
    glob = Glob(pattern)
    assert sorted(k for k in keys if glob.matches(k) or _git_rule(pattern, k)) == sorted(alone)


def _valid(name: str) -> bool:
    return name not in ("", ".", "..") and name.lower().rstrip(". ") not in ("", ".git", "git~1")


def _instances(draw: st.DrawFn, pattern: str) -> list[str]:
    """Paths near `pattern`: one it should match (each `*` and `?` filled in, each `**` some
    directories), the pattern itself, a path below it, and its directory as a file: the
    paths where git and a wrong matcher would part."""
    filled: list[str] = []
    for part in pattern.split("/"):
        if part == "**":
            filled += draw(st.lists(st.sampled_from(["a", "é", "b.a"]), max_size=2))
            continue
        for wild in ("*", "?"):
            pieces = part.split(wild)
            # a `*` filled across a `/` gives a path only a wrong matcher takes
            fill = (
                st.sampled_from(["", "a", "é", "a.", wild, "a/a"])
                if wild == "*"
                else st.sampled_from(["a", "é", "?"])
            )
            part = pieces[0] + "".join(draw(fill) + piece for piece in pieces[1:])
        filled.append(part)
    near = ["/".join(filled), pattern, pattern + "/x", pattern.rpartition("/")[0]]
    return [p for p in near if p and all(_valid(name) for name in p.split("/"))]


def _classes(specs: list[str]) -> list[SourceClass]:
    return [
        SourceClass(id=f"c{n}", kind="document", discovery="vcs", pathspec=s, required=n == 0)
        for n, s in enumerate(specs)
    ]


def _discovery(repo: Path, classes: list[SourceClass]) -> Listed | str:
    """The discovery, but for what the shared listing printed (classes alone print no one
    listing)."""
    try:
        return discover_listed(repo, MANIFEST, classes, "vcs")._replace(out=None)
    except GitError as exc:
        return exc.message


def _listed_alone(repo: Path, classes: list[SourceClass]) -> Listed | str:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(discovery_module, "shared", lambda pathspec: None)
        return _discovery(repo, classes)


@PROPERTY
@given(
    data=st.data(),
    listed=st.lists(paths, min_size=1, max_size=12),
    specs=st.lists(st.one_of(patterns, shared_patterns), min_size=1, max_size=4),
    conflicted=st.sets(paths, max_size=2),
)
def test_a_shared_discovery_is_the_discovery_of_each_class_alone(
    repo: Path, data: st.DataObject, listed: list[str], specs: list[str], conflicted: set[str]
) -> None:
    """Overlapping classes (`claimed_twice`), empty required ones, conflicted entries, and
    pathspecs git refuses or `shared` does not take: the same answer either way."""
    near = [path for spec in specs for path in _instances(data.draw, spec)]
    _index(repo, [*listed, *near, *conflicted], frozenset(conflicted))
    classes = _classes([":(glob)" + spec for spec in specs])
    assert _discovery(repo, classes) == _listed_alone(repo, classes)


def test_the_layer_pathspecs_are_shared() -> None:
    for pattern in (
        ".ai/repo/policy.yaml",
        ".ai/repo/profiles/*.yaml",
        ".ai/repo/rules/**/*.md",
        "docs/*.md",
        "*.md",
        "bin/*",
        "a/**/b/**/*.md",
    ):
        assert shared(":(glob)" + pattern) is not None, pattern


@pytest.mark.parametrize(
    "pattern",
    [
        "docs/?.md",
        "docs/[ab].md",
        "docs/\\*.md",
        "a//b",
        "/a",
        "a/",
        "./a",
        "a/../b",
        "a/**",
        "**",
        "a**/b",
        "***/b",
        "a/*b*.md",
        "",
    ],
)
def test_pathspecs_git_reads_otherwise_are_listed_alone(pattern: str) -> None:
    assert shared(":(glob)" + pattern) is None


def _tree(root: Path, rels: list[str]) -> None:
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel + "\n")
    git(root, "add", "-A")


CLASSES = _classes([":(glob)docs/*.md", ":(glob)docs/**/*.md", ":(glob)none/*.md"])


def test_one_listing_serves_every_shared_class(tmp_path: Path, monkeypatch) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md", "docs/sub/b.md", "docs/*.md/odd.md", "other.md"])
    calls = listing_calls(monkeypatch)
    found = discover_listed(root, MANIFEST, CLASSES, "vcs")
    assert calls == [tuple(c.pathspec for c in CLASSES)]
    monkeypatch.undo()
    assert found._replace(out=None) == _listed_alone(root, CLASSES)
    assert [(f.path, f.source.id) for f in found.files] == [
        ("docs/*.md/odd.md", "c0"),  # git's literal rule: the pathspec names a directory
        ("docs/a.md", "c0"),
        ("docs/sub/b.md", "c1"),
    ]


@pytest.mark.parametrize("variable", ["GIT_ICASE_PATHSPECS", "GIT_LITERAL_PATHSPECS"])
def test_pathspec_variables_list_every_class_alone(
    tmp_path: Path, monkeypatch, variable: str
) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md", "DOCS/B.md"])
    monkeypatch.setenv(variable, "1")
    calls = listing_calls(monkeypatch)
    found = discover_listed(root, MANIFEST, CLASSES, "vcs")
    assert calls == [(c.pathspec,) for c in CLASSES]
    monkeypatch.undo()
    monkeypatch.setenv(variable, "1")
    assert found == _listed_alone(root, CLASSES)


def test_a_path_that_is_not_utf8_fails_as_its_class_alone(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md"])
    with open(bytes(root) + b"/docs/sub-caf\xe9.md", "wb") as handle:
        handle.write(b"x\n")
    os.makedirs(bytes(root) + b"/docs/deep")
    with open(bytes(root) + b"/docs/deep/caf\xe9.md", "wb") as handle:
        handle.write(b"x\n")
    git(root, "add", "-A")
    with pytest.raises(GitError) as shared_error:
        discover_listed(root, MANIFEST, CLASSES, "vcs")
    assert "not UTF-8: docs/sub-caf\ufffd.md" in shared_error.value.message
    assert shared_error.value.message == _listed_alone(root, CLASSES)


def test_a_failing_listing_fails_as_the_first_class_alone(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    classes = _classes([":(glob)docs/?.md", ":(glob)docs/*.md"])
    with pytest.raises(GitError) as failed:
        discover_listed(tmp_path / "plain", MANIFEST, classes, "vcs")
    assert failed.value.message.endswith("(pathspec :(glob)docs/?.md)")
    assert failed.value.message == _listed_alone(tmp_path / "plain", classes)


def test_a_root_below_the_work_tree_shares_as_it_lists(tmp_path: Path) -> None:
    """From a subdirectory git lists paths relative to it, and a `..` pathspec lists paths
    above it (`../x`, out of order); every class still finds what it finds alone."""
    top = make_git_repo(tmp_path / "top", commit=False)
    _tree(top, ["x.md", "a/x.md", "sub/b/x.md", "sub/x.md", "z/x.md"])
    classes = _classes([":(glob)*/x.md", ":(glob)../*/x.md", ":(glob)**/x.md"])
    found = discover_listed(top / "sub", MANIFEST, classes, "vcs")
    assert found._replace(out=None) == _listed_alone(top / "sub", classes)
    assert [f.path for f in found.files] == ["b/x.md", "x.md"]
    shutil.rmtree(top)
